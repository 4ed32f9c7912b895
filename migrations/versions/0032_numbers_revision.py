"""a delegation's identity-number revision: a save elsewhere leaves a judgement valid
unless it changed an identity number

Revision ID: 0032
Revises: 0031
Create Date: 2026-12-01 17:40:00

"""
import sqlalchemy as sa
from alembic import op

revision = '0032'
down_revision = '0031'
branch_labels = None
depends_on = None


def upgrade():
    with op.batch_alter_table('delegation') as batch:
        batch.add_column(sa.Column('numbers_rev', sa.Integer(), server_default='0', nullable=False))


def downgrade():
    with op.batch_alter_table('delegation') as batch:
        batch.drop_column('numbers_rev')
