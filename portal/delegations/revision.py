"""Every write to a delegation or its rows raises its `content_rev`.

The cached document and judgement of a delegation (judged.py) are keyed by it, so a write
that forgot to raise it would show stale violations: it is raised here for everything the
ORM flushes (a status change, retention masking an ID number, a new person) and by
`raise_content_rev` for the Core statements of storage.py. The increment is SQL
(`content_rev + 1`), so two writers committing one after the other never end on the same
number; except on a row this transaction has locked (a save: db_tx.lock_row), where no other
writer can come between, and the number read is raised in Python, in the UPDATE the save
makes anyway: no statement of its own, and no read of the new number afterwards."""
from __future__ import annotations

from itertools import chain

from sqlalchemy import bindparam, event, inspect, update
from sqlalchemy.orm import Session
from sqlalchemy.orm.util import identity_key

from ..db_tx import is_locked
from .models import Companion, Declaration, Delegation, Entry, EntryMember, Official, Person, StaffMember

_CHILDREN = (Person, Declaration, Entry, Official, StaffMember, Companion)


def _raise(numbers: bool):
    values = {"content_rev": Delegation.content_rev + 1}
    if numbers:
        values["numbers_rev"] = Delegation.numbers_rev + 1
    return (update(Delegation).where(Delegation.id == bindparam("delegation_id")).values(**values)
            .execution_options(synchronize_session=False))


_RAISE = {numbers: _raise(numbers) for numbers in (False, True)}  # built once: every save raises it


def raise_content_rev(session, delegation_id: int, numbers: bool = False) -> None:
    """`numbers`: an identity number of the delegation was added, removed or changed."""
    loaded = session.identity_map.get(identity_key(Delegation, delegation_id))
    if loaded is not None and is_locked(Delegation, delegation_id):
        _raise_locked(loaded, numbers)
        return
    session.execute(_RAISE[numbers], {"delegation_id": delegation_id})
    _expire(session, delegation_id)


def _raise_locked(d: Delegation, numbers: bool) -> None:
    """Raised on the loaded row, written by the UPDATE of its next flush: every write raises
    it, as the SQL increment does, so a number read between two writes is never reused."""
    d.content_rev = d.content_rev + 1
    if numbers:
        d.numbers_rev = d.numbers_rev + 1


def _expire(session, delegation_id: int) -> None:
    """A loaded Delegation must read the new numbers, not the ones it was loaded with."""
    loaded = session.identity_map.get(identity_key(Delegation, delegation_id))
    if loaded is not None:
        session.expire(loaded, ["content_rev", "numbers_rev"])


def _numbers_changed(session, obj) -> bool:
    """A person whose identity number comes, goes or changes."""
    if not isinstance(obj, Person):
        return False
    if obj in session.new or obj in session.deleted:
        return obj.id_number is not None
    return inspect(obj).attrs.id_number.history.has_changes()


@event.listens_for(Session, "before_flush")
def _raise_for_flushed_rows(session, flush_context, instances):
    touched: set[int] = set()
    numbers: set[int] = set()
    delegations: list[Delegation] = []
    for obj in chain(session.new, session.dirty, session.deleted):
        if isinstance(obj, Delegation):
            if obj not in session.new and (obj in session.deleted or session.is_modified(obj)):
                delegations.append(obj)
                if inspect(obj).attrs.status.history.has_changes():  # withdrawn numbers stop counting
                    numbers.add(obj.id)
        elif isinstance(obj, _CHILDREN):
            did = obj.delegation_id if obj.delegation_id is not None else getattr(getattr(obj, "delegation", None), "id", None)
            if did is not None:
                touched.add(did)
                if _numbers_changed(session, obj):
                    numbers.add(did)
        elif isinstance(obj, EntryMember) and obj.entry_id is not None:
            # A new member appended to entry.members makes its Entry dirty (caught above).
            entry = session.get(Entry, obj.entry_id)
            if entry is not None:
                touched.add(entry.delegation_id)
    for d in delegations:
        if d not in session.deleted:
            _raise_in_flush(d, d.id in numbers)
            touched.discard(d.id)
    for did in touched:
        d = session.get(Delegation, did)
        if d is not None and d not in session.deleted:
            _raise_in_flush(d, did in numbers)


def _raise_in_flush(d: Delegation, numbers: bool) -> None:
    if is_locked(Delegation, d.id):
        _raise_locked(d, numbers)
        return
    d.content_rev = Delegation.content_rev + 1
    if numbers:
        d.numbers_rev = Delegation.numbers_rev + 1
