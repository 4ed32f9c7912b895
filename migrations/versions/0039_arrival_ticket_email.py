"""An arrival ticket holds the address the entrant gave, until his account is made

Revision ID: 0039
Revises: 0038
Create Date: 2026-12-03 09:00:00

"""
import sqlalchemy as sa
from alembic import op

revision = '0039'
down_revision = '0038'
branch_labels = None
depends_on = None


def upgrade():
    with op.batch_alter_table('arrival_ticket') as batch:
        batch.add_column(sa.Column('email', sa.String(length=200), nullable=True))


def downgrade():
    with op.batch_alter_table('arrival_ticket') as batch:
        batch.drop_column('email')
