"""staff per Games: an organiser or accountant serves the Games granted and sees no other
(the staff of an existing install keep every Games they saw until an administrator narrows it)

Revision ID: 0026
Revises: 0025
Create Date: 2026-12-01 16:00:00

"""
import datetime as dt

import sqlalchemy as sa
from alembic import op

revision = '0026'
down_revision = '0025'
branch_labels = None
depends_on = None


def upgrade():
    op.create_table(
        'games_staff',
        sa.Column('id', sa.Integer(), nullable=False),
        sa.Column('user_id', sa.Integer(), nullable=False),
        sa.Column('games_id', sa.Integer(), nullable=False),
        sa.Column('granted_at', sa.DateTime(), nullable=False),
        sa.Column('granted_by', sa.String(length=100), nullable=False),
        sa.ForeignKeyConstraint(['games_id'], ['games.id'], name=op.f('fk_games_staff_games_id_games'),
                                ondelete='CASCADE'),
        sa.ForeignKeyConstraint(['user_id'], ['user_account.id'], name=op.f('fk_games_staff_user_id_user_account'),
                                ondelete='CASCADE'),
        sa.PrimaryKeyConstraint('id', name=op.f('pk_games_staff')),
        sa.UniqueConstraint('user_id', 'games_id', name=op.f('uq_games_staff_user_id_games_id')),
    )
    op.create_index(op.f('ix_games_staff_games_id'), 'games_staff', ['games_id'], unique=False)
    op.create_index(op.f('ix_games_staff_user_id'), 'games_staff', ['user_id'], unique=False)
    # Until today staff saw every Games: keep that for the accounts that exist, so that no
    # committee is locked out by the upgrade; the administrator narrows it in the screens.
    bind = op.get_bind()
    staff = bind.execute(sa.text("SELECT id FROM user_account WHERE role IN ('organiser', 'accountant')")).all()
    games = bind.execute(sa.text("SELECT id FROM games")).all()
    now = dt.datetime.now(dt.UTC).replace(tzinfo=None)
    table = sa.table('games_staff', sa.column('user_id'), sa.column('games_id'), sa.column('granted_at'),
                     sa.column('granted_by'))
    rows = [{"user_id": u, "games_id": g, "granted_at": now, "granted_by": "升级 (upgrade 0026)"}
            for (u,) in staff for (g,) in games]
    if rows:
        op.bulk_insert(table, rows)


def downgrade():
    op.drop_index(op.f('ix_games_staff_user_id'), table_name='games_staff')
    op.drop_index(op.f('ix_games_staff_games_id'), table_name='games_staff')
    op.drop_table('games_staff')
