"""The institutions the organisers admitted into a delegation as one joint team (联队)

Revision ID: 0044
Revises: 0043
Create Date: 2026-12-03 17:20:00

"""
import sqlalchemy as sa
from alembic import op

revision = '0044'
down_revision = '0043'
branch_labels = None
depends_on = None


def upgrade():
    with op.batch_alter_table('delegation') as batch:
        batch.add_column(sa.Column('joint_with', sa.JSON(), nullable=True))


def downgrade():
    with op.batch_alter_table('delegation') as batch:
        batch.drop_column('joint_with')
