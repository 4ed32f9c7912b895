"""Per-delegation counts for the organisers' lists, from aggregate queries: the number of
statements does not grow with delegations, people or entries."""
from __future__ import annotations

from sqlalchemy import distinct, func, select

from ..delegations.models import Delegation, Entry, EntryMember, Person
from ..extensions import db
from ..games.models import Games


def delegation_counts(games: Games) -> dict[int, dict[str, int]]:
    """delegation id -> people, athletes (people in any entry), events entered."""
    of_games = select(Delegation.id).where(Delegation.games_id == games.id).scalar_subquery()
    out: dict[int, dict[str, int]] = {}

    def put(rows, key):
        for delegation_id, n in rows:
            out.setdefault(delegation_id, {"people": 0, "athletes": 0, "events": 0})[key] = n

    put(db.session.execute(select(Person.delegation_id, func.count(Person.id))
                           .where(Person.delegation_id.in_(of_games)).group_by(Person.delegation_id)), "people")
    put(db.session.execute(select(Entry.delegation_id, func.count(distinct(EntryMember.person_id)))
                           .join(EntryMember, EntryMember.entry_id == Entry.id)
                           .where(Entry.delegation_id.in_(of_games)).group_by(Entry.delegation_id)), "athletes")
    put(db.session.execute(select(Entry.delegation_id, func.count(distinct(Entry.event_code)))
                           .where(Entry.delegation_id.in_(of_games)).group_by(Entry.delegation_id)), "events")
    return out
