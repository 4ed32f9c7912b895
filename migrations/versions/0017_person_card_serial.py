"""person card serial

Accreditation cards are signed with a per-person random serial (issue 19, 5): a card stops
scanning valid once its person is deleted or its ref is given to someone else.

Revision ID: 0017
Revises: 0016
Create Date: 2026-12-01 09:30:00

"""
from alembic import op
import sqlalchemy as sa


revision = '0017'
down_revision = '0016'
branch_labels = None
depends_on = None


def upgrade():
    with op.batch_alter_table('person', schema=None) as batch_op:
        batch_op.add_column(sa.Column('card_serial', sa.String(length=24), nullable=True))
    # Every person stored before gets a serial of his own (cards printed before are void:
    # they were signed with a ref alone, which a later person could inherit).
    if op.get_bind().dialect.name == 'postgresql':
        op.execute("UPDATE person SET card_serial = substr(md5(random()::text || id::text), 1, 16)")
    else:
        op.execute("UPDATE person SET card_serial = lower(hex(randomblob(8)))")


def downgrade():
    with op.batch_alter_table('person', schema=None) as batch_op:
        batch_op.drop_column('card_serial')
