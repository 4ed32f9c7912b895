"""files in the database, shared by every node: pending uploads, job outputs and queued
bank statements (what instance/pending and instance/jobs held is moved in)

Revision ID: 0025
Revises: 0024
Create Date: 2026-12-01 13:40:00

"""
import datetime as dt
import os

import sqlalchemy as sa
from alembic import op

revision = '0025'
down_revision = '0024'
branch_labels = None
depends_on = None

CHUNK = 1024 * 1024


def upgrade():
    op.create_table(
        'stored_file',
        sa.Column('id', sa.Integer(), nullable=False),
        sa.Column('key', sa.String(length=300), nullable=False),
        sa.Column('content_type', sa.String(length=100), nullable=False),
        sa.Column('size', sa.Integer(), nullable=False),
        sa.Column('created_at', sa.DateTime(), nullable=False),
        sa.PrimaryKeyConstraint('id', name=op.f('pk_stored_file')),
        sa.UniqueConstraint('key', name=op.f('uq_stored_file_key')),
    )
    op.create_index(op.f('ix_stored_file_created_at'), 'stored_file', ['created_at'], unique=False)
    op.create_table(
        'stored_chunk',
        sa.Column('file_id', sa.Integer(), nullable=False),
        sa.Column('seq', sa.Integer(), nullable=False),
        sa.Column('data', sa.LargeBinary(), nullable=False),
        sa.ForeignKeyConstraint(['file_id'], ['stored_file.id'], name=op.f('fk_stored_chunk_file_id_stored_file'),
                                ondelete='CASCADE'),
        sa.PrimaryKeyConstraint('file_id', 'seq', name=op.f('pk_stored_chunk')),
    )
    _move_instance_files()


def _move_instance_files():
    """Pending uploads and job files of this machine's instance folder, into the tables."""
    try:
        from flask import current_app
        instance = current_app.instance_path
    except (ImportError, RuntimeError):
        return  # run outside the app (offline SQL): nothing on this machine to move
    # Typed columns: SQLAlchemy converts the values itself (no driver default adapters).
    files = sa.table('stored_file', sa.column('id', sa.Integer), sa.column('key', sa.String),
                     sa.column('content_type', sa.String), sa.column('size', sa.Integer),
                     sa.column('created_at', sa.DateTime))
    chunks = sa.table('stored_chunk', sa.column('file_id', sa.Integer), sa.column('seq', sa.Integer),
                      sa.column('data', sa.LargeBinary))
    bind = op.get_bind()
    for folder, prefix in (("pending", "pending/"), ("jobs", "jobs/")):
        path = os.path.join(instance, folder)
        if not os.path.isdir(path):
            continue
        for name in sorted(os.listdir(path)):
            full = os.path.join(path, name)
            if not os.path.isfile(full):
                continue
            key = prefix + (name[:-5] if folder == "pending" and name.endswith(".json") else name)
            made = dt.datetime.fromtimestamp(os.path.getmtime(full), dt.UTC).replace(tzinfo=None)
            file_id = bind.execute(files.insert().values(key=key, content_type="application/octet-stream", size=0,
                                                         created_at=made).returning(files.c.id)).scalar_one()
            size, seq = 0, 0
            with open(full, "rb") as f:
                while True:
                    data = f.read(CHUNK)
                    if not data and seq:
                        break
                    bind.execute(chunks.insert().values(file_id=file_id, seq=seq, data=data))
                    size, seq = size + len(data), seq + 1
                    if not data:
                        break
            bind.execute(files.update().where(files.c.id == file_id).values(size=size))
            # The file stays where it was until retention deletes it: never lose one to a failed upgrade.


def downgrade():
    op.drop_table('stored_chunk')
    op.drop_index(op.f('ix_stored_file_created_at'), table_name='stored_file')
    op.drop_table('stored_file')
