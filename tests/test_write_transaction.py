"""A write after the request's reads (db_tx.write_transaction): on PostgreSQL it goes on in
the reads' transaction (READ COMMITTED: the lock and every statement read what is
committed), so the rush's answer is one BEGIN and one COMMIT, not two of each; on SQLite
it starts its own (BEGIN IMMEDIATE is its lock). Either way what was read before is read
again after unless the caller keeps it, and what another wrote meanwhile is what the
write sees."""
from __future__ import annotations

import pytest
import sqlalchemy as sa
from sqlalchemy.orm import Session

from portal.db_tx import lock_row, write_transaction
from portal.games.models import Games


def _transactions(db, work) -> tuple[int, int]:
    """The transactions the request's session begins and commits while `work` runs."""
    begun, committed = [0], [0]
    session = db.session()

    def began(session, transaction, connection):
        begun[0] += 1

    def commit(session):
        committed[0] += 1

    db.session.commit()  # work starts with none open
    sa.event.listen(session, "after_begin", began)
    sa.event.listen(session, "after_commit", commit)
    try:
        work()
    finally:
        sa.event.remove(session, "after_begin", began)
        sa.event.remove(session, "after_commit", commit)
    return begun[0], committed[0]


def _name(db, games_id: int, name: str) -> None:
    """Another connection (another request) renames the Games and commits."""
    with Session(db.engine) as other:
        other.execute(sa.update(Games).where(Games.id == games_id).values(name_en=name))
        other.commit()


@pytest.fixture
def games(db):
    """A fixture Games as the request loaded it; its English name is put back after."""
    db.session.commit()
    loaded = db.session.scalar(sa.select(Games).order_by(Games.id).limit(1))
    games_id, was = loaded.id, loaded.name_en
    yield loaded
    _name(db, games_id, was)
    db.session.expire_all()


def test_a_write_after_reads_sees_what_others_committed_and_costs_one_transaction_on_postgresql(db, games):
    games_id, seen = games.id, {}

    def work():
        db.session.scalar(sa.select(Games.slug).where(Games.id == games_id))  # the request's reads
        _name(db, games_id, "Renamed meanwhile")
        with write_transaction():
            seen["loaded"] = games.name_en  # read before: expired, read again
            seen["locked"] = lock_row(Games, games_id).name_en

    begun, committed = _transactions(db, work)
    assert seen == {"loaded": "Renamed meanwhile", "locked": "Renamed meanwhile"}
    if db.engine.dialect.name == "postgresql":
        assert (begun, committed) == (1, 1)
    else:
        assert (begun, committed) == (2, 2)  # the reads' own, and the write's BEGIN IMMEDIATE


def test_a_write_that_keeps_what_was_loaded_keeps_it_and_still_locks_the_row_afresh(db, games):
    was = games.name_en
    _name(db, games.id, "Renamed meanwhile")
    with write_transaction(keep_loaded=True):
        assert games.name_en == was  # as the request read it
        assert lock_row(Games, games.id).name_en == "Renamed meanwhile"  # the lock reads afresh


def test_what_was_written_before_the_write_is_committed_on_its_own_and_a_refusal_keeps_it(db, games):
    from portal.db_tx import transactional
    from portal.outcome import Refusal
    games_id = games.id

    @transactional
    def refused():
        lock_row(Games, games_id)
        raise Refusal("state", "不行", "No")

    def change_then_refused():
        games.name_en = "Changed before the service"  # pending in the session, not flushed
        assert not refused().ok

    begun, committed = _transactions(db, change_then_refused)
    assert (begun, committed) == (2, 1)  # the change committed on its own, the write rolled back
    db.session.expire_all()
    assert db.session.get(Games, games_id).name_en == "Changed before the service"
    db.session.execute(sa.update(Games).where(Games.id == games_id).values(name_en="Written by a statement"))
    assert not refused().ok
    db.session.expire_all()
    assert db.session.get(Games, games_id).name_en == "Written by a statement"


def test_the_extensions_read_with_the_delegation_serve_the_page_and_are_read_afresh_under_its_lock(app, db):
    """Every page of a delegation reads its extensions beside it in the guard's one statement;
    what the lock protects (a save's stage) is read again under it, and so is anything after
    the transaction wrote: an extension granted meanwhile is seen where it decides."""
    import datetime as dt

    from builders import doc, individual, person

    from portal.access.guards import _delegation
    from portal.audit.services import Actor
    from portal.delegations.models import Delegation
    from portal.delegations.stage import extensions_of
    from portal.games.services import find_games
    from portal.workflow.models import WITH_EXTENSIONS, Extension
    from portal.workflow.services import new_delegation, save
    may = dt.datetime(2019, 5, 20, tzinfo=dt.timezone(dt.timedelta(hours=8)))
    d = save(new_delegation(find_games("nmsg-2019"), "hunan"),
             doc("nmsg-2019", unit="hunan", people=[person("p1", year=2019, unit="hunan")],
                 entries=[individual("chess.MI", "p1")]), Actor("t"), may).delegation
    delegation_id = d.id
    until = dt.datetime(2019, 6, 1, tzinfo=dt.UTC)
    with Session(db.engine) as other:
        other.add(Extension(delegation_id=delegation_id, stage="names", until=until, reason="r", granted_by="o"))
        other.commit()
    db.session.commit()

    def grant_elsewhere(stage: str) -> None:
        with Session(db.engine) as other:
            other.add(Extension(delegation_id=delegation_id, stage=stage, until=until, reason="r", granted_by="o"))
            other.commit()

    sent = []

    def listener(conn, cursor, statement, *args):
        sent.append(statement)

    page = _delegation(delegation_id)
    grant_elsewhere("declaration")
    sa.event.listen(db.engine, "before_cursor_execute", listener)
    try:
        assert extensions_of(page) == {"names": until}  # as read with the delegation: no statement
    finally:
        sa.event.remove(db.engine, "before_cursor_execute", listener)
    assert sent == []
    with write_transaction(keep_loaded=True):
        locked = lock_row(Delegation, delegation_id)
        assert extensions_of(locked) == {"names": until, "declaration": until}  # afresh, under the lock
    db.session.commit()

    # A save locks the delegation with its extensions in one statement, and its stage reads them there.
    _delegation(delegation_id)
    grant_elsewhere("changes")
    sent.clear()
    with write_transaction(keep_loaded=True):
        sa.event.listen(db.engine, "before_cursor_execute", listener)
        try:
            locked = lock_row(Delegation, delegation_id, WITH_EXTENSIONS)
            assert extensions_of(locked) == {"names": until, "declaration": until, "changes": until}
        finally:
            sa.event.remove(db.engine, "before_cursor_execute", listener)
    assert [s for s in sent if s != "BEGIN IMMEDIATE"] == sent[-1:], sent  # SQLite's lock is its BEGIN
    db.session.commit()

    page = _delegation(delegation_id)
    assert set(extensions_of(page)) == {"names", "declaration", "changes"}
    # Something waiting to be written, then written: what was read beside the row is not taken again.
    db.session.add(Extension(delegation_id=delegation_id, stage="substitutions", until=until, reason="r",
                             granted_by="o"))
    assert set(extensions_of(page)) == {"names", "declaration", "changes", "substitutions"}
    db.session.delete(db.session.scalar(sa.select(Extension).where(Extension.delegation_id == delegation_id,
                                                                   Extension.stage == "declaration")))
    db.session.flush()
    assert set(extensions_of(page)) == {"names", "changes", "substitutions"}
    db.session.rollback()
