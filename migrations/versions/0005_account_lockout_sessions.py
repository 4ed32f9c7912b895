"""account lockout and revocable sessions

Revision ID: 0005
Revises: 0004
"""
from alembic import op
import sqlalchemy as sa


revision = "0005"
down_revision = "0004"
branch_labels = None
depends_on = None


def upgrade():
    with op.batch_alter_table("user_account", schema=None) as batch_op:
        batch_op.add_column(sa.Column("failed_logins", sa.Integer(), server_default="0", nullable=False))
        batch_op.add_column(sa.Column("locked_until", sa.DateTime(), nullable=True))
        batch_op.add_column(sa.Column("session_version", sa.Integer(), server_default="1", nullable=False))


def downgrade():
    with op.batch_alter_table("user_account", schema=None) as batch_op:
        batch_op.drop_column("session_version")
        batch_op.drop_column("locked_until")
        batch_op.drop_column("failed_logins")
