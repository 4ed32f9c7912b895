"""webhooks: an organiser's URL told of each step, signed, sent from the outbox

Revision ID: 0034
Revises: 0033
Create Date: 2026-12-01 18:20:00

"""
import sqlalchemy as sa
from alembic import op

revision = '0034'
down_revision = '0033'
branch_labels = None
depends_on = None


def upgrade():
    op.create_table(
        'webhook',
        sa.Column('id', sa.Integer(), nullable=False),
        sa.Column('games_id', sa.Integer(), nullable=False),
        sa.Column('url', sa.String(length=500), nullable=False),
        sa.Column('secret', sa.String(length=64), nullable=False),
        sa.Column('active', sa.Boolean(), nullable=False),
        sa.Column('created_by', sa.String(length=100), nullable=False),
        sa.Column('created_at', sa.DateTime(), nullable=False),
        sa.ForeignKeyConstraint(['games_id'], ['games.id'], name=op.f('fk_webhook_games_id_games'), ondelete='CASCADE'),
        sa.PrimaryKeyConstraint('id', name=op.f('pk_webhook')),
    )
    op.create_index(op.f('ix_webhook_games_id'), 'webhook', ['games_id'], unique=False)
    with op.batch_alter_table('outbox_message') as batch:
        batch.alter_column('to_address', type_=sa.String(length=500), existing_type=sa.String(length=200))


def downgrade():
    with op.batch_alter_table('outbox_message') as batch:
        batch.alter_column('to_address', type_=sa.String(length=200), existing_type=sa.String(length=500))
    op.drop_index(op.f('ix_webhook_games_id'), table_name='webhook')
    op.drop_table('webhook')
