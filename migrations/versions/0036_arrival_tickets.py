"""arrival tickets: a self-registration's place under the cap is taken and answered as it
arrives; its delegation and account are made afterwards (a place may wait for its delegation)

Revision ID: 0036
Revises: 0035
Create Date: 2026-12-01 22:30:00

"""
import sqlalchemy as sa
from alembic import op

revision = '0036'
down_revision = '0035'
branch_labels = None
depends_on = None


def upgrade():
    with op.batch_alter_table('place') as batch:
        batch.alter_column('delegation_id', existing_type=sa.Integer(), nullable=True)
    op.create_table(
        'arrival_ticket',
        sa.Column('id', sa.Integer(), primary_key=True),
        sa.Column('games_id', sa.Integer(), sa.ForeignKey('games.id', ondelete='CASCADE'), nullable=False),
        sa.Column('place_id', sa.Integer(), sa.ForeignKey('place.id', ondelete='SET NULL')),
        sa.Column('status', sa.String(20), nullable=False),
        sa.Column('answer', sa.String(20), nullable=False),
        sa.Column('position', sa.Integer()),
        sa.Column('display_name', sa.String(200), nullable=False),
        sa.Column('username', sa.String(80)),
        sa.Column('id_number', sa.String(40)),
        sa.Column('document', sa.JSON()),
        sa.Column('sealed_password', sa.String(500)),
        sa.Column('address', sa.String(64)),
        sa.Column('delegation_id', sa.Integer(), sa.ForeignKey('delegation.id', ondelete='SET NULL')),
        sa.Column('user_id', sa.Integer(), sa.ForeignKey('user_account.id', ondelete='SET NULL')),
        sa.Column('problems', sa.JSON()),
        sa.Column('created_at', sa.DateTime(), nullable=False),
        sa.Column('finished_at', sa.DateTime()),
        sa.CheckConstraint("status IN ('pending', 'done', 'refused')", name=op.f('ck_arrival_ticket_status')),
        sa.UniqueConstraint('username', name=op.f('uq_arrival_ticket_username')),
    )
    op.create_index('ix_arrival_ticket_number', 'arrival_ticket', ['games_id', 'id_number'])
    op.create_index('ix_arrival_ticket_status', 'arrival_ticket', ['status', 'created_at'])


def downgrade():
    op.drop_table('arrival_ticket')
    with op.batch_alter_table('place') as batch:
        batch.alter_column('delegation_id', existing_type=sa.Integer(), nullable=False)
