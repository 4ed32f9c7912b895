"""A stored delegation's document and judgement, remembered per process.

Every workspace page shows the whole delegation's violations; at 2,000 people exporting,
parsing and judging it took most of a page's time. Both are remembered here, under a key
made of everything the pure engine reads, so that a remembered answer is the answer:

- the delegation's rows: `content_rev`, raised by every write (revision.py), with its id
  and creation instant (a test's fresh database reuses ids);
- the Games' definition (`loaded_at`) and which of its deadlines have passed at `at`, and
  `at`'s date (identity numbers are read against "today");
- the identity numbers it shares with other delegations of the Games, and with which
  (shared_numbers): a save elsewhere that shares no number with it leaves this judgement
  valid;
- the unit, the universities list, the sanctions and the rooms allocated, read exactly;
- whether the reader may see which delegation holds a duplicate number (`reveal`).

The document is kept pickled and unpickled for each caller, who may change it freely."""
from __future__ import annotations

import datetime as dt
import functools
import pickle
import threading
from collections import OrderedDict
from dataclasses import dataclass
from typing import Any

from flask import g, has_request_context
from sqlalchemy import Boolean, Integer, String, bindparam, cast, event, func, literal, null, select, union_all
from sqlalchemy.orm import Session

from ..config import universities_csv
from ..db_tx import in_write_transaction
from ..extensions import db
from ..games.models import Unit
from ..games.services import (
    UNIT_INFO_COLUMNS,
    definition_in_force,
    definition_of,
    unit_info_of,
    unit_name_pairs,
    universities_fingerprint,
    universities_map,
    universities_version,
)
from ..register.career import known_to_register, revision_column as register_revision_column
from ..rules import check_delegation, parse_document
from ..rules.definition import UnitInfo
from ..rules.violations import Violation, dedupe
from . import shared
from .models import Delegation, DelegationStatus, Person
from .services import booked_people, export_document, other_id_numbers, previous_places, sanctions_of, wants_places

DOCUMENTS_KEPT = 48  # a national Games' delegations, one revision each
JUDGEMENTS_KEPT = 96
_documents: OrderedDict[tuple, bytes] = OrderedDict()
_judgements: OrderedDict[tuple, tuple[list[Violation], Any]] = OrderedDict()
_deadlines: dict[tuple, tuple[dt.datetime, ...]] = {}
_lock = threading.Lock()  # the development server and the jobs thread share a process


def _keep(store: OrderedDict, key, value, limit: int) -> None:
    with _lock:
        store[key] = value
        store.move_to_end(key)
        while len(store) > limit:
            store.popitem(last=False)


def _recall(store: OrderedDict, key):
    with _lock:
        value = store.get(key)
        if value is not None:
            store.move_to_end(key)
        return value


PENDING = "judged: kept once committed"  # session.info: what a write transaction computed


def _remember(store: OrderedDict, key, value, limit: int, kind: str, shared_key: tuple, blob: bytes) -> None:
    """Kept here and shared with the other workers (shared.py); what a write transaction
    computed only once it commits: rolled back, its revision number will be reused for
    other contents."""
    if in_write_transaction():
        db.session().info.setdefault(PENDING, []).append((store, key, value, limit, kind, shared_key, blob))
        return
    _keep(store, key, value, limit)
    shared.store(kind, shared_key, blob)


@event.listens_for(Session, "after_commit")
def _remember_committed(session) -> None:
    for store, key, value, limit, kind, shared_key, blob in session.info.pop(PENDING, ()):
        _keep(store, key, value, limit)
        shared.store(kind, shared_key, blob)


@event.listens_for(Session, "after_rollback")
def _forget_rolled_back(session) -> None:
    session.info.pop(PENDING, None)


def _document_keys(d: Delegation) -> tuple[tuple, tuple]:
    # created_at: another database may reuse the id
    return (d.id, d.created_at, d.content_rev), ("document", d.id, d.created_at.isoformat(), d.content_rev)


