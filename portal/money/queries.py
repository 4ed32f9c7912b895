"""What the money pages read: the bank lines of a Games a page at a time with their counts
and possible twins, the lines still to match, and the rooms booked (a fixed number of
queries per page)."""
from __future__ import annotations

from dataclasses import dataclass

from sqlalchemy import func, or_, select

from ..delegations.models import Delegation, DelegationStatus, Person
from ..extensions import db
from .models import BankLine, RoomRequest

LINES_PAGE = 100
LINE_FILTERS = {"": None, "matched": "matched", "unmatched": "unmatched", "duplicates": "duplicates"}


@dataclass
class LinesPage:
    rows: list[BankLine]  # at most LINES_PAGE
    more: bool
    counts: dict[str, int]  # by how they were matched ("unmatched" for none), before `show`
    twins: dict[int, BankLine]  # the line each possible duplicate repeats
    statements: list[str]  # the imported files' names, to filter by


def lines_page(games, statement_name: str, show: str, page: int) -> LinesPage:
    q = select(BankLine).where(BankLine.games_id == games.id)
    if statement_name:
        q = q.where(BankLine.statement_name == statement_name)
    counts = {method or "unmatched": n for method, n in db.session.execute(
        select(BankLine.match_method, func.count()).where(q.whereclause).group_by(BankLine.match_method))}
    if show == "matched":
        q = q.where(BankLine.matched_delegation_id.is_not(None))
    elif show == "unmatched":
        q = q.where(BankLine.matched_delegation_id.is_(None), BankLine.duplicate_of_id.is_(None))
    elif show == "duplicates":
        q = q.where(or_(BankLine.duplicate_of_id.is_not(None), BankLine.match_method == "duplicate_confirmed"))
    rows = db.session.scalars(q.order_by(BankLine.booked_on.desc(), BankLine.id.desc())
                              .offset((page - 1) * LINES_PAGE).limit(LINES_PAGE + 1)).all()
    twins = {b.id: b for b in db.session.scalars(select(BankLine).where(
        BankLine.id.in_({r.duplicate_of_id for r in rows if r.duplicate_of_id})))}
    statements = db.session.scalars(select(BankLine.statement_name).where(BankLine.games_id == games.id)
                                    .distinct().order_by(BankLine.statement_name)).all()
    return LinesPage(rows[:LINES_PAGE], len(rows) > LINES_PAGE, counts, twins, statements)


def bank_line(line_id: int) -> BankLine | None:
    return db.session.get(BankLine, line_id)


def _waiting(games):
    return BankLine.games_id == games.id, BankLine.matched_delegation_id.is_(None)


def unmatched_count(games) -> int:
    return db.session.scalar(select(func.count()).select_from(BankLine).where(*_waiting(games)))


def unmatched_lines(games, limit: int | None = None) -> list[BankLine]:
    """The lines still to match, oldest first."""
    q = select(BankLine).where(*_waiting(games)).order_by(BankLine.booked_on, BankLine.id)
    return db.session.scalars(q.limit(limit) if limit else q).all()


def rooms_usage(games) -> dict[tuple[str, object], dict[str, int]]:
    """Rooms booked, by (room type, night), by status."""
    usage: dict = {}
    for room_type, night, status, n in db.session.execute(
            select(RoomRequest.room_type, RoomRequest.night, RoomRequest.status, func.sum(RoomRequest.rooms))
            .where(RoomRequest.games_id == games.id).group_by(RoomRequest.room_type, RoomRequest.night, RoomRequest.status)):
        usage.setdefault((room_type, night), {})[status] = n
    return usage


def rooms_of(d) -> list[RoomRequest]:
    return db.session.scalars(select(RoomRequest).where(RoomRequest.delegation_id == d.id)
                              .order_by(RoomRequest.night, RoomRequest.id)).all()


def people_and_delegations(games) -> list[tuple[Person, Delegation]]:
    """Everyone of the delegations not withdrawn, by unit and in the delegation's order: one
    query, whatever the number of delegations."""
    return db.session.execute(
        select(Person, Delegation).join(Delegation, Person.delegation_id == Delegation.id)
        .where(Delegation.games_id == games.id, Delegation.status != DelegationStatus.WITHDRAWN)
        .order_by(Delegation.unit_code, Delegation.id, Person.position, Person.id)).all()
