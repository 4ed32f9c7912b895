"""The units a registered player has represented: what the register may tell of him, and to whom

Revision ID: 0043
Revises: 0042
Create Date: 2026-12-03 17:00:00

"""
import sqlalchemy as sa
from alembic import op

revision = '0043'
down_revision = '0042'
branch_labels = None
depends_on = None


def upgrade():
    with op.batch_alter_table('register_player') as batch:
        batch.add_column(sa.Column('units', sa.JSON(), nullable=True))


def downgrade():
    with op.batch_alter_table('register_player') as batch:
        batch.drop_column('units')
