"""API tokens: why a token ended when its owner did not revoke it (a new password, a
second factor enrolled or reset); an arrival ticket logs its browser in once

Revision ID: 0038
Revises: 0037
Create Date: 2026-12-02 19:40:00

"""
import sqlalchemy as sa
from alembic import op

revision = '0038'
down_revision = '0037'
branch_labels = None
depends_on = None


def upgrade():
    with op.batch_alter_table('api_token') as batch:
        batch.add_column(sa.Column('revoked_reason', sa.String(length=40), nullable=True))
    with op.batch_alter_table('arrival_ticket') as batch:
        batch.add_column(sa.Column('logged_in_at', sa.DateTime(), nullable=True))


def downgrade():
    with op.batch_alter_table('arrival_ticket') as batch:
        batch.drop_column('logged_in_at')
    with op.batch_alter_table('api_token') as batch:
        batch.drop_column('revoked_reason')
