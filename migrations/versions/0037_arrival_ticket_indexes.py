"""indexes on the arrival tickets' foreign keys (their place, delegation and account)

Revision ID: 0037
Revises: 0036
Create Date: 2026-12-01 23:58:00

"""
from alembic import op

revision = '0037'
down_revision = '0036'
branch_labels = None
depends_on = None


def upgrade():
    op.create_index('ix_arrival_ticket_place_id', 'arrival_ticket', ['place_id'])
    op.create_index('ix_arrival_ticket_delegation_id', 'arrival_ticket', ['delegation_id'])
    op.create_index('ix_arrival_ticket_user_id', 'arrival_ticket', ['user_id'])


def downgrade():
    op.drop_index('ix_arrival_ticket_user_id', 'arrival_ticket')
    op.drop_index('ix_arrival_ticket_delegation_id', 'arrival_ticket')
    op.drop_index('ix_arrival_ticket_place_id', 'arrival_ticket')
