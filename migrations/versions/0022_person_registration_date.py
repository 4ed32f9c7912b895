"""person registration date

A regulation may date the registration ("registered by 28 February", issue 22, 9).

Revision ID: 0022
Revises: 0021
Create Date: 2026-12-01 12:00:00

"""
from alembic import op
import sqlalchemy as sa

revision = '0022'
down_revision = '0021'
branch_labels = None
depends_on = None


def upgrade():
    with op.batch_alter_table('person', schema=None) as batch_op:
        batch_op.add_column(sa.Column('registration_date', sa.Date(), nullable=True))


def downgrade():
    with op.batch_alter_table('person', schema=None) as batch_op:
        batch_op.drop_column('registration_date')
