"""Checking, storing and exporting delegation documents."""
from __future__ import annotations

import datetime as dt
from typing import Any

from flask import current_app
from sqlalchemy import Integer, cast, func, literal, null, select
from sqlalchemy.orm import aliased

from ..config import universities_csv
from ..extensions import db
from ..games.models import Games, GamesStatus
from ..games.services import (
    definition_at,
    definition_of,
    find_or_load_games,
    unit_info,
    unit_name_pairs,
    unit_names,
    units_info,
    universities_map,
)
from ..money.models import RoomRequest, RoomStatus
from ..register.career import known_to_register
from ..results.models import EventResult
from ..rules import check_delegation, parse_document, report
from ..rules.document import FORMAT, ParsedDelegation
from ..rules.idnumber import normalise
from ..rules.violations import Violation, dedupe, schema_error
from ..workflow.models import Sanction
from .identity_checks import checked_numbers
from .models import Companion, Declaration, Delegation, DelegationStatus, Entry, EntryMember, Official, Person, StaffMember
from .storage import StoredRows, rows_of, set_unit, store_document, store_people_changes

OK, ERRORS, UNUSABLE = 0, 1, 2


def other_id_numbers(games: Games, doc: ParsedDelegation, exclude_delegation_id: int | None = None,
                     reveal: bool = False, all_numbers: bool = False) -> dict[str, str]:
    """The document's identity numbers that other delegations of these Games use -> who uses
    them, for the organisers (`reveal`); for anyone else -> "" (never another unit's people).
    Which numbers are compared (identity_checks.py): every one for the organisers (`reveal`
    or `all_numbers`); for anyone else only those of the saved delegation
    `exclude_delegation_id` that a save compared, and none of a document not saved."""
    own_numbers = {normalise(p.id_number) for p in doc.people if p.id_number}
    if not reveal and not all_numbers:
        if exclude_delegation_id is None:
            return {}  # a preview or the API: never an answer about other delegations
        own_numbers &= checked_numbers(exclude_delegation_id)
    if not own_numbers:
        return {}
    names = unit_names()
    # Only rows holding one of this document's numbers (stored numbers are normalised; the
    # index on id_number finds them), in chunks that every database's parameter limit takes.
    numbers = sorted(own_numbers)
    rows = []
    for i in range(0, len(numbers), 10000):
        rows += db.session.execute(
            select(Person.id_number, Delegation.id, Delegation.unit_code, Delegation.unit_name)
            .join(Delegation, Person.delegation_id == Delegation.id)
            .where(Delegation.games_id == games.id, Person.id_number.in_(numbers[i:i + 10000]),
                   Delegation.status != DelegationStatus.WITHDRAWN)).all()
    return _others(doc, own_numbers, rows, exclude_delegation_id, names, reveal)


def _others(doc: ParsedDelegation, own_numbers: set[str], rows, exclude_delegation_id, names, reveal) -> dict[str, str]:
    """other_id_numbers() from the rows (number, delegation id, unit code, unit name) that
    hold any of the document's numbers."""
    out = {}
    for number, delegation_id, unit_code, unit_name in rows:
        if delegation_id == exclude_delegation_id:
            continue
        if doc.unit_code is not None and unit_code == doc.unit_code:
            continue
        if isinstance(doc.unit, dict) and unit_code is None and unit_name == doc.unit.get("name"):
            continue
        n = normalise(number)
        if n in own_numbers:
            out[n] = names.get(unit_code, unit_code) if unit_code else (unit_name or "个人报名")
    if doc.unit is None and exclude_delegation_id is None:
        # A person registering alone re-checks his own stored entry: not a duplicate.
        mine = {n for n in out if out[n] == "个人报名"}
        if mine == own_numbers:
            out = {n: w for n, w in out.items() if n not in mine}
    return out if reveal else dict.fromkeys(out, "")


def _standing_sanctions(series, edition):
    """The sanctions in force at an edition of a series, as rows (unit, event, the name of
    the Games where the unit withdrew without excuse)."""
    return (select(Sanction.unit_code, Sanction.event_code, func.coalesce(Games.name_zh, Sanction.source_games))
            .outerjoin(Games, Games.slug == Sanction.source_games)
            .where(Sanction.series == series, Sanction.edition == edition, Sanction.lifted.is_(False)))


