"""Write transactions: lock, check, write in one transaction, committed in one place.

On PostgreSQL the limited thing's row is locked with SELECT ... FOR UPDATE. On SQLite a
writer takes BEGIN IMMEDIATE, so two writers can never both read "159 places taken" and
both insert the 160th: the second waits for the first to commit.
"""
from __future__ import annotations

import contextvars
import functools
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any

from sqlalchemy import bindparam, event, select
from sqlalchemy.engine import Engine
from sqlalchemy.orm import Session

from .extensions import db
from .outcome import Refusal

_immediate = contextvars.ContextVar("sqlite_begin_immediate", default=False)
_in_write = contextvars.ContextVar("in_write_transaction", default=False)


@event.listens_for(Engine, "connect")
def _sqlite_manual_transactions(dbapi_connection, connection_record):
    # Let SQLAlchemy, not the sqlite3 module, emit BEGIN (see the "begin" hook below).
    if type(dbapi_connection).__module__.startswith("sqlite3"):
        dbapi_connection.isolation_level = None


@event.listens_for(Engine, "begin")
def _sqlite_begin(conn):
    if conn.dialect.name == "sqlite":
        conn.exec_driver_sql("BEGIN IMMEDIATE" if _immediate.get() else "BEGIN")


@contextmanager
def write_transaction(keep_loaded: bool = False):
    """The one place a service's work is committed (or rolled back on any error).
    keep_loaded: what the request read before and what the transaction read and wrote stay
    loaded after its commits, for an answer drawn from exactly that (otherwise each object is
    read again when next used); for a write that depends on nothing it did not lock."""
    session = db.session()  # the current scoped session itself
    if _in_write.get():
        yield session  # joined: the outer transaction commits
        return
    begin = True
    if session.in_transaction():
        if _reads_committed(session) and _only_read(session):
            # PostgreSQL, READ COMMITTED: each statement reads what is committed and the lock
            # reads its row afresh, so the write goes on in the reads' transaction; ending
            # them would cost a COMMIT and a BEGIN, two round trips of the rush's eleven.
            begin = False
            if not keep_loaded:
                session.expire_all()  # as the commit would have: read again when next used
        else:
            # SQLite, whose write starts its own transaction (BEGIN IMMEDIATE is its lock);
            # or something was written before the service: committed on its own, as it was.
            _commit(session, keep_loaded)
    token, nested = _immediate.set(True), _in_write.set(True)
    try:
        if begin:
            session.begin()
        try:
            yield session
            _commit(session, keep_loaded)
        except BaseException:
            session.rollback()
            raise
    finally:
        _in_write.reset(nested)
        _immediate.reset(token)


def _commit(session, keep_loaded: bool) -> None:
    expire = session.expire_on_commit
    session.expire_on_commit = expire and not keep_loaded
    try:
        session.commit()
    finally:
        session.expire_on_commit = expire


_WROTE = "wrote"  # session.info: the open transaction has written (a write outside a service)


@event.listens_for(Session, "do_orm_execute")
def _note_write(state):
    if state.is_insert or state.is_update or state.is_delete:
        state.session.info[_WROTE] = True


@event.listens_for(Session, "after_flush")
def _note_flush(session, flush_context):
    session.info[_WROTE] = True


@event.listens_for(Session, "after_transaction_end")
def _forget_writes(session, transaction):
    if transaction.parent is None:
        session.info.pop(_WROTE, None)
        session.info.pop(_READ_WITH, None)
        session.info.pop(_LOCKED, None)


# session.info: what a statement read beside a row ({(model, pk, what): value}), for a later
# reader of the same transaction; and the rows locked in it ({(model, pk)}).
_READ_WITH, _LOCKED = "read_with_row", "locked_rows"


def remember_read_with(model, pk, what, value) -> None:
    """`value` (rows of `what`, say a delegation's extensions) was read in the statement
    that read the row of `model` `pk`: a later reader in this transaction takes it from
    here instead of asking the database again (every page of a delegation reads both)."""
    db.session.info.setdefault(_READ_WITH, {})[(model, pk, what)] = value


def recalled_read_with(model, pk, what):
    """What remember_read_with kept, or None: none once the transaction has written or has
    something waiting to be written (a query would have flushed it first), nor after the
    row was locked (what the lock protects is read afresh under it)."""
    session = db.session()
    kept = session.info.get(_READ_WITH)
    if not kept or not _only_read(session):
        return None
    return kept.get((model, pk, what))


def is_locked(model, pk) -> bool:
    """Whether this transaction holds the row's lock (lock_row): no other writer changes
    the row until it commits, so a counter on it may be raised from the value read."""
    return (model, pk) in db.session.info.get(_LOCKED, ())


