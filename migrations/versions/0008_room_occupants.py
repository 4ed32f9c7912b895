"""room occupants

Revision ID: 0008
Revises: 0007
Create Date: 2026-11-30 12:06:44.929595

"""
from alembic import op
import sqlalchemy as sa


# revision identifiers, used by Alembic.
revision = '0008'
down_revision = '0007'
branch_labels = None
depends_on = None


def upgrade():
    with op.batch_alter_table('room_request', schema=None) as batch_op:
        batch_op.add_column(sa.Column('occupants', sa.JSON(), nullable=False, server_default=sa.text("'[]'")))



def downgrade():
    with op.batch_alter_table('room_request', schema=None) as batch_op:
        batch_op.drop_column('occupants')

