"""identity checks: which numbers of a saved delegation were compared with other delegations

A leader is told that an ID number is registered elsewhere only for numbers his saves
compared, a bounded number a day (issue 19, 1). Numbers stored before count as compared.

Revision ID: 0019
Revises: 0018
Create Date: 2026-12-01 10:30:00

"""
from alembic import op
import sqlalchemy as sa

revision = '0019'
down_revision = '0018'
branch_labels = None
depends_on = None


def upgrade():
    op.create_table(
        'identity_check',
        sa.Column('id', sa.Integer(), nullable=False),
        sa.Column('delegation_id', sa.Integer(), nullable=False),
        sa.Column('id_number', sa.String(length=40), nullable=False),
        sa.Column('user_id', sa.Integer(), nullable=True),
        sa.Column('checked_at', sa.DateTime(), nullable=False),
        sa.ForeignKeyConstraint(['delegation_id'], ['delegation.id'],
                                name=op.f('fk_identity_check_delegation_id_delegation'), ondelete='CASCADE'),
        sa.ForeignKeyConstraint(['user_id'], ['user_account.id'],
                                name=op.f('fk_identity_check_user_id_user_account'), ondelete='SET NULL'),
        sa.PrimaryKeyConstraint('id', name=op.f('pk_identity_check')),
        sa.UniqueConstraint('delegation_id', 'id_number', name=op.f('uq_identity_check_delegation_id_id_number')),
    )
    op.create_index(op.f('ix_identity_check_delegation_id'), 'identity_check', ['delegation_id'], unique=False)
    op.create_index('ix_identity_check_user_checked', 'identity_check', ['user_id', 'checked_at'], unique=False)
    op.execute("INSERT INTO identity_check (delegation_id, id_number, checked_at) "
               "SELECT DISTINCT delegation_id, id_number, CURRENT_TIMESTAMP FROM person "
               "WHERE id_number IS NOT NULL")


def downgrade():
    op.drop_index('ix_identity_check_user_checked', table_name='identity_check')
    op.drop_index(op.f('ix_identity_check_delegation_id'), table_name='identity_check')
    op.drop_table('identity_check')
