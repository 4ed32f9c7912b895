"""a running job's heartbeat: a job whose worker died is failed after a while, not left running

Revision ID: 0030
Revises: 0029
Create Date: 2026-12-01 17:00:00

"""
import sqlalchemy as sa
from alembic import op

revision = '0030'
down_revision = '0029'
branch_labels = None
depends_on = None


def upgrade():
    with op.batch_alter_table('job') as batch:
        batch.add_column(sa.Column('heartbeat_at', sa.DateTime(), nullable=True))


def downgrade():
    with op.batch_alter_table('job') as batch:
        batch.drop_column('heartbeat_at')
