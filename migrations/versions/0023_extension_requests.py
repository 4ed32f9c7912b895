"""extension requests: a leader asks for more time after a stage closed

Revision ID: 0023
Revises: 0022
Create Date: 2026-12-01 12:30:00

"""
from alembic import op
import sqlalchemy as sa

revision = '0023'
down_revision = '0022'
branch_labels = None
depends_on = None


def upgrade():
    op.create_table(
        'extension_request',
        sa.Column('id', sa.Integer(), nullable=False),
        sa.Column('delegation_id', sa.Integer(), nullable=False),
        sa.Column('stage', sa.String(length=20), nullable=False),
        sa.Column('reason', sa.String(length=1000), nullable=False),
        sa.Column('requested_by', sa.String(length=100), nullable=False),
        sa.Column('requested_at', sa.DateTime(), nullable=False),
        sa.Column('status', sa.String(length=20), nullable=False),
        sa.Column('answer', sa.String(length=1000), nullable=True),
        sa.Column('answered_by', sa.String(length=100), nullable=True),
        sa.Column('answered_at', sa.DateTime(), nullable=True),
        sa.CheckConstraint("status IN ('pending', 'granted', 'declined')", name=op.f('ck_extension_request_status')),
        sa.ForeignKeyConstraint(['delegation_id'], ['delegation.id'],
                                name=op.f('fk_extension_request_delegation_id_delegation'), ondelete='CASCADE'),
        sa.PrimaryKeyConstraint('id', name=op.f('pk_extension_request')),
    )
    op.create_index(op.f('ix_extension_request_delegation_id'), 'extension_request', ['delegation_id'], unique=False)


def downgrade():
    op.drop_index(op.f('ix_extension_request_delegation_id'), table_name='extension_request')
    op.drop_table('extension_request')
