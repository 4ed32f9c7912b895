"""Writing a parsed delegation document over the stored one, touching only what changed.

A save on the deadline night usually changes one person of hundreds: reading each kind of
row once and writing only the rows that differ (one executemany per kind and operation)
keeps a save at a handful of statements whatever the delegation's size, where clearing and
re-adding every row took thousands."""
from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from sqlalchemy import bindparam, delete, insert, select, update

from ..extensions import db
from ..rules.document import ParsedDelegation
from ..rules.idnumber import normalise
from .models import Companion, Declaration, Delegation, Entry, EntryMember, Official, Person, StaffMember, new_card_serial
from .revision import raise_content_rev

PERSON_FIELDS = ("position", "name", "gender", "birth_date", "id_type", "id_number", "registration_unit",
                 "registration_year", "registration_date", "university_code", "full_time", "graduation_date", "fide_rating",
                 "fide_list", "documents", "club", "has_university", "profile")
CHILD_MODELS = (Person, Declaration, Entry, EntryMember, Official, StaffMember, Companion)


@dataclass
class StoredRows:
    """A delegation's rows, as export reads them or as store_document left them (its entries
    then keyed by their place in the document), for services._document_of: the document a
    save leads to is built without reading back what it has just written."""
    people: list[dict]
    entries: list[dict]
    members: dict[int, list[dict]]
    declarations: list[dict]
    officials: list[dict]
    staff: list[dict]
    companions: list[dict]
    ref_of: dict[int, str]


def store_document(delegation: Delegation, doc: ParsedDelegation) -> StoredRows:
    """Make the stored delegation say exactly what the parsed document says; returns the
    rows as they now are."""
    set_unit(delegation, doc)
    db.session.flush()
    did = delegation.id
    person_ids, removed_people, numbers_changed, people = _sync_people(did, doc)
    declarations = [{"event_code": event, "count": count, "position": i} for i, (event, count) in enumerate(doc.declarations)]
    _sync_keyed(Declaration, did, ("event_code",), declarations)
    entries, members = _sync_entries(did, doc, person_ids)
    officials = [{"person_id": person_ids[o.person], "role": o.role, "sport": o.sport, "position": i}
                 for i, o in enumerate(doc.officials)]
    staff = [{"person_id": person_ids[s.person], "role": s.role, "position": i} for i, s in enumerate(doc.staff)]
    companions = [{"person_id": person_ids[c.person], "position": i,
                   "accompanies_id": person_ids.get(c.accompanies) if c.accompanies else None}
                  for i, c in enumerate(doc.companions)]
    _sync_positional(Official, did, officials)
    _sync_positional(StaffMember, did, staff)
    _sync_positional(Companion, did, companions)
    if removed_people:
        # Last: nothing written above points at them any more.
        db.session.execute(delete(Person.__table__).where(Person.__table__.c.id.in_(removed_people)))
    raise_content_rev(db.session, did, numbers=numbers_changed)
    _forget_loaded_rows(delegation)
    return StoredRows(people, entries, members, declarations, officials, staff, companions,
                      {pid: ref for ref, pid in person_ids.items()})


def rows_of(doc: ParsedDelegation) -> StoredRows:
    """The rows the document makes, each person standing for his row id by his ref: what
    services._document_of builds the stored document from, before anything is written."""
    people = [dict(_person_row(i, p), ref=p.ref, id=p.ref) for i, p in enumerate(doc.people)]
    entries, members = [], {}
    for i, e in enumerate(doc.entries):
        entries.append({"id": i, "event_code": e.event, "team": e.team, "is_lineup": e.lineup is not None, "position": i})
        members[i] = ([{"person_id": s.person, "board": s.board, "reserve": bool(s.reserve)} for s in e.lineup]
                      if e.lineup is not None else [{"person_id": r, "board": None, "reserve": False} for r in e.people])
    return StoredRows(
        people, entries, members,
        [{"event_code": event, "count": count, "position": i} for i, (event, count) in enumerate(doc.declarations)],
        [{"person_id": o.person, "role": o.role, "sport": o.sport} for o in doc.officials],
        [{"person_id": x.person, "role": x.role} for x in doc.staff],
        [{"person_id": c.person, "accompanies_id": c.accompanies} for c in doc.companions],
        {p.ref: p.ref for p in doc.people})


