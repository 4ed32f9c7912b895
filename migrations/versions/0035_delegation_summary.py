"""a stored summary of each delegation's judgement (errors, warnings, by rule), so that the
organisers' pages read figures instead of judging the whole Games again

Revision ID: 0035
Revises: 0034
Create Date: 2026-12-01 20:00:00

"""
import sqlalchemy as sa
from alembic import op

revision = '0035'
down_revision = '0034'
branch_labels = None
depends_on = None


def upgrade():
    # Empty at first: each summary is written the first time a page needs it.
    op.create_table(
        'delegation_summary',
        sa.Column('delegation_id', sa.Integer(), sa.ForeignKey('delegation.id', ondelete='CASCADE'), primary_key=True),
        sa.Column('judged_key', sa.String(64), nullable=False),
        sa.Column('errors', sa.Integer(), nullable=False),
        sa.Column('warnings', sa.Integer(), nullable=False),
        sa.Column('by_rule', sa.JSON(), nullable=False),
        sa.Column('judged_at', sa.DateTime(), nullable=False),
    )


def downgrade():
    op.drop_table('delegation_summary')
