"""One writer at a time for the schema and the reference data (Games fixtures, units,
universities), across processes: two `flask check` runs or four gunicorn workers starting
on a fresh database must not both create tables or insert the same Games.

PostgreSQL: an advisory lock. SQLite: an exclusive file lock beside the database (the
database file itself may not exist yet). Inside the lock, callers look again before
they write, so the second process finds the work done."""
from __future__ import annotations

import fcntl
import os
import threading
from contextlib import contextmanager

from sqlalchemy import text

from .extensions import db

_LOCK_KEY = 0x5EED_2026  # an arbitrary constant shared by every process of the portal
_state = threading.local()  # re-entrant within one thread (the dev server runs threads)


@contextmanager
def reference_lock():
    if getattr(_state, "held", False):
        yield
        return
    engine = db.engine
    if engine.dialect.name == "postgresql":
        with engine.connect() as conn:
            conn.execute(text("SELECT pg_advisory_lock(:k)"), {"k": _LOCK_KEY})
            conn.commit()
            _state.held = True
            try:
                yield
            finally:
                _state.held = False
                conn.execute(text("SELECT pg_advisory_unlock(:k)"), {"k": _LOCK_KEY})
                conn.commit()
        return
    path = (engine.url.database or "") + ".setup-lock"
    if not engine.url.database or engine.url.database == ":memory:":
        _state.held = True
        try:
            yield
        finally:
            _state.held = False
        return
    fd = os.open(path, os.O_RDWR | os.O_CREAT, 0o600)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX)
        _state.held = True
        try:
            yield
        finally:
            _state.held = False
            fcntl.flock(fd, fcntl.LOCK_UN)
    finally:
        os.close(fd)
