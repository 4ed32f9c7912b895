"""The statuses of jobs, the outbox and Games named, each held by its CHECK constraint

Revision ID: 0046
Revises: 0045
Create Date: 2026-12-03 17:40:00

"""
from alembic import op

revision = '0046'
down_revision = '0045'
branch_labels = None
depends_on = None

CHECKS = {
    'job': "status IN ('queued', 'running', 'done', 'failed')",
    'outbox_message': "status IN ('pending', 'sending', 'sent', 'failed')",
    'games': "status IN ('draft', 'published')",
}


def upgrade():
    for table, check in CHECKS.items():
        with op.batch_alter_table(table) as batch:
            batch.create_check_constraint('status', check)


def downgrade():
    for table in CHECKS:
        with op.batch_alter_table(table) as batch:
            batch.drop_constraint(op.f(f'ck_{table}_status'), type_='check')
