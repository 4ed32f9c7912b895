"""the regulation's own text kept with its Games

Revision ID: 0028
Revises: 0027
Create Date: 2026-12-01 16:10:00

"""
import sqlalchemy as sa
from alembic import op

revision = '0028'
down_revision = '0027'
branch_labels = None
depends_on = None


def upgrade():
    with op.batch_alter_table('games') as batch:
        batch.add_column(sa.Column('regulation_text', sa.Text(), nullable=True))


def downgrade():
    with op.batch_alter_table('games') as batch:
        batch.drop_column('regulation_text')
