"""a Games set up in the screens: draft or published, and each version of its definition
(publication, then each amendment with its number and reason)

Revision ID: 0027
Revises: 0026
Create Date: 2026-12-01 16:00:00

"""
import sqlalchemy as sa
from alembic import op

revision = '0027'
down_revision = '0026'
branch_labels = None
depends_on = None


def upgrade():
    with op.batch_alter_table('games') as batch:
        batch.add_column(sa.Column('status', sa.String(length=20), server_default='published', nullable=False))
    op.create_table(
        'games_version',
        sa.Column('id', sa.Integer(), nullable=False),
        sa.Column('games_id', sa.Integer(), nullable=False),
        sa.Column('number', sa.Integer(), nullable=False),
        sa.Column('definition', sa.JSON(), nullable=False),
        sa.Column('amendment', sa.String(length=100), nullable=True),
        sa.Column('reason', sa.String(length=1000), nullable=True),
        sa.Column('created_at', sa.DateTime(), nullable=False),
        sa.Column('created_by', sa.String(length=100), nullable=False),
        sa.ForeignKeyConstraint(['games_id'], ['games.id'], name=op.f('fk_games_version_games_id_games'),
                                ondelete='CASCADE'),
        sa.PrimaryKeyConstraint('id', name=op.f('pk_games_version')),
        sa.UniqueConstraint('games_id', 'number', name=op.f('uq_games_version_games_id_number')),
    )
    op.create_index(op.f('ix_games_version_games_id'), 'games_version', ['games_id'], unique=False)


def downgrade():
    op.drop_index(op.f('ix_games_version_games_id'), table_name='games_version')
    op.drop_table('games_version')
    with op.batch_alter_table('games') as batch:
        batch.drop_column('status')
