"""delegation content revision

Raised by every write to a delegation or its rows; the cached document and judgement of a delegation are keyed by it (portal/delegations/judged.py)

Revision ID: 0016
Revises: 0015
Create Date: 2026-11-30 18:37:51.200434

"""
from alembic import op
import sqlalchemy as sa


# revision identifiers, used by Alembic.
revision = '0016'
down_revision = '0015'
branch_labels = None
depends_on = None


def upgrade():
    with op.batch_alter_table('delegation', schema=None) as batch_op:
        batch_op.add_column(sa.Column('content_rev', sa.Integer(), server_default='0', nullable=False))



def downgrade():
    with op.batch_alter_table('delegation', schema=None) as batch_op:
        batch_op.drop_column('content_rev')

