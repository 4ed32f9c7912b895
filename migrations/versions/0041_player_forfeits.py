"""A player's forfeits across a series and what its ladder of sanctions makes of them

Revision ID: 0041
Revises: 0040
Create Date: 2026-12-03 14:00:00

"""
import sqlalchemy as sa
from alembic import op

from portal.db_types import UTCDateTime

revision = '0041'
down_revision = '0040'
branch_labels = None
depends_on = None


def upgrade():
    op.create_table(
        'register_forfeit',
        sa.Column('id', sa.Integer(), primary_key=True),
        sa.Column('player_id', sa.Integer(), sa.ForeignKey('register_player.id', ondelete='CASCADE'), nullable=False),
        sa.Column('series', sa.String(80), nullable=False),
        sa.Column('edition', sa.Integer(), nullable=False),
        sa.Column('games_slug', sa.String(80), nullable=False),
        sa.Column('event_code', sa.String(40), nullable=False),
        sa.Column('round_no', sa.Integer(), nullable=False),
        sa.Column('recorded_at', UTCDateTime(), nullable=False))
    op.create_index('ix_register_forfeit_games_event', 'register_forfeit', ['games_slug', 'event_code'])
    op.create_index('ix_register_forfeit_player_series', 'register_forfeit', ['player_id', 'series'])
    op.create_table(
        'register_sanction',
        sa.Column('id', sa.Integer(), primary_key=True),
        sa.Column('player_id', sa.Integer(), sa.ForeignKey('register_player.id', ondelete='CASCADE'), nullable=False),
        sa.Column('series', sa.String(80), nullable=False),
        sa.Column('edition', sa.Integer(), nullable=False),
        sa.Column('kind', sa.String(20), nullable=False),
        sa.Column('source_games', sa.String(80), nullable=False),
        sa.Column('forfeits', sa.Integer(), nullable=False),
        sa.Column('clause', sa.String(60), nullable=True),
        sa.Column('created_at', UTCDateTime(), nullable=False),
        sa.Column('lifted_at', UTCDateTime(), nullable=True),
        sa.CheckConstraint("kind IN ('warning', 'barred')", name=op.f('ck_register_sanction_kind')))
    op.create_index('ix_register_sanction_player_id', 'register_sanction', ['player_id'])
    op.create_index('ix_register_sanction_series_edition', 'register_sanction', ['series', 'edition'])


def downgrade():
    op.drop_table('register_sanction')
    op.drop_table('register_forfeit')
