"""The documents of a delegation itself (the entry form with the unit's seal)

Revision ID: 0042
Revises: 0041
Create Date: 2026-12-03 15:00:00

"""
import sqlalchemy as sa
from alembic import op

revision = '0042'
down_revision = '0041'
branch_labels = None
depends_on = None


def upgrade():
    with op.batch_alter_table('delegation') as batch:
        batch.add_column(sa.Column('documents', sa.JSON(), nullable=True))


def downgrade():
    with op.batch_alter_table('delegation') as batch:
        batch.drop_column('documents')