def _update_by_ref(fields):
    t = Person.__table__
    return (update(t).where(t.c.delegation_id == bindparam("_did"), t.c.ref == bindparam("_ref"))
            .values({f: bindparam(f) for f in fields}))


# Built once: the deadline night's usual save runs them.
_UPDATE_PEOPLE, _NEW_CARDS = _update_by_ref(PERSON_FIELDS), _update_by_ref(("card_serial",))


def store_people_changes(delegation: Delegation, doc: ParsedDelegation, rows: StoredRows,
                         changed: dict[str, dict]) -> None:
    """The save of a document whose only difference from the stored one is in the fields of
    some people (the same people in the same order, the same entries, roles and
    declarations): their rows updated, nothing read. `rows`: rows_of(doc); `changed`: each
    changed person's ref -> the person as the stored document has him."""
    set_unit(delegation, doc)
    db.session.flush()
    did = delegation.id
    by_ref = {p["ref"]: p for p in rows.people}
    updates, reissued, numbers = [], [], False
    for ref, before in changed.items():
        row = by_ref[ref]
        updates.append({"_did": did, "_ref": ref, **{f: row[f] for f in PERSON_FIELDS}})
        renumbered = _differs(before.get("id_number"), row["id_number"])
        if renumbered or (row["id_number"] is None and _differs(before.get("name"), row["name"])):
            reissued.append({"_did": did, "_ref": ref, "card_serial": new_card_serial()})
        numbers = numbers or renumbered
    for statement, values in ((_UPDATE_PEOPLE, updates), (_NEW_CARDS, reissued)):
        if values:
            db.session.execute(statement, values)
    raise_content_rev(db.session, did, numbers=numbers)
    _forget_loaded_rows(delegation)


def set_unit(delegation: Delegation, doc: ParsedDelegation) -> None:
    if isinstance(doc.unit, dict):
        delegation.unit_code, delegation.unit_name = None, doc.unit.get("name")
        delegation.unit_kind = doc.unit.get("kind")
    elif doc.unit is None:
        delegation.unit_code, delegation.unit_kind = None, "individual"
        delegation.unit_name = doc.people[0].name if doc.people else None
    else:
        delegation.unit_code, delegation.unit_kind = doc.unit, None


def _person_row(i: int, p) -> dict:
    return {"position": i, "name": p.name or p.ref, "gender": p.gender, "birth_date": p.birth_date,
            "id_type": p.id_type, "id_number": normalise(p.id_number) if p.id_number else None,
            "registration_unit": p.registration_unit, "registration_year": p.registration_year,
            "registration_date": p.registration_date,
            "university_code": p.university_code, "full_time": p.full_time,
            "graduation_date": p.graduation_date, "fide_rating": p.fide_rating, "fide_list": p.fide_list,
            "documents": sorted(p.documents), "club": p.club, "has_university": bool(p.has_university),
            "profile": p.profile()}


