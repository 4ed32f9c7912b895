"""Each delegation's judgement in figures, stored (issue 27, 1): what the organisers' Games
page, the queue and the API's list show (errors, warnings, by rule) without judging the
whole Games on every view.

A summary is stored under the key of everything its judgement read: the delegation's own
revision, the definition and the version in force, which deadlines have passed and the
day, the identity numbers it shares with other delegations (and with whom), its unit, its
sanctions and its rooms. Reading the summaries of a Games computes every key from a fixed
number of queries, judges only the delegations whose key moved (a save, a shared number,
a deadline passing) and stores their new figures; a save elsewhere that shares no number
with a delegation leaves its summary as it is. The figures are the organisers' (every
identity number compared)."""
from __future__ import annotations

import datetime as dt
import hashlib
from dataclasses import dataclass

from sqlalchemy import select
from sqlalchemy.dialects.postgresql import insert as pg_insert
from sqlalchemy.dialects.sqlite import insert as sqlite_insert

from ..config import universities_csv
from ..extensions import db
from ..games.models import Games, utcnow
from ..games.services import definition_in_force, units_info, universities_map
from .judged import deadlines_passed, shared_numbers
from .models import Delegation, DelegationSummary
from .services import booked_by_delegation, judge_many, sanctions_by_unit

_universities_signature: dict[int, str] = {}


@dataclass(frozen=True)
class Summary:
    errors: int
    warnings: int
    by_rule: dict  # code -> [errors, warnings]


def _signature(universities: dict) -> str:
    """The universities list as a short fingerprint (the same list object, the same one)."""
    key = id(universities)
    if key not in _universities_signature:
        if len(_universities_signature) > 8:
            _universities_signature.clear()
        _universities_signature[key] = hashlib.sha256(repr(sorted(universities.items())).encode()).hexdigest()[:16]
    return _universities_signature[key]


def _keys(games: Games, delegations: list[Delegation], at: dt.datetime) -> dict[int, str]:
    version, _definition = definition_in_force(games, at)
    shared = shared_numbers(games.id)
    units = units_info({d.unit_code for d in delegations if d.unit_code})
    sanctions = sanctions_by_unit(games)
    booked = booked_by_delegation(games, [d.id for d in delegations])
    universities = _signature(universities_map(fallback_csv=universities_csv()))
    common = (games.id, games.loaded_at.isoformat() if games.loaded_at else "", version, deadlines_passed(games, at),
              at.date().isoformat(), universities)
    out = {}
    for d in delegations:
        parts = (common, d.id, d.created_at.isoformat() if d.created_at else "", d.content_rev,
                 sorted(shared.get(d.id, ())), repr(units.get(d.unit_code)) if d.unit_code else "",
                 sorted(sanctions.get(d.unit_code, {}).items()) if d.unit_code else [],
                 sorted(booked.get(d.id, ())) if booked is not None else None)
        out[d.id] = hashlib.sha256(repr(parts).encode()).hexdigest()
    return out


def _figures(violations) -> Summary:
    by_rule: dict[str, list[int]] = {}
    for v in violations:
        counts = by_rule.setdefault(v.code, [0, 0])
        counts[0 if v.is_error else 1] += 1
    return Summary(sum(c[0] for c in by_rule.values()), sum(c[1] for c in by_rule.values()), by_rule)


def summaries(games: Games, delegations: list[Delegation], at: dt.datetime) -> dict[int, Summary]:
    """The summary of each delegation, by id: stored ones whose key still matches, the rest
    judged now (all together, judge_many) and stored for the next reader."""
    if not delegations:
        return {}
    keys = _keys(games, delegations, at)
    stored = {row.delegation_id: row for row in db.session.scalars(
        select(DelegationSummary).where(DelegationSummary.delegation_id.in_(list(keys))))}
    out = {did: Summary(row.errors, row.warnings, row.by_rule or {}) for did, row in stored.items()
           if row.judged_key == keys[did]}
    stale = [d for d in delegations if d.id not in out]
    if stale:
        for did, violations in judge_many(games, stale, at, reveal=True).items():
            out[did] = _figures(violations)
        _store({d.id: (keys[d.id], out[d.id]) for d in stale})
    return out


def _store(rows: dict[int, tuple[str, Summary]]) -> None:
    """Write the new figures (derived data: the same for any reader who judged them, so
    the last writer of two at once is as right as the first), on a connection of its own:
    the page's own transaction, and the rows it loaded, go on untouched."""
    values = [{"delegation_id": did, "judged_key": key, "errors": s.errors, "warnings": s.warnings,
               "by_rule": s.by_rule, "judged_at": utcnow()} for did, (key, s) in rows.items()]
    table = DelegationSummary.__table__
    insert = pg_insert if db.engine.dialect.name == "postgresql" else sqlite_insert
    statement = insert(table).values(values)
    statement = statement.on_conflict_do_update(
        index_elements=[table.c.delegation_id],
        set_={c: statement.excluded[c] for c in ("judged_key", "errors", "warnings", "by_rule", "judged_at")})
    with db.engine.begin() as connection:
        connection.execute(statement)
