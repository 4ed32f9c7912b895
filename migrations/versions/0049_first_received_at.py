"""A delegation keeps when its entry first arrived (first_received_at): a late-entry fee
(逾期报名加收) charges by it, and a return for corrections never makes an entry late

Revision ID: 0049
Revises: 0048
Create Date: 2026-12-07 19:30:00

"""
import sqlalchemy as sa
from alembic import op

from portal.db_types import UTCDateTime

revision = '0049'
down_revision = '0048'
branch_labels = None
depends_on = None


def upgrade():
    with op.batch_alter_table('delegation') as batch:
        batch.add_column(sa.Column('first_received_at', UTCDateTime(), nullable=True))
    # The best known for an entry already in: its latest arrival.
    op.execute("UPDATE delegation SET first_received_at = received_at WHERE received_at IS NOT NULL")


def downgrade():
    with op.batch_alter_table('delegation') as batch:
        batch.drop_column('first_received_at')
