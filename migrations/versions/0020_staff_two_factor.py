"""staff two-factor login (TOTP and recovery codes)

Revision ID: 0020
Revises: 0019
Create Date: 2026-12-01 11:00:00

"""
from alembic import op
import sqlalchemy as sa

revision = '0020'
down_revision = '0019'
branch_labels = None
depends_on = None


def upgrade():
    with op.batch_alter_table('user_account', schema=None) as batch_op:
        batch_op.add_column(sa.Column('totp_secret', sa.String(length=64), nullable=True))
        batch_op.add_column(sa.Column('totp_last_step', sa.BigInteger(), nullable=True))
        batch_op.add_column(sa.Column('totp_enabled_at', sa.DateTime(), nullable=True))
        batch_op.add_column(sa.Column('recovery_codes', sa.JSON(), nullable=True))


def downgrade():
    with op.batch_alter_table('user_account', schema=None) as batch_op:
        batch_op.drop_column('recovery_codes')
        batch_op.drop_column('totp_enabled_at')
        batch_op.drop_column('totp_last_step')
        batch_op.drop_column('totp_secret')
