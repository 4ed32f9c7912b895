"""results from the entrants: who, number, points and tie-breaks; absences per round;
medals won elsewhere

Revision ID: 0021
Revises: 0020
Create Date: 2026-12-01 11:30:00

"""
from alembic import op
import sqlalchemy as sa

revision = '0021'
down_revision = '0020'
branch_labels = None
depends_on = None


def upgrade():
    with op.batch_alter_table('event_result', schema=None) as batch_op:
        batch_op.add_column(sa.Column('entrant_key', sa.String(length=40), nullable=True))
        batch_op.add_column(sa.Column('number', sa.Integer(), nullable=True))
        batch_op.add_column(sa.Column('score', sa.String(length=24), nullable=True))
        batch_op.add_column(sa.Column('tie_breaks', sa.JSON(), nullable=True))
    op.create_table(
        'round_absence',
        sa.Column('id', sa.Integer(), nullable=False),
        sa.Column('games_id', sa.Integer(), nullable=False),
        sa.Column('event_code', sa.String(length=40), nullable=False),
        sa.Column('entrant_key', sa.String(length=40), nullable=False),
        sa.Column('round_no', sa.Integer(), nullable=False),
        sa.Column('recorded_by', sa.String(length=100), nullable=False),
        sa.Column('recorded_at', sa.DateTime(), nullable=False),
        sa.ForeignKeyConstraint(['games_id'], ['games.id'], name=op.f('fk_round_absence_games_id_games'),
                                ondelete='CASCADE'),
        sa.PrimaryKeyConstraint('id', name=op.f('pk_round_absence')),
        sa.UniqueConstraint('games_id', 'event_code', 'entrant_key', 'round_no',
                            name=op.f('uq_round_absence_games_id_event_code_entrant_key_round_no')),
    )
    op.create_index(op.f('ix_round_absence_games_id'), 'round_absence', ['games_id'], unique=False)
    op.create_table(
        'outside_medal',
        sa.Column('id', sa.Integer(), nullable=False),
        sa.Column('games_id', sa.Integer(), nullable=False),
        sa.Column('delegation_id', sa.Integer(), nullable=False),
        sa.Column('medal', sa.String(length=10), nullable=False),
        sa.Column('athlete', sa.String(length=200), nullable=False),
        sa.Column('event_name', sa.String(length=200), nullable=False),
        sa.Column('source', sa.String(length=200), nullable=False),
        sa.Column('entered_by', sa.String(length=100), nullable=False),
        sa.Column('entered_at', sa.DateTime(), nullable=False),
        sa.CheckConstraint("medal IN ('gold', 'silver', 'bronze')", name=op.f('ck_outside_medal_medal')),
        sa.ForeignKeyConstraint(['delegation_id'], ['delegation.id'],
                                name=op.f('fk_outside_medal_delegation_id_delegation'), ondelete='CASCADE'),
        sa.ForeignKeyConstraint(['games_id'], ['games.id'], name=op.f('fk_outside_medal_games_id_games'),
                                ondelete='CASCADE'),
        sa.PrimaryKeyConstraint('id', name=op.f('pk_outside_medal')),
    )
    op.create_index(op.f('ix_outside_medal_delegation_id'), 'outside_medal', ['delegation_id'], unique=False)
    op.create_index(op.f('ix_outside_medal_games_id'), 'outside_medal', ['games_id'], unique=False)


def downgrade():
    op.drop_index(op.f('ix_outside_medal_games_id'), table_name='outside_medal')
    op.drop_index(op.f('ix_outside_medal_delegation_id'), table_name='outside_medal')
    op.drop_table('outside_medal')
    op.drop_index(op.f('ix_round_absence_games_id'), table_name='round_absence')
    op.drop_table('round_absence')
    with op.batch_alter_table('event_result', schema=None) as batch_op:
        batch_op.drop_column('tie_breaks')
        batch_op.drop_column('score')
        batch_op.drop_column('number')
        batch_op.drop_column('entrant_key')