def sanctions_of(series, edition, unit_code):
    """sanctions_for() as a statement of rows ("sanction", event, NULL, the Games' name), to
    be read with others (judged.outside_facts); its arguments values or bound parameters."""
    return (_standing_sanctions(series, edition).where(Sanction.unit_code == unit_code)
            .with_only_columns(literal("sanction"), Sanction.event_code, cast(null(), Integer),
                               func.coalesce(Games.name_zh, Sanction.source_games)))


def sanctions_for(games: Games, unit_code: str | None) -> dict[str, str]:
    """Events this unit lost at these Games -> the Games where it withdrew without excuse."""
    if not unit_code:
        return {}
    return {event: source for _, event, _, source in
            db.session.execute(sanctions_of(games.series, games.edition, unit_code))}


def previous_places(series, edition, unit_code=None):
    """Rows (unit, event, best place) of the series' latest edition before `edition`: what a
    placed_bonus reads ("上届前三名的单位可多报1人"); for one unit when `unit_code` is given.
    Its arguments values or bound parameters (judged.outside_facts)."""
    earlier = aliased(Games)
    last = (select(func.max(earlier.edition)).where(earlier.series == series, earlier.edition < edition)
            .scalar_subquery())
    q = (select(Delegation.unit_code, EventResult.event_code, func.min(EventResult.place))
         .join(Delegation, EventResult.delegation_id == Delegation.id).join(Games, EventResult.games_id == Games.id)
         .where(Games.series == series, Games.edition == last, Delegation.unit_code.is_not(None))
         .group_by(Delegation.unit_code, EventResult.event_code))
    return q.where(Delegation.unit_code == unit_code) if unit_code is not None else q


def wants_places(definition) -> bool:
    """Whether any rule gives more for last edition's place (else nothing is read for it)."""
    return any(getattr(r, "placed_bonus", None) is not None for r in definition.rules)


def places_by_unit(games: Games, definition) -> dict[str, dict[str, int]]:
    """previous_places() of every unit, from one query (nothing when no rule reads them)."""
    out: dict[str, dict[str, int]] = {}
    if wants_places(definition):
        for unit_code, event, place in db.session.execute(previous_places(games.series, games.edition)):
            out.setdefault(unit_code, {})[event] = place
    return out


def _places_of(games: Games, definition, unit_code: str) -> dict[str, int]:
    if not wants_places(definition):
        return {}
    return {event: place for _unit, event, place in
            db.session.execute(previous_places(games.series, games.edition, unit_code))}


def judge(games: Games, doc: ParsedDelegation, at: dt.datetime | None = None,
          exclude_delegation_id: int | None = None, *, stored: bool = True,
          reveal: bool = False, all_numbers: bool = False,
          held_numbers: dict[str, str] | None = None) -> list[Violation]:
    """Every rule violation of a parsed document, with what the database knows (`stored`:
    other delegations' identity numbers, sanctions); `reveal`: name the delegation that
    already holds an identity number (organisers only); `all_numbers`: compare every
    identity number, not only those a save compared (organisers' decisions);
    `held_numbers`: the numbers held elsewhere, when the caller compared them itself."""
    if held_numbers is None:
        held_numbers = other_id_numbers(games, doc, exclude_delegation_id, reveal, all_numbers) if stored else {}
    # What the register knows of these people: only where the database is read at all (a
    # document judged alone learns nothing of anyone registered).
    known = known_to_register(doc.people, games, doc.unit_code) if stored else None
    own = db.session.get(Delegation, exclude_delegation_id) if stored and exclude_delegation_id else None
    return check_delegation(
        definition_at(games, at), doc, at=at,
        unit=unit_info(doc.unit_code) if doc.unit_code else None,
        # Read only for a person who names a university: the engine looks nothing else up there.
        universities=universities_map(fallback_csv=universities_csv())
        if any(p.university_code for p in doc.people) else {},
        other_id_numbers=held_numbers,
        sanctioned=sanctions_for(games, doc.unit_code) if stored else {},
        booked_people=booked_people(games, exclude_delegation_id) if stored else None,
        qualified=known.qualified if known else None,
        barred_people=known.barred if known else None,
        delegation_documents=frozenset(own.documents or []) if own is not None else None,
        unit_names=unit_name_pairs() if any(p.registration_unit and p.registration_unit != doc.unit_code
                                            for p in doc.people) else None,
        joint_with=frozenset(own.joint_with or []) if own is not None else frozenset(),
        placed_before=_places_of(games, definition_at(games, at), doc.unit_code) if stored and doc.unit_code else None,
    )


