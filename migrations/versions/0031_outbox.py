"""e-mail: accounts' and units' addresses, each account's language, and the outbox

Revision ID: 0031
Revises: 0030
Create Date: 2026-12-01 17:20:00

"""
import sqlalchemy as sa
from alembic import op

revision = '0031'
down_revision = '0030'
branch_labels = None
depends_on = None


def upgrade():
    with op.batch_alter_table('user_account') as batch:
        batch.add_column(sa.Column('email', sa.String(length=200), nullable=True))
        batch.add_column(sa.Column('lang', sa.String(length=5), server_default='zh', nullable=False))
        batch.add_column(sa.Column('reminders', sa.Boolean(), server_default=sa.true(), nullable=False))
    with op.batch_alter_table('delegation') as batch:
        batch.add_column(sa.Column('contact_email', sa.String(length=200), nullable=True))
    op.create_table(
        'outbox_message',
        sa.Column('id', sa.Integer(), nullable=False),
        sa.Column('kind', sa.String(length=40), nullable=False),
        sa.Column('dedupe_key', sa.String(length=200), nullable=True),
        sa.Column('delegation_id', sa.Integer(), nullable=True),
        sa.Column('games_id', sa.Integer(), nullable=True),
        sa.Column('to_address', sa.String(length=200), nullable=False),
        sa.Column('to_name', sa.String(length=100), nullable=False),
        sa.Column('lang', sa.String(length=5), nullable=False),
        sa.Column('subject', sa.String(length=300), nullable=False),
        sa.Column('body', sa.Text(), nullable=False),
        sa.Column('status', sa.String(length=20), nullable=False),
        sa.Column('attempts', sa.Integer(), nullable=False),
        sa.Column('next_attempt_at', sa.DateTime(), nullable=False),
        sa.Column('last_error', sa.String(length=500), nullable=True),
        sa.Column('created_at', sa.DateTime(), nullable=False),
        sa.Column('sent_at', sa.DateTime(), nullable=True),
        sa.ForeignKeyConstraint(['delegation_id'], ['delegation.id'], name=op.f('fk_outbox_message_delegation_id_delegation'),
                                ondelete='CASCADE'),
        sa.ForeignKeyConstraint(['games_id'], ['games.id'], name=op.f('fk_outbox_message_games_id_games'),
                                ondelete='CASCADE'),
        sa.PrimaryKeyConstraint('id', name=op.f('pk_outbox_message')),
        sa.UniqueConstraint('dedupe_key', name=op.f('uq_outbox_message_dedupe_key')),
    )
    op.create_index('ix_outbox_due', 'outbox_message', ['status', 'next_attempt_at'], unique=False)
    op.create_index(op.f('ix_outbox_message_delegation_id'), 'outbox_message', ['delegation_id'], unique=False)
    op.create_index(op.f('ix_outbox_message_games_id'), 'outbox_message', ['games_id'], unique=False)


def downgrade():
    op.drop_index(op.f('ix_outbox_message_games_id'), table_name='outbox_message')
    op.drop_index(op.f('ix_outbox_message_delegation_id'), table_name='outbox_message')
    op.drop_index('ix_outbox_due', table_name='outbox_message')
    op.drop_table('outbox_message')
    with op.batch_alter_table('delegation') as batch:
        batch.drop_column('contact_email')
    with op.batch_alter_table('user_account') as batch:
        batch.drop_column('reminders')
        batch.drop_column('lang')
        batch.drop_column('email')