def _sync_people(did: int, doc: ParsedDelegation) -> tuple[dict[str, int], list[int], bool, list[dict]]:
    """Update changed people, insert new ones; returns ref -> id, the ids of people gone,
    whether an identity number came, went or changed, and the people's rows as stored."""
    t = Person.__table__
    stored = {r["ref"]: r for r in db.session.execute(
        select(t.c.id, t.c.ref, *[t.c[f] for f in PERSON_FIELDS]).where(t.c.delegation_id == did)).mappings()}
    ids: dict[str, int] = {}
    changed, added, reissued, rows = [], [], [], []
    renumbered = False
    for i, p in enumerate(doc.people):
        row = _person_row(i, p)
        rows.append(dict(row, ref=p.ref))
        old = stored.get(p.ref)
        if old is None:
            added.append({"delegation_id": did, "ref": p.ref, **row})
            continue
        ids[p.ref] = old["id"]
        if any(_differs(old[f], row[f]) for f in PERSON_FIELDS):
            changed.append({"_id": old["id"], **row})
            renumbered = renumbered or _differs(old["id_number"], row["id_number"])
            if _differs(old["id_number"], row["id_number"]) or (
                    row["id_number"] is None and _differs(old["name"], row["name"])):
                reissued.append({"_id": old["id"], "card_serial": new_card_serial()})
    _update_many(t, PERSON_FIELDS, changed)
    _update_many(t, ("card_serial",), reissued)
    if added:
        result = db.session.execute(insert(t).returning(t.c.id, t.c.ref, sort_by_parameter_order=True), added)
        ids.update({ref: pid for pid, ref in result})
    removed = [old["id"] for ref, old in stored.items() if ref not in ids]
    numbers = renumbered or any(a["id_number"] for a in added) or \
        any(old["id_number"] for ref, old in stored.items() if ref not in ids)
    for row in rows:
        row["id"] = ids[row["ref"]]
    return ids, removed, numbers, rows


def _sync_keyed(model, did: int, key: tuple[str, ...], rows: list[dict]) -> None:
    """Rows with a natural key (unique per delegation): match on it, write the differences."""
    t = model.__table__
    fields = tuple(rows[0]) if rows else tuple(c.name for c in t.c if c.name not in ("id", "delegation_id"))
    stored = {tuple(r[k] for k in key): r for r in db.session.execute(
        select(t.c.id, *[t.c[f] for f in fields]).where(t.c.delegation_id == did)).mappings()}
    changed, added, seen = [], [], set()
    for row in rows:
        k = tuple(row[f] for f in key)
        seen.add(k)
        old = stored.get(k)
        if old is None:
            added.append({"delegation_id": did, **row})
        elif any(_differs(old[f], row[f]) for f in fields):
            changed.append({"_id": old["id"], **row})
    gone = [old["id"] for k, old in stored.items() if k not in seen]
    if gone:
        db.session.execute(delete(t).where(t.c.id.in_(gone)))
    _update_many(t, fields, changed)
    if added:
        db.session.execute(insert(t), added)


def _sync_positional(model, did: int, rows: list[dict]) -> None:
    """Rows without a natural key (roles): compare position by position."""
    t = model.__table__
    fields = tuple(c.name for c in t.c if c.name not in ("id", "delegation_id"))
    stored = list(db.session.execute(
        select(t.c.id, *[t.c[f] for f in fields]).where(t.c.delegation_id == did)
        .order_by(t.c.position, t.c.id)).mappings())
    changed, added = [], []
    for i, row in enumerate(rows):
        row = {f: row.get(f) for f in fields}
        if i >= len(stored):
            added.append({"delegation_id": did, **row})
        elif any(_differs(stored[i][f], row[f]) for f in fields):
            changed.append({"_id": stored[i]["id"], **row})
    gone = [r["id"] for r in stored[len(rows):]]
    if gone:
        db.session.execute(delete(t).where(t.c.id.in_(gone)))
    _update_many(t, fields, changed)
    if added:
        db.session.execute(insert(t), added)


