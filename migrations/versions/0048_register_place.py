"""The register keeps each player's places (register_place): a rule that bars earlier
placers from an event reads them ("曾获得本赛事前八名者不得参加业余组")

Places are recorded as results are stored from this revision on; results stored before it
are carried into the register by `flask results carry SLUG` (or when entered again).

Revision ID: 0048
Revises: 0047
Create Date: 2026-12-07 19:00:00

"""
import sqlalchemy as sa
from alembic import op

from portal.db_types import UTCDateTime

revision = '0048'
down_revision = '0047'
branch_labels = None
depends_on = None


def upgrade():
    op.create_table(
        'register_place',
        sa.Column('id', sa.Integer(), primary_key=True),
        sa.Column('player_id', sa.Integer(), sa.ForeignKey('register_player.id', ondelete='CASCADE'), nullable=False),
        sa.Column('games_slug', sa.String(80), nullable=False),
        sa.Column('series', sa.String(60), nullable=False),
        sa.Column('edition', sa.Integer(), nullable=False),
        sa.Column('event_code', sa.String(40), nullable=False),
        sa.Column('place', sa.Integer(), nullable=False),
        sa.Column('games_name_zh', sa.String(200), nullable=False),
        sa.Column('games_name_en', sa.String(200), nullable=False),
        sa.Column('event_name_zh', sa.String(200), nullable=False),
        sa.Column('event_name_en', sa.String(200), nullable=False),
        sa.Column('recorded_at', UTCDateTime(), nullable=False))
    op.create_index('ix_register_place_player_id', 'register_place', ['player_id'])
    op.create_index('ix_register_place_games_event', 'register_place', ['games_slug', 'event_code'])


def downgrade():
    op.drop_table('register_place')
