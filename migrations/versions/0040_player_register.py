"""The player register: players by identity number, their grades, ratings, points and
qualifications across Games; a person's career fields as his delegation gives them

Revision ID: 0040
Revises: 0039
Create Date: 2026-12-03 13:00:00

"""
import sqlalchemy as sa
from alembic import op

from portal.db_types import UTCDateTime

revision = '0040'
down_revision = '0039'
branch_labels = None
depends_on = None


def upgrade():
    with op.batch_alter_table('person') as batch:
        batch.add_column(sa.Column('profile', sa.JSON(), nullable=True))
    op.create_table(
        'register_player',
        sa.Column('id', sa.Integer(), primary_key=True),
        sa.Column('id_number', sa.String(40), nullable=False),
        sa.UniqueConstraint('id_number', name=op.f('uq_register_player_id_number')),
        sa.Column('name', sa.String(100), nullable=False),
        sa.Column('gender', sa.String(1), nullable=True),
        sa.Column('birth_date', sa.Date(), nullable=True),
        sa.Column('created_at', UTCDateTime(), nullable=False))
    op.create_table(
        'register_grade',
        sa.Column('id', sa.Integer(), primary_key=True),
        sa.Column('player_id', sa.Integer(), sa.ForeignKey('register_player.id', ondelete='CASCADE'), nullable=False),
        sa.Column('system', sa.String(40), nullable=False),
        sa.Column('grade', sa.String(40), nullable=False),
        sa.Column('awarded_on', sa.Date(), nullable=True),
        sa.Column('awarded_by', sa.String(200), nullable=True),
        sa.Column('source', sa.String(300), nullable=False),
        sa.Column('games_slug', sa.String(80), nullable=True),
        sa.Column('event_code', sa.String(40), nullable=True),
        sa.Column('recorded_at', UTCDateTime(), nullable=False),
        sa.Column('recorded_by', sa.String(200), nullable=False),
        sa.Column('withdrawn_at', UTCDateTime(), nullable=True),
        sa.Column('withdrawn_reason', sa.Text(), nullable=True))
    op.create_index('ix_register_grade_player_id', 'register_grade', ['player_id'])
    op.create_index('ix_register_grade_games_event', 'register_grade', ['games_slug', 'event_code'])
    op.create_table(
        'register_rating_list',
        sa.Column('id', sa.Integer(), primary_key=True),
        sa.Column('list_code', sa.String(40), nullable=False),
        sa.Column('published_on', sa.Date(), nullable=False),
        sa.Column('filename', sa.String(200), nullable=False),
        sa.Column('rows', sa.Integer(), nullable=False),
        sa.Column('imported_at', UTCDateTime(), nullable=False),
        sa.Column('imported_by', sa.String(200), nullable=False),
        sa.UniqueConstraint('list_code', 'published_on', name=op.f('uq_register_rating_list_list_code_published_on')))
    op.create_table(
        'register_rating',
        sa.Column('id', sa.Integer(), primary_key=True),
        sa.Column('list_id', sa.Integer(), sa.ForeignKey('register_rating_list.id', ondelete='CASCADE'), nullable=False),
        sa.Column('player_id', sa.Integer(), sa.ForeignKey('register_player.id', ondelete='CASCADE'), nullable=False),
        sa.Column('value', sa.Integer(), nullable=False),
        sa.UniqueConstraint('list_id', 'player_id', name=op.f('uq_register_rating_list_id_player_id')),
        sa.CheckConstraint('value >= 0', name=op.f('ck_register_rating_value_not_negative')))
    op.create_index('ix_register_rating_list_id', 'register_rating', ['list_id'])
    op.create_index('ix_register_rating_player_id', 'register_rating', ['player_id'])
    op.create_table(
        'register_points',
        sa.Column('id', sa.Integer(), primary_key=True),
        sa.Column('player_id', sa.Integer(), sa.ForeignKey('register_player.id', ondelete='CASCADE'), nullable=False),
        sa.Column('points', sa.String(40), nullable=False),
        sa.Column('points_name', sa.String(100), nullable=False),
        sa.Column('amount', sa.Numeric(10, 2), nullable=False),
        sa.Column('games_slug', sa.String(80), nullable=False),
        sa.Column('event_code', sa.String(40), nullable=False),
        sa.Column('place', sa.Integer(), nullable=False),
        sa.Column('recorded_at', UTCDateTime(), nullable=False))
    op.create_index('ix_register_points_player_id', 'register_points', ['player_id'])
    op.create_index('ix_register_points_games_event', 'register_points', ['games_slug', 'event_code'])
    op.create_table(
        'register_qualification',
        sa.Column('id', sa.Integer(), primary_key=True),
        sa.Column('player_id', sa.Integer(), sa.ForeignKey('register_player.id', ondelete='CASCADE'), nullable=False),
        sa.Column('target', sa.String(80), nullable=False),
        sa.Column('from_games', sa.String(80), nullable=False),
        sa.Column('from_series', sa.String(80), nullable=False),
        sa.Column('event_code', sa.String(40), nullable=True),
        sa.Column('place', sa.Integer(), nullable=True),
        sa.Column('recorded_at', UTCDateTime(), nullable=False),
        sa.Column('recorded_by', sa.String(200), nullable=False),
        sa.Column('withdrawn_at', UTCDateTime(), nullable=True),
        sa.Column('withdrawn_reason', sa.Text(), nullable=True))
    op.create_index('ix_register_qualification_player_id', 'register_qualification', ['player_id'])
    op.create_index('ix_register_qualification_target', 'register_qualification', ['target'])
    op.create_index('ix_register_qualification_games_event', 'register_qualification', ['from_games', 'event_code'])
    op.create_table(
        'register_revision',
        sa.Column('id', sa.Integer(), primary_key=True),
        sa.Column('revision', sa.Integer(), nullable=False))


def downgrade():
    for table in ('register_revision', 'register_qualification', 'register_points', 'register_rating',
                  'register_rating_list', 'register_grade', 'register_player'):
        op.drop_table(table)
    with op.batch_alter_table('person') as batch:
        batch.drop_column('profile')
