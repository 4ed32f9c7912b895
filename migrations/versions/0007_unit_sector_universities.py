"""units name the universities of their sector

Revision ID: 0007
Revises: 0006
Create Date: 2026-11-30 11:39:56.678673

"""
from alembic import op
import sqlalchemy as sa


# revision identifiers, used by Alembic.
revision = '0007'
down_revision = '0006'
branch_labels = None
depends_on = None


def upgrade():
    with op.batch_alter_table('unit', schema=None) as batch_op:
        batch_op.add_column(sa.Column('universities', sa.JSON(), nullable=False, server_default=sa.text("'[]'")))



def downgrade():
    with op.batch_alter_table('unit', schema=None) as batch_op:
        batch_op.drop_column('universities')