def _only_read(session) -> bool:
    """Nothing written nor waiting to be: what was done before the write is committed on its
    own (as it always was), not made part of the write, which a refusal rolls back."""
    return not (session.info.get(_WROTE) or session.new or session.dirty or session.deleted)


def _reads_committed(session) -> bool:
    """Whether a statement of the open transaction sees what others committed after it
    began (PostgreSQL's default, READ COMMITTED), as a statement of a new one would."""
    return session.get_bind().dialect.name == "postgresql"


def in_write_transaction() -> bool:
    return _in_write.get()


def writing_request_begin_immediate():
    """For a request that changes something (POST...): on SQLite every transaction it opens
    takes the write lock at BEGIN. A deferred transaction that read first and writes later
    cannot wait for the lock (SQLite refuses the upgrade with "database is locked" when
    another writer committed meanwhile); one that starts IMMEDIATE simply waits its turn.
    Returns the token for `end_writing_request`. PostgreSQL is unaffected."""
    return _immediate.set(True)


def end_writing_request(token) -> None:
    _immediate.reset(token)


def transactional(fn=None, *, keep_loaded: bool = False):
    """Run a service in one write transaction. It commits unless the service raised: a
    `Refusal` rolls everything back and comes to the caller as the refused `Outcome`; any
    other error rolls back and propagates. A transactional service called from another
    joins the caller's transaction, and its refusal refuses the caller's whole work.
    `@transactional(keep_loaded=True)`: see write_transaction."""
    if fn is None:
        return functools.partial(transactional, keep_loaded=keep_loaded)

    @functools.wraps(fn)
    def wrapper(*args, **kwargs):
        if _in_write.get():
            return fn(*args, **kwargs)
        try:
            with write_transaction(keep_loaded=keep_loaded):
                return fn(*args, **kwargs)
        except Refusal as refusal:
            return refusal.outcome()
    return wrapper


@dataclass(frozen=True, eq=False)  # built once, at import: compared and cached by identity
class ReadBeside:
    """Rows of `what` read with a locked row in its statement (an outer join on `onclause`),
    kept for the transaction's later readers as {key: value} (recalled_read_with)."""
    what: Any
    key: Any
    value: Any
    onclause: Any


def lock_row(model, pk, beside: ReadBeside | None = None):
    """Lock one row for the rest of the transaction (FOR UPDATE; SQLite is already
    serialised by BEGIN IMMEDIATE) and return it, freshly read; with `beside`, read the rows
    it names in the same statement (a save's stage needs the delegation's extensions)."""
    session = db.session()
    kept = session.info.get(_READ_WITH)
    if kept:
        for key in [k for k in kept if k[:2] == (model, pk)]:
            del kept[key]
    statement = _lock_statement(model, session.get_bind().dialect.name != "sqlite", beside)
    if beside is None:
        row = session.scalar(statement, {"pk": pk})
    else:
        row = row_read_beside(model, pk, beside, session.execute(statement, {"pk": pk}).all())
    if row is not None and _in_write.get():  # in a write transaction: FOR UPDATE, or SQLite's BEGIN IMMEDIATE
        session.info.setdefault(_LOCKED, set()).add((model, pk))
    return row


def select_beside(model, beside: ReadBeside):
    """The row of `model` with the rows `beside` names, one result row for each (or one with NULLs)."""
    return select(model, beside.key, beside.value).outerjoin(beside.what, beside.onclause)


def row_read_beside(model, pk, beside: ReadBeside, rows):
    """The row of `model` from select_beside's result rows, the rows beside it kept for the
    transaction's later readers (recalled_read_with); None when there is no such row."""
    if not rows:
        return None
    remember_read_with(model, pk, beside.what, {key: value for _row, key, value in rows if key is not None})
    return rows[0][0]


@functools.cache
def _lock_statement(model, for_update: bool, beside: ReadBeside | None = None):
    """Built once per model, bound per call (every save locks its delegation)."""
    stmt = select(model) if beside is None else select_beside(model, beside)
    stmt = (stmt.where(model.__mapper__.primary_key[0] == bindparam("pk"))
            .execution_options(populate_existing=True))
    if for_update:
        # NO KEY UPDATE: serialises writers of this row, yet does not conflict with the key-share
        # locks that inserting child rows (a delegation of these Games) takes on it. OF: the
        # rows beside it are only read (an outer join's side cannot be locked).
        stmt = stmt.with_for_update(key_share=True, of=model if beside is not None else None)
    return stmt
