"""delegation status: only the states the portal knows (a check constraint)

Revision ID: 0024
Revises: 0023
Create Date: 2026-12-01 12:30:00

"""
from alembic import op

revision = '0024'
down_revision = '0023'
branch_labels = None
depends_on = None

STATES = ('draft', 'submitted', 'waitlisted', 'returned', 'approved', 'withdrawn')


def upgrade():
    # SQLite rebuilds the table: keep AUTOINCREMENT (ids never reused: audit records point
    # at them), which an earlier rebuild dropped.
    with op.batch_alter_table('delegation', schema=None, table_kwargs={'sqlite_autoincrement': True}) as batch_op:
        batch_op.create_check_constraint(
            op.f('ck_delegation_status'), "status IN (%s)" % ", ".join(f"'{s}'" for s in STATES))


def downgrade():
    with op.batch_alter_table('delegation', schema=None, table_kwargs={'sqlite_autoincrement': True}) as batch_op:
        batch_op.drop_constraint(op.f('ck_delegation_status'), type_='check')