def stored_document(d: Delegation) -> dict:
    """export_document(d), from memory (this worker's, or another's through shared.py) while
    the delegation is unchanged."""
    return pickle.loads(stored_document_blob(d))


def stored_document_blob(d: Delegation) -> bytes:
    """stored_document(d) pickled: each pickle.loads of it an independent copy (a save's
    draft to edit beside the stored document, without pickling the document again)."""
    key, shared_key = _document_keys(d)
    blob = _recall(_documents, key)
    if blob is None and (blob := shared.fetch("document", shared_key)) is not None:
        _keep(_documents, key, blob, DOCUMENTS_KEPT)
    if blob is not None:
        return blob
    blob = pickle.dumps(export_document(d), protocol=pickle.HIGHEST_PROTOCOL)
    _remember(_documents, key, blob, DOCUMENTS_KEPT, "document", shared_key, blob)
    return blob


def remember_document(d: Delegation, doc: dict) -> None:
    """The document a save just stored, remembered for the page it leads to."""
    key, shared_key = _document_keys(d)
    blob = pickle.dumps(doc, protocol=pickle.HIGHEST_PROTOCOL)
    _remember(_documents, key, blob, DOCUMENTS_KEPT, "document", shared_key, blob)


def _all_deadlines(games) -> tuple[dt.datetime, ...]:
    """Every instant the definition names (stage deadlines and any other): a rule may
    compare `at` with any of them."""
    key = (games.slug, games.loaded_at)
    if key not in _deadlines:
        found: list[dt.datetime] = []

        def walk(value):
            if isinstance(value, dt.datetime):
                if value.tzinfo is not None:  # the engine compares only aware instants with `at`
                    found.append(value)
            elif isinstance(value, dict):
                for v in value.values():
                    walk(v)
            elif isinstance(value, (list, tuple)):
                for v in value:
                    walk(v)
        walk(definition_of(games).model_dump())
        if len(_deadlines) > 32:
            _deadlines.clear()
        _deadlines[key] = tuple(sorted(set(found)))
    return _deadlines[key]


def _held_elsewhere(games_id: int, delegation_id: int):
    """(number, other delegation) for each of the delegation's identity numbers that another
    delegation of the Games holds (withdrawn ones hold none): a few rows, usually none, not
    its own thousands; written as a filter on its numbers, so that its plan does not hang
    on the database's statistics."""
    numbers = select(Person.id_number).where(Person.delegation_id == delegation_id, Person.id_number.is_not(None))
    return (select(Person.id_number, Person.delegation_id)
            .join(Delegation, Person.delegation_id == Delegation.id)
            .where(Delegation.games_id == games_id, Person.delegation_id != delegation_id,
                   Delegation.status != DelegationStatus.WITHDRAWN, Person.id_number.in_(numbers)))


def shared_numbers(games_id: int, delegation_id: int | None = None) -> dict[int, frozenset]:
    """What of the other delegations a judgement depends on (issue 27, 1): the identity
    numbers it shares with them, and with whom (withdrawn delegations hold none). A save
    elsewhere that shares no number with a delegation leaves its judgement valid. One query
    (the index on id_number), for one delegation or for the whole Games."""
    if delegation_id is not None:
        rows = db.session.execute(_held_elsewhere(games_id, delegation_id)).all()
        return {delegation_id: frozenset((number, other) for number, other in rows)} if rows else {}
    in_games = select(Delegation.id).where(Delegation.games_id == games_id)
    numbers = (select(Person.id_number).where(Person.delegation_id.in_(in_games), Person.id_number.is_not(None))
               .group_by(Person.id_number).having(func.count(func.distinct(Person.delegation_id)) > 1))
    rows = db.session.execute(
        select(Person.id_number, Person.delegation_id, Delegation.status)
        .join(Delegation, Person.delegation_id == Delegation.id)
        .where(Delegation.games_id == games_id, Person.id_number.in_(numbers))).all()
    holders: dict[str, list[tuple[int, bool]]] = {}
    for number, did, status in rows:
        holders.setdefault(number, []).append((did, status == DelegationStatus.WITHDRAWN))
    out: dict[int, set] = {}
    for number, found in holders.items():
        for did, _withdrawn in found:
            others = {(number, other) for other, withdrawn in found if other != did and not withdrawn}
            if others:
                out.setdefault(did, set()).update(others)
    return {did: frozenset(rows) for did, rows in out.items()}