def booked_people(games: Games, delegation_id: int | None) -> set[str] | None:
    """The people of a stored delegation with a room allocated, where the Games require
    rooms (None: not known, or not required)."""
    if delegation_id is None or definition_of(games).rooms_required_for is None:
        return None
    rows = db.session.scalars(select(RoomRequest.occupants).where(
        RoomRequest.delegation_id == delegation_id, RoomRequest.status == RoomStatus.ALLOCATED))
    return {ref for occupants in rows for ref in occupants or []}


def sanctions_by_unit(games: Games) -> dict[str, dict[str, str]]:
    """sanctions_for() of every unit of the Games, from one query."""
    sanctions: dict[str, dict[str, str]] = {}
    for unit_code, event_code, source in db.session.execute(_standing_sanctions(games.series, games.edition)):
        sanctions.setdefault(unit_code, {})[event_code] = source
    return sanctions


def booked_by_delegation(games: Games, delegation_ids: list[int]) -> dict[int, set[str]] | None:
    """booked_people() of each delegation, from one query (None: the Games require no rooms)."""
    if definition_of(games).rooms_required_for is None:
        return None
    booked: dict[int, set[str]] = {}
    for delegation_id, occupants in db.session.execute(
            select(RoomRequest.delegation_id, RoomRequest.occupants).where(
                RoomRequest.delegation_id.in_(delegation_ids or [-1]), RoomRequest.status == RoomStatus.ALLOCATED)):
        booked.setdefault(delegation_id, set()).update(occupants or [])
    return booked


def judge_many(games: Games, delegations: list[Delegation], at: dt.datetime | None = None,
               reveal: bool = False) -> dict[int, list[Violation]]:
    """judge() of each stored delegation, by id, with what the database knows read once for
    the whole Games (identity numbers held twice, sanctions, rooms): a fixed number of
    statements however many delegations the organisers' overview shows."""
    if not delegations:
        return {}
    documents = export_documents(delegations)
    definition = definition_at(games, at)
    universities = universities_map(fallback_csv=universities_csv())
    names = unit_names()
    units = units_info({d.unit_code for d in delegations if d.unit_code})
    shared = (select(Person.id_number).join(Delegation, Person.delegation_id == Delegation.id)
              .where(Delegation.games_id == games.id, Delegation.status != DelegationStatus.WITHDRAWN, Person.id_number.is_not(None))
              .group_by(Person.id_number).having(func.count(func.distinct(Person.delegation_id)) > 1))
    holders = db.session.execute(
        select(Person.id_number, Delegation.id, Delegation.unit_code, Delegation.unit_name)
        .join(Delegation, Person.delegation_id == Delegation.id)
        .where(Delegation.games_id == games.id, Delegation.status != DelegationStatus.WITHDRAWN,
               Person.id_number.in_(shared))).all()
    sanctions = sanctions_by_unit(games)
    placed = places_by_unit(games, definition)
    booked = booked_by_delegation(games, [d.id for d in delegations])
    out = {}
    parsed_documents = {d.id: parse_document(documents[d.id]) for d in delegations}
    unit_of = {id(p): parsed.unit_code for parsed, _ in parsed_documents.values() if parsed for p in parsed.people}
    known = known_to_register([p for parsed, _ in parsed_documents.values() if parsed for p in parsed.people], games,
                              lambda p: unit_of.get(id(p)))
    # Other units' names, only where someone is registered elsewhere (a message names it).
    unit_pairs = unit_name_pairs() if any(
        p.registration_unit and p.registration_unit != parsed.unit_code
        for parsed, _ in parsed_documents.values() if parsed for p in parsed.people) else {}
    for d in delegations:
        parsed, problems = parsed_documents[d.id]
        if parsed is None:
            out[d.id] = problems
            continue
        own = {normalise(p.id_number) for p in parsed.people if p.id_number}
        rows = [r for r in holders if normalise(r[0]) in own]
        out[d.id] = dedupe(problems + check_delegation(
            definition, parsed, at=at, unit=units.get(parsed.unit_code) if parsed.unit_code else None,
            universities=universities,
            other_id_numbers=_others(parsed, own, rows, d.id, names, reveal) if own else {},
            sanctioned=sanctions.get(parsed.unit_code, {}) if parsed.unit_code else {},
            booked_people=(booked.get(d.id, set()) if booked is not None else None), qualified=known.qualified,
            barred_people=known.barred, delegation_documents=frozenset(d.documents or []),
            unit_names=unit_pairs, joint_with=frozenset(d.joint_with or []),
            placed_before=placed.get(parsed.unit_code, {}) if parsed.unit_code else None))
    return out


