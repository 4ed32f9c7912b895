"""Files every node can read: kept in the database, which all nodes share, in chunks of
1 MB, so that a file and the row naming it commit or roll back together and no 10 MB file
ever sits whole in a worker's memory on the way out. Pending uploads, background jobs'
outputs and the bank statements queued for them live here (issue 23). The interface is
small (put, chunks, read, exists, delete, purge) so that an S3-compatible store could stand
behind it later. Below the areas: imports none."""
from __future__ import annotations

import datetime as dt
from collections.abc import Iterable, Iterator

from sqlalchemy import ForeignKey, LargeBinary, String, delete as sql_delete, insert, select
from sqlalchemy.orm import Mapped, mapped_column

from .db_types import UTCDateTime
from .extensions import db

CHUNK = 1024 * 1024


def _utcnow() -> dt.datetime:
    return dt.datetime.now(dt.UTC)


class StoredFile(db.Model):
    __tablename__ = "stored_file"
    id: Mapped[int] = mapped_column(primary_key=True)
    key: Mapped[str] = mapped_column(String(300), unique=True)
    content_type: Mapped[str] = mapped_column(String(100), default="application/octet-stream")
    size: Mapped[int] = mapped_column(default=0)
    created_at: Mapped[dt.datetime] = mapped_column(UTCDateTime, default=_utcnow, index=True)


class StoredChunk(db.Model):
    __tablename__ = "stored_chunk"
    file_id: Mapped[int] = mapped_column(ForeignKey("stored_file.id", ondelete="CASCADE"), primary_key=True)
    seq: Mapped[int] = mapped_column(primary_key=True)
    data: Mapped[bytes] = mapped_column(LargeBinary)


def put(key: str, content: bytes | Iterable[bytes], content_type: str = "application/octet-stream") -> StoredFile:
    """Store a file under `key` (replacing one there), in the caller's transaction."""
    delete(key)
    row = StoredFile(key=key, content_type=content_type, size=0)
    db.session.add(row)
    db.session.flush()
    pieces = [content] if isinstance(content, bytes | bytearray) else content
    seq, size, pending = 0, 0, bytearray()

    def write(data: bytes) -> None:
        nonlocal seq
        db.session.execute(insert(StoredChunk.__table__).values(file_id=row.id, seq=seq, data=data))
        seq += 1
    for piece in pieces:
        view = memoryview(piece)  # sliced, never copied whole: a chunk at a time in memory
        while view:
            take = CHUNK - len(pending)
            pending += view[:take]
            view = view[take:]
            if len(pending) == CHUNK:
                write(bytes(pending))
                size += CHUNK
                pending.clear()
    if pending or seq == 0:
        write(bytes(pending))
        size += len(pending)
    row.size = size
    db.session.flush()
    return row


def find(key: str) -> StoredFile | None:
    return db.session.scalar(select(StoredFile).where(StoredFile.key == key))


def exists(key: str) -> bool:
    return db.session.scalar(select(StoredFile.id).where(StoredFile.key == key)) is not None


def chunks(key: str, start: int = 0) -> Iterator[bytes]:
    """The file's bytes, a chunk at a time (one row read per chunk), from chunk `start`."""
    file_id = db.session.scalar(select(StoredFile.id).where(StoredFile.key == key))
    if file_id is None:
        return
    seq = start
    while True:
        data = db.session.scalar(select(StoredChunk.data).where(StoredChunk.file_id == file_id,
                                                                StoredChunk.seq == seq))
        if data is None:
            return
        yield bytes(data)
        seq += 1


def read(key: str) -> bytes | None:
    if not exists(key):
        return None
    return b"".join(chunks(key))


def read_many(keys: Iterable[str], batch: int = 500) -> dict[str, bytes]:
    """Several files' bytes at once, one query per `batch` keys, for a job that draws
    thousands of small files (a Games' cards and their photos); a key not stored is left
    out. Its memory is the files', which such a caller keeps anyway."""
    wanted = list(dict.fromkeys(keys))
    out: dict[str, bytes] = {}
    for i in range(0, len(wanted), batch):
        pieces: dict[str, list[bytes]] = {}
        for key, data in db.session.execute(
                select(StoredFile.key, StoredChunk.data).join(StoredChunk, StoredChunk.file_id == StoredFile.id)
                .where(StoredFile.key.in_(wanted[i:i + batch])).order_by(StoredFile.key, StoredChunk.seq)):
            pieces.setdefault(key, []).append(bytes(data))
        out.update((key, b"".join(parts)) for key, parts in pieces.items())
    return out


def delete(key: str) -> None:
    file_id = db.session.scalar(select(StoredFile.id).where(StoredFile.key == key))
    if file_id is not None:
        db.session.execute(sql_delete(StoredChunk).where(StoredChunk.file_id == file_id))
        db.session.execute(sql_delete(StoredFile).where(StoredFile.id == file_id))


def purge(prefix: str, older_than: dt.datetime) -> int:
    """Delete the files under `prefix` stored before `older_than`; how many."""
    ids = db.session.scalars(select(StoredFile.id).where(StoredFile.key.startswith(prefix, autoescape=True),
                                                         StoredFile.created_at < older_than)).all()
    if ids:
        db.session.execute(sql_delete(StoredChunk).where(StoredChunk.file_id.in_(ids)))
        db.session.execute(sql_delete(StoredFile).where(StoredFile.id.in_(ids)))
    return len(ids)


def stored_download(key: str, download_name: str, mimetype: str, inline: bool = False):
    """A response streaming the stored file, a chunk at a time, as an attachment (or shown
    in the browser, `inline`: a photo)."""
    from urllib.parse import quote

    from flask import Response, current_app
    app = current_app._get_current_object()
    size = find(key).size
    first = next(chunks(key), b"")  # read in the request: most files are one chunk
    body = first
    if size > len(first):
        def body():
            # A WSGI server (or test client) takes the first chunk while the request's
            # context is still open; the rest, read in an app context of the stream's own.
            yield first
            with app.app_context():
                yield from chunks(key, start=1)
        body = body()
    return Response(body, mimetype=mimetype, headers={
        "Content-Disposition": f"{'inline' if inline else 'attachment'}; filename*=UTF-8''{quote(download_name)}",
        "Content-Length": str(size)})