def _sync_entries(did: int, doc: ParsedDelegation, person_ids: dict[str, int]) -> tuple[list[dict], dict[int, list[dict]]]:
    """Entries are matched on (event, team, nth of that pair); an entry whose members
    changed gets its member rows rewritten, the others are left alone. Returns the entries
    as stored, each keyed by its place in the document, and their members by that key."""
    et, mt = Entry.__table__, EntryMember.__table__
    stored_entries = list(db.session.execute(
        select(et.c.id, et.c.event_code, et.c.team, et.c.is_lineup, et.c.position)
        .where(et.c.delegation_id == did).order_by(et.c.position, et.c.id)).mappings())
    members: dict[int, list[tuple]] = {}
    for m in db.session.execute(
            select(mt.c.entry_id, mt.c.person_id, mt.c.board, mt.c.reserve, mt.c.position)
            .join(et, mt.c.entry_id == et.c.id).where(et.c.delegation_id == did)
            .order_by(mt.c.entry_id, mt.c.position, mt.c.id)):
        members.setdefault(m.entry_id, []).append((m.person_id, m.board, bool(m.reserve), m.position))
    by_key: dict[tuple, dict] = dict(_numbered(stored_entries, lambda r: (r["event_code"], r["team"])))

    new_entries = []
    for i, e in enumerate(doc.entries):
        slots = e.lineup if e.lineup is not None else [None] * len(e.people)
        refs = [s.person for s in e.lineup] if e.lineup is not None else e.people
        wanted = [(person_ids[ref], slot.board if slot else None, bool(slot.reserve) if slot else False, j)
                  for j, (ref, slot) in enumerate(zip(refs, slots))]
        new_entries.append(({"event_code": e.event, "team": e.team, "is_lineup": e.lineup is not None,
                             "position": i}, wanted))

    changed, rewritten, added, kept = [], [], [], set()
    for key, (row, wanted) in _numbered(new_entries, lambda x: (x[0]["event_code"], x[0]["team"])):
        old = by_key.get(key)
        if old is None:
            added.append((row, wanted))
            continue
        kept.add(old["id"])
        if bool(old["is_lineup"]) != row["is_lineup"] or old["position"] != row["position"]:
            changed.append({"_id": old["id"], **row})
        if members.get(old["id"], []) != wanted:
            rewritten.append((old["id"], wanted))
    gone = [r["id"] for r in stored_entries if r["id"] not in kept]
    stale_members = gone + [eid for eid, _ in rewritten]
    if stale_members:
        db.session.execute(delete(mt).where(mt.c.entry_id.in_(stale_members)))
    if gone:
        db.session.execute(delete(et).where(et.c.id.in_(gone)))
    _update_many(et, ("event_code", "team", "is_lineup", "position"), changed)
    if added:
        result = db.session.execute(insert(et).returning(et.c.id, sort_by_parameter_order=True),
                                    [{"delegation_id": did, **row} for row, _ in added])
        rewritten += [(eid, wanted) for (eid,), (_, wanted) in zip(result, added)]
    member_rows = [{"entry_id": eid, "person_id": pid, "board": board, "reserve": reserve, "position": pos}
                   for eid, wanted in rewritten for pid, board, reserve, pos in wanted]
    if member_rows:
        db.session.execute(insert(mt), member_rows)
    return ([{"id": row["position"], **row} for row, _ in new_entries],
            {row["position"]: [{"person_id": pid, "board": board, "reserve": reserve} for pid, board, reserve, _ in wanted]
             for row, wanted in new_entries})


def _numbered(items: Iterable, key) -> Iterable[tuple[tuple, Any]]:
    """(key, nth occurrence of that key) for each item: a stable identity for repeats."""
    seen: dict[tuple, int] = {}
    for item in items:
        k = key(item)
        n = seen.get(k, 0)
        seen[k] = n + 1
        yield (*k, n), item


def _update_many(table, fields: Iterable[str], rows: list[dict]) -> None:
    if rows:
        stmt = (update(table).where(table.c.id == bindparam("_id"))
                .values({f: bindparam(f) for f in fields}))
        db.session.execute(stmt, rows)


def _differs(old: Any, new: Any) -> bool:
    if isinstance(new, bool) or isinstance(old, bool):
        return (None if old is None else bool(old)) != (None if new is None else bool(new))
    if isinstance(new, list):
        return list(old or []) != new
    return old != new


def _forget_loaded_rows(delegation: Delegation) -> None:
    """The ORM objects of this delegation's rows loaded earlier in the request are stale:
    drop them so that the next access reads what was written."""
    session = db.session
    for obj in list(session.identity_map.values()):
        if isinstance(obj, EntryMember) or (isinstance(obj, CHILD_MODELS)
                                            and obj.__dict__.get("delegation_id") == delegation.id):
            session.expunge(obj)
    session.expire(delegation, ["people", "declarations", "entries", "officials", "staff", "companions"])