def check_document(data: Any, at: dt.datetime | None = None,
                   exclude_delegation_id: int | None = None, *, stored: bool = True,
                   reveal: bool = False, drafts: bool = False) -> tuple[dict, int]:
    """The `check` report for a decoded document, and the exit status (0, 1 or 2).
    `stored` and `reveal` as for `judge`; a draft Games is unknown unless `drafts` (its
    staff trying their rules)."""
    doc, problems = parse_document(data)
    games_slug = doc.games if doc else None
    unit = doc.unit if doc else (data.get("unit") if isinstance(data, dict) else None)
    if doc is None:
        return report(games_slug, unit, problems), UNUSABLE
    games = find_or_load_games(doc.games) if doc.games else None
    if games is not None and games.status == GamesStatus.DRAFT and not drafts:
        games = None  # not open yet: as if it did not exist
    if games is None:
        if doc.games:
            problems.append(schema_error("games", f"未知的比赛“{doc.games}”", f"unknown Games {doc.games!r}"))
        return report(games_slug, unit, dedupe(problems)), UNUSABLE
    violations = problems + judge(games, doc, at, exclude_delegation_id, stored=stored, reveal=reveal)
    rep = report(games_slug, unit, dedupe(violations))
    return rep, OK if rep["ok"] else ERRORS


# --- storing and exporting -------------------------------------------------------------

def find_delegation(games: Games, unit_code: str) -> Delegation | None:
    return db.session.scalar(select(Delegation).where(Delegation.games_id == games.id,
                                                      Delegation.unit_code == unit_code))


def replace_contents(delegation: Delegation, doc: ParsedDelegation, before: dict | None = None) -> dict:
    """Make the stored delegation say exactly what the parsed document says (changed rows
    only); returns the stored delegation's document, as export_document would read it back.
    `before`: the stored document, exactly (read under the delegation's lock): a save that
    changes only people's fields (the deadline night's usual save) then writes their rows
    and reads none."""
    after = None
    if before is not None and delegation.id is not None:
        set_unit(delegation, doc)
        rows = rows_of(doc)
        after = _document_of(delegation, rows)
        changed = _people_changed_only(before, after)
        if changed is None:
            after = None
        else:
            store_people_changes(delegation, doc, rows, changed)
    if after is None:
        after = _document_of(delegation, store_document(delegation, doc))
    if current_app.config.get("CHECK_STORED_DOCUMENT"):  # the test suite: every save compares
        read_back = export_document(delegation)
        if after != read_back:
            raise AssertionError(f"the document built from the rows written differs from the one read back:\n"
                                 f"{after}\n{read_back}")
    return after


def _people_changed_only(before: dict, after: dict) -> dict[str, dict] | None:
    """The people whose fields differ (ref -> as `before` has him), when nothing else does;
    None when anything else differs (people added, removed or reordered included)."""
    if before.keys() != after.keys() or any(before[k] != after[k] for k in after if k != "people"):
        return None
    if [p.get("ref") for p in before["people"]] != [p["ref"] for p in after["people"]]:
        return None
    return {b["ref"]: b for b, a in zip(before["people"], after["people"]) if b != a}


def _iso(day) -> str | None:
    return day.isoformat() if day else None


def export_document(delegation: Delegation) -> dict:
    """The stored delegation as a delegation/1 document (eight statements, whatever its size)."""
    return export_documents([delegation])[delegation.id]


