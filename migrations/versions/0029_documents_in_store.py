"""uploaded documents and photos in the file store every node shares: what this machine's
instance/uploads holds is copied in (documents/<delegation>/<sha256>.<ext>)

Revision ID: 0029
Revises: 0028
Create Date: 2026-12-01 16:30:00

"""
import datetime as dt
import os
import re

import sqlalchemy as sa
from alembic import op

revision = '0029'
down_revision = '0028'
branch_labels = None
depends_on = None

CHUNK = 1024 * 1024
CONTENT_TYPES = {"pdf": "application/pdf", "jpg": "image/jpeg", "png": "image/png"}
NAME = re.compile(r"^[0-9a-f]{64}\.(pdf|jpg|png)$")


def upgrade():
    try:
        from flask import current_app
        folder = current_app.config.get("UPLOAD_FOLDER") or os.path.join(current_app.instance_path, "uploads")
    except (ImportError, RuntimeError):
        return  # run outside the app (offline SQL): nothing on this machine to copy
    if not os.path.isdir(folder):
        return
    files = sa.table('stored_file', sa.column('id', sa.Integer), sa.column('key', sa.String),
                     sa.column('content_type', sa.String), sa.column('size', sa.Integer),
                     sa.column('created_at', sa.DateTime))
    chunks = sa.table('stored_chunk', sa.column('file_id', sa.Integer), sa.column('seq', sa.Integer),
                      sa.column('data', sa.LargeBinary))
    bind = op.get_bind()
    for delegation in sorted(os.listdir(folder)):
        path = os.path.join(folder, delegation)
        if not delegation.isdigit() or not os.path.isdir(path):
            continue
        for name in sorted(os.listdir(path)):
            if not NAME.match(name):
                continue
            key = f"documents/{delegation}/{name}"
            if bind.execute(sa.select(files.c.id).where(files.c.key == key)).first():
                continue
            full = os.path.join(path, name)
            made = dt.datetime.fromtimestamp(os.path.getmtime(full), dt.UTC).replace(tzinfo=None)
            file_id = bind.execute(files.insert().values(key=key, content_type=CONTENT_TYPES[name.rsplit(".", 1)[1]],
                                                         size=0, created_at=made).returning(files.c.id)).scalar_one()
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
            # The file stays until retention deletes it with its row: never lost to a failed upgrade.


def downgrade():
    op.execute("DELETE FROM stored_chunk WHERE file_id IN (SELECT id FROM stored_file WHERE key LIKE 'documents/%')")
    op.execute("DELETE FROM stored_file WHERE key LIKE 'documents/%'")
