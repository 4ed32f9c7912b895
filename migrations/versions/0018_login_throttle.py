"""login throttle per account name and client

Wrong passwords slow down the client that makes them (by device cookie or address), not the
account: a stranger can no longer lock anyone out (issue 19, 2). The account-wide lock
columns go.

Revision ID: 0018
Revises: 0017
Create Date: 2026-12-01 10:00:00

"""
from alembic import op
import sqlalchemy as sa

revision = '0018'
down_revision = '0017'
branch_labels = None
depends_on = None


def upgrade():
    op.create_table(
        'login_throttle',
        sa.Column('id', sa.Integer(), nullable=False),
        sa.Column('name_key', sa.String(length=64), nullable=False),
        sa.Column('scope', sa.String(length=100), nullable=False),
        sa.Column('failures', sa.Integer(), nullable=False),
        sa.Column('blocked_until', sa.DateTime(), nullable=True),
        sa.Column('updated_at', sa.DateTime(), nullable=False),
        sa.PrimaryKeyConstraint('id', name=op.f('pk_login_throttle')),
        sa.UniqueConstraint('name_key', 'scope', name=op.f('uq_login_throttle_name_key_scope')),
    )
    op.create_index('ix_login_throttle_updated', 'login_throttle', ['updated_at'], unique=False)
    with op.batch_alter_table('user_account', schema=None) as batch_op:
        batch_op.drop_column('locked_until')
        batch_op.drop_column('failed_logins')


def downgrade():
    with op.batch_alter_table('user_account', schema=None) as batch_op:
        batch_op.add_column(sa.Column('failed_logins', sa.Integer(), server_default='0', nullable=False))
        batch_op.add_column(sa.Column('locked_until', sa.DateTime(), nullable=True))
    op.drop_index('ix_login_throttle_updated', table_name='login_throttle')
    op.drop_table('login_throttle')