@dataclass(frozen=True)
class Outside:
    """What a delegation's judgement depends on beyond its own rows and the Games' definition."""
    universities: tuple  # the list's fingerprint (universities_map)
    register: int  # the player register's revision
    unit: UnitInfo | None
    sanctioned: dict[str, str]  # events the unit lost -> the Games where it withdrew
    shares: frozenset  # (number, other delegation) of its numbers held elsewhere
    placed: tuple = ()  # (event, best place) of the unit at the series' previous edition, when a rule reads it


@functools.cache
def _outside_statement():
    """Built once, bound per call: building and keying a statement costs more here than
    running it. One statement of rows (fact, key, other, name, revision, the unit's
    columns): first the head (the universities' count and highest code as `other` and
    `key`, the register's revision, the unit's row or NULLs), then each number held
    elsewhere (number, other delegation), then each sanction (event, the Games' name)."""
    count, top = universities_fingerprint()
    unit = Unit.__table__
    one = select(literal(1).label("one")).subquery()
    unit_columns = [unit.c[c] for c in UNIT_INFO_COLUMNS]
    padding = [cast(null(), c.type) for c in unit_columns]
    head = (select(literal("head").label("fact"), top.label("key"), count.label("other"),
                   cast(null(), String).label("name"), register_revision_column().label("revision"), *unit_columns)
            .select_from(one.outerjoin(unit, unit.c.code == bindparam("unit_code"))))
    held = _held_elsewhere(bindparam("games_id"), bindparam("delegation_id")).subquery()
    sanctions = sanctions_of(bindparam("series"), bindparam("edition"), bindparam("unit_code")).subquery()
    event, source = list(sanctions.c)[1], list(sanctions.c)[3]
    # Read only where a rule gives more for last edition's place (want_places).
    placed = previous_places(bindparam("series"), bindparam("edition"), bindparam("unit_code")).subquery()
    placed_event, place = list(placed.c)[1], list(placed.c)[2]
    return union_all(
        head,
        select(literal("number"), held.c.id_number, held.c.delegation_id, cast(null(), String),
               cast(null(), Integer), *padding),
        select(literal("sanction"), event, cast(null(), Integer), source, cast(null(), Integer), *padding),
        select(literal("placed"), placed_event, place, cast(null(), String), cast(null(), Integer), *padding)
        .where(bindparam("want_places", type_=Boolean)))


def outside_facts(games, unit_code: str | None, delegation_id: int) -> Outside:
    """Outside, in one statement: every page of a delegation asks for it, to find its
    remembered judgement, and five reads of a row or two each cost more than the rest of
    the lookup (issue 41, 1). The same facts as unit_info, sanctions_for, shared_numbers,
    the register's revision and the universities' fingerprint give one by one."""
    shares, sanctioned, placed, head = set(), {}, {}, None
    for row in db.session.execute(_outside_statement(), {
            "games_id": games.id, "delegation_id": delegation_id, "series": games.series, "edition": games.edition,
            "unit_code": unit_code, "want_places": bool(unit_code) and wants_places(definition_of(games))}):
        if row.fact == "head":
            head = row
        elif row.fact == "number":
            shares.add((row.key, row.other))
        elif row.fact == "placed":
            placed[row.key] = row.other
        else:
            sanctioned[row.key] = row.name
    return Outside(universities=(head.other, head.key), register=head.revision or 0,
                   unit=unit_info_of(head) if head.code is not None else None,
                   sanctioned=sanctioned, shares=frozenset(shares), placed=tuple(sorted(placed.items())))


