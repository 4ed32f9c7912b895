"""Rating list rows without an identity number, as federations publish them (name, unit)

Revision ID: 0045
Revises: 0044
Create Date: 2026-12-03 17:40:00

"""
import sqlalchemy as sa
from alembic import op

revision = '0045'
down_revision = '0044'
branch_labels = None
depends_on = None


def upgrade():
    op.create_table(
        'register_rating_named',
        sa.Column('id', sa.Integer(), primary_key=True),
        sa.Column('list_id', sa.Integer(), sa.ForeignKey('register_rating_list.id', ondelete='CASCADE'), nullable=False),
        sa.Column('name', sa.String(100), nullable=False),
        sa.Column('unit_code', sa.String(40), nullable=False),
        sa.Column('gender', sa.String(1), nullable=True),
        sa.Column('value', sa.Integer(), nullable=False),
        sa.CheckConstraint('value >= 0', name=op.f('ck_register_rating_named_value_not_negative')),
    )
    op.create_index('ix_register_rating_named_name_unit', 'register_rating_named', ['name', 'unit_code'])
    op.create_index('ix_register_rating_named_list_id', 'register_rating_named', ['list_id'])


def downgrade():
    op.drop_index('ix_register_rating_named_list_id', 'register_rating_named')
    op.drop_index('ix_register_rating_named_name_unit', 'register_rating_named')
    op.drop_table('register_rating_named')
