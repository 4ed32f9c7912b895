"""One writer at a time for the schema and the reference data (Games fixtures, units,
universities), across processes: two `flask check` runs or four gunicorn workers starting
on a fresh database must not both create tables or insert the same Games.

PostgreSQL: an advisory lock. SQLite: an exclusive file lock beside the database (the
database file itself may not exist yet). Inside the lock, callers look again before
they write, so the second process finds the work done."""
from __future__ import annotations

import fcntl
import os
from contextlib import contextmanager

from sqlalchemy import text

from .extensions import db

_LOCK_KEY = 0x5EED_2026  # an arbitrary constant shared by every process of the portal
_held = False  # re-entrant within one process


@contextmanager
def reference_lock():
    global _held
    if _held:
        yield
        return
    engine = db.engine
    if engine.dialect.name == "postgresql":
        with engine.connect() as conn:
            conn.execute(text("SELECT pg_advisory_lock(:k)"), {"k": _LOCK_KEY})
            conn.commit()
            _held = True
            try:
                yield
            finally:
                _held = False
                conn.execute(text("SELECT pg_advisory_unlock(:k)"), {"k": _LOCK_KEY})
                conn.commit()
        return
    path = (engine.url.database or "") + ".setup-lock"
    if not engine.url.database or engine.url.database == ":memory:":
        _held = True
        try:
            yield
        finally:
            _held = False
        return
    fd = os.open(path, os.O_RDWR | os.O_CREAT, 0o600)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX)
        _held = True
        try:
            yield
        finally:
            _held = False
            fcntl.flock(fd, fcntl.LOCK_UN)
    finally:
        os.close(fd)