def outside_of(d: Delegation, unit_code: str | None) -> Outside:
    """outside_facts() of the delegation as it stands, read once a request for each state
    of it: a save reads them after its write, for its judgement, and the people page it
    answers with (people_views) reads the same; a second read is one of the dearer
    statements of the cycle (issue 41, 1). Only within one request: nothing is kept from
    one request to the next, nor in the jobs worker, whose app context outlives its jobs."""
    if not has_request_context():
        return outside_facts(d.games, unit_code, d.id)
    seen = g.setdefault("outside_facts", {})
    key = (d.id, d.version, d.content_rev, unit_code)
    if key not in seen:
        seen[key] = outside_facts(d.games, unit_code, d.id)
    return seen[key]


def deadlines_passed(games, at: dt.datetime) -> int:
    return sum(1 for t in _all_deadlines(games) if at >= t)


def stored_violations(d: Delegation, doc: dict, at: dt.datetime, reveal: bool,
                      parsed_as: tuple | None = None, outside: Outside | None = None) -> list[Violation]:
    """Parse problems and violations of the stored delegation `d` (whose stored document is
    `doc`), as judge() gives them, from memory while nothing it depends on has changed.
    (`parsed_as`: parse_document(doc), when the caller has it: a save parsed what it stored;
    `outside`: outside_facts() of the document's unit, when the page read them already.)"""
    games = d.games
    version, definition = definition_in_force(games, at)
    unit_code = doc.get("unit") if isinstance(doc.get("unit"), str) else None
    if outside is None:
        outside = outside_of(d, unit_code)
    universities = universities_map(fallback_csv=universities_csv(), fingerprint=outside.universities)
    unit, sanctioned, shares, register = outside.unit, outside.sanctioned, outside.shares, outside.register
    placed = outside.placed
    booked = booked_people(games, d.id)
    passed = deadlines_passed(games, at)
    key = (d.id, d.created_at, d.content_rev, games.id, games.loaded_at, version, reveal, at.date(), passed, shares, register,
           id(universities), repr(unit), tuple(sorted(sanctioned.items())),
           frozenset(booked) if booked is not None else None, placed)
    hit = _recall(_judgements, key)
    if hit is not None:
        return list(hit[0])
    # The same, in words every process spells alike (no id(), sets in order).
    shared_key = ("judgement", d.id, d.created_at.isoformat(), d.content_rev, games.id, games.loaded_at.isoformat(),
                  version, reveal, at.date().isoformat(), passed, tuple(sorted(shares)), register,
                  universities_version(), repr(unit), tuple(sorted(sanctioned.items())),
                  tuple(sorted(booked)) if booked is not None else None, placed)
    if (blob := shared.fetch("judgement", shared_key)) is not None:
        violations = pickle.loads(blob)
        _keep(_judgements, key, (violations, universities), JUDGEMENTS_KEPT)
        return list(violations)
    parsed, problems = parsed_as if parsed_as is not None else parse_document(doc)
    if parsed is None:
        return problems
    known = known_to_register(parsed.people, games, parsed.unit_code, revision=register)
    # `shares` holds every number of the stored delegation that another one holds: with none,
    # no number of it is anyone else's, and there is nothing more to read.
    violations = dedupe(problems + check_delegation(
        definition, parsed, at=at, unit=unit, universities=universities,
        other_id_numbers=other_id_numbers(games, parsed, d.id, reveal) if shares else {},
        sanctioned=sanctioned, booked_people=booked,
        qualified=known.qualified, barred_people=known.barred, delegation_documents=frozenset(d.documents or []),
        joint_with=frozenset(d.joint_with or []), placed_before=dict(placed) if unit_code else None,
        unit_names=unit_name_pairs() if any(p.registration_unit and p.registration_unit != parsed.unit_code
                                            for p in parsed.people) else None))
    # The universities map is kept alive with the answer, so its id() stays its own.
    _remember(_judgements, key, (violations, universities), JUDGEMENTS_KEPT, "judgement", shared_key,
              pickle.dumps(violations, protocol=pickle.HIGHEST_PROTOCOL))
    return list(violations)