def export_documents(delegations: list[Delegation]) -> dict[int, dict]:
    """Each stored delegation as a delegation/1 document, by delegation id, from one query
    per kind of row: eight statements however many delegations and people."""
    ids = [d.id for d in delegations]
    if not ids:
        return {}
    def grouped(model) -> dict[int, list]:
        table = model.__table__
        out: dict[int, list] = {i: [] for i in ids}
        result = db.session.execute(select(table).where(table.c.delegation_id.in_(ids))
                                    .order_by(table.c.delegation_id, table.c.position, table.c.id))
        keys = list(result.keys())
        for values in result:  # plain tuples: a RowMapping lookup costs several times more
            row = dict(zip(keys, values))
            out[row["delegation_id"]].append(row)
        return out

    person_rows = grouped(Person)
    ref_of = {p["id"]: p["ref"] for rows in person_rows.values() for p in rows}
    members: dict[int, list] = {}
    member_q = (select(EntryMember.__table__).join(Entry.__table__, EntryMember.entry_id == Entry.id)
                .where(Entry.delegation_id.in_(ids))
                .order_by(EntryMember.entry_id, EntryMember.position, EntryMember.id))
    result = db.session.execute(member_q)
    keys = list(result.keys())
    for values in result:
        m = dict(zip(keys, values))
        members.setdefault(m["entry_id"], []).append(m)
    entry_rows, declaration_rows = grouped(Entry), grouped(Declaration)
    official_rows, staff_rows, companion_rows = grouped(Official), grouped(StaffMember), grouped(Companion)
    return {d.id: _document_of(d, StoredRows(person_rows[d.id], entry_rows[d.id], members, declaration_rows[d.id],
                                             official_rows[d.id], staff_rows[d.id], companion_rows[d.id], ref_of))
            for d in delegations}


def _document_of(delegation, rows: StoredRows) -> dict:
    """The delegation/1 document of the delegation whose rows are `rows` (as read by export,
    or as a save left them)."""
    iso, ref_of, members = _iso, rows.ref_of, rows.members
    if delegation.unit_code:
        unit = delegation.unit_code
    elif delegation.unit_kind == "individual":
        unit = None
    else:
        unit = {"name": delegation.unit_name, "kind": delegation.unit_kind or "club"}
    people = []
    for p in rows.people:
        people.append({
            "ref": p["ref"], "name": p["name"], "gender": p["gender"], "birth_date": iso(p["birth_date"]),
            "id_type": p["id_type"], "id_number": p["id_number"],
            "registration": ({"unit": p["registration_unit"], "year": p["registration_year"],
                              **({"date": iso(p["registration_date"])} if p["registration_date"] else {})}
                             if p["registration_unit"] or p["registration_year"] or p["registration_date"] else None),
            "university": ({"code": p["university_code"], "full_time": p["full_time"],
                            "graduation_date": iso(p["graduation_date"])} if p["has_university"] else None),
            "fide_rating": ({"value": p["fide_rating"], "list": iso(p["fide_list"])}
                            if p["fide_rating"] is not None else None),
            "documents": list(p["documents"] or []), "club": p["club"],
            **(p.get("profile") or {}),
        })
    entries = []
    for e in rows.entries:
        mine = members.get(e["id"], [])
        if e["is_lineup"]:
            lineup = []
            for m in mine:
                slot = {"person": ref_of[m["person_id"]]}
                if m["board"] is not None:
                    slot["board"] = m["board"]
                if m["reserve"]:
                    slot["reserve"] = True
                lineup.append(slot)
            entries.append({"event": e["event_code"], "team": e["team"], "lineup": lineup})
        else:
            item = {"event": e["event_code"], "people": [ref_of[m["person_id"]] for m in mine]}
            if e["team"]:
                item["team"] = e["team"]
            entries.append(item)
    return {
        "format": FORMAT,
        "games": delegation.games.slug,
        "unit": unit,
        "declarations": [{"event": d["event_code"], "count": d["count"]} for d in rows.declarations],
        "people": people,
        "entries": entries,
        "officials": [{"person": ref_of[o["person_id"]], "role": o["role"], "sport": o["sport"]}
                      for o in rows.officials],
        "staff": [{"person": ref_of[s["person_id"]], "role": s["role"]} for s in rows.staff],
        "companions": [{"person": ref_of[c["person_id"]],
                        "accompanies": ref_of.get(c["accompanies_id"]) if c["accompanies_id"] else None}
                       for c in rows.companions],
    }
