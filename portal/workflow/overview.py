"""The organisers' overview of a Games, readable at a glance for 40 delegations: per
delegation status, errors, athletes and payment state; per event entrants against what
was declared; submissions and payments by day towards the deadline. A fixed number of
aggregate queries whatever the size (errors: the stored summaries, delegations/summary.py)."""
from __future__ import annotations

import datetime as dt
from decimal import Decimal

from sqlalchemy import distinct, func, select

from ..delegations.models import Declaration, Delegation, DelegationStatus, Entry, EntryMember
from ..delegations.summary import summaries
from ..extensions import db
from ..games.services import definition_of
from ..money.models import LedgerEntry
from ..rules.definition import EventMinimumRule

CHINA = dt.timezone(dt.timedelta(hours=8))
JUDGED = ("draft", "submitted", "returned", "waitlisted", "approved")


def errors_by_delegation(games, delegations, at: dt.datetime) -> dict[int, int]:
    """Errors per delegation, from the stored summaries (only those changed are judged)."""
    found = summaries(games, [d for d in delegations if d.status in JUDGED], at)
    return {did: s.errors for did, s in found.items()}


def by_day(points: list[tuple[dt.date, Decimal | int]], last: dt.date | None = None) -> list[tuple[dt.date, object]]:
    """Running totals per China day, from the first day with something to `last` (or the
    last day with something), days without anything carried over; at most 60 bars."""
    if not points:
        return []
    per: dict[dt.date, object] = {}
    for day, value in points:
        per[day] = per.get(day, 0) + value
    first, end = min(per), max(max(per), last or max(per))
    days = [first + dt.timedelta(days=i) for i in range((end - first).days + 1)][-60:]
    running, out = 0, []
    for day in sorted(per):
        if day < days[0]:
            running += per[day]
    for day in days:
        running += per.get(day, 0)
        out.append((day, running))
    return out


def submissions_by_day(games, until: dt.date) -> list[tuple[dt.date, int]]:
    rows = db.session.execute(select(Delegation.submitted_at).where(
        Delegation.games_id == games.id, Delegation.submitted_at.is_not(None))).scalars()
    return by_day([(at.replace(tzinfo=at.tzinfo or dt.UTC).astimezone(CHINA).date(), 1) for at in rows], until)


def payments_by_day(games, until: dt.date) -> list[tuple[dt.date, Decimal]]:
    rows = db.session.execute(
        select(LedgerEntry.kind, LedgerEntry.value_date, LedgerEntry.created_at, LedgerEntry.amount)
        .join(Delegation, LedgerEntry.delegation_id == Delegation.id)
        .where(Delegation.games_id == games.id, LedgerEntry.kind.in_(("payment", "reversal")))).all()
    points = []
    for kind, value_date, created_at, amount in rows:
        day = value_date or created_at.replace(tzinfo=created_at.tzinfo or dt.UTC).astimezone(CHINA).date()
        points.append((day, amount if kind == "payment" else -amount))
    return by_day(points, until)


def events_against_declared(games) -> list[dict]:
    """Per event: entrants named across the Games and the number declared; where the
    regulation plays an event only with enough entrants (event_minimum), how many the
    submitted entries give (players or teams, or units) against it."""
    of_games = select(Delegation.id).where(Delegation.games_id == games.id, Delegation.status != DelegationStatus.WITHDRAWN)
    named = dict(db.session.execute(
        select(Entry.event_code, func.count(distinct(EntryMember.person_id))).join(EntryMember, EntryMember.entry_id == Entry.id)
        .where(Entry.delegation_id.in_(of_games)).group_by(Entry.event_code)).all())
    declared = dict(db.session.execute(
        select(Declaration.event_code, func.sum(Declaration.count)).where(Declaration.delegation_id.in_(of_games))
        .group_by(Declaration.event_code)).all())
    definition = definition_of(games)
    sports = {s.code: s for s in definition.sports}
    minimum = event_minimums(games, definition)
    return [{"event": e, "sport": sports.get(e.sport), "named": named.get(e.code, 0), "declared": int(declared.get(e.code) or 0),
             "minimums": minimum.get(e.code, [])} for e in definition.events]


SUBMITTED = (DelegationStatus.SUBMITTED, DelegationStatus.APPROVED, DelegationStatus.RETURNED)


def event_minimums(games, definition) -> dict[str, list[dict]]:
    """event -> [{min, have, short, units, says, clause}] of each event_minimum binding it,
    counted over the submitted entries (a draft is not an entry yet), in one query."""
    rules = definition.rules_of(EventMinimumRule)
    if not rules:
        return {}
    submitted = select(Delegation.id).where(Delegation.games_id == games.id, Delegation.status.in_(SUBMITTED))
    counted = {event: (teams, people, units) for event, teams, people, units in db.session.execute(
        select(Entry.event_code, func.count(distinct(Entry.id)), func.count(distinct(EntryMember.person_id)),
               func.count(distinct(Entry.delegation_id)))
        .join(EntryMember, EntryMember.entry_id == Entry.id)
        .where(Entry.delegation_id.in_(submitted)).group_by(Entry.event_code))}
    kinds = {e.code: e.kind for e in definition.events}
    out = {}
    for r in rules:
        for event in r.events:
            teams, people, units = counted.get(event, (0, 0, 0))
            have = units if r.count == "units" else teams if kinds.get(event) == "team" else people
            out.setdefault(event, []).append({"min": r.min, "have": have, "short": have < r.min,
                                              "units": r.count == "units", "says": r.says, "clause": r.clause})
    return out
