"""Saving writes what changed (issue 12, item 4): a save stores exactly the document, keeps
the rows it did not touch (same ids), and issues a number of statements that does not grow
with the delegation."""
from __future__ import annotations

import copy
import datetime as dt
import random
import sys
from pathlib import Path

import pytest
from sqlalchemy import event, select

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
UTC = dt.UTC
AT = dt.datetime(2009, 8, 1, tzinfo=UTC)


def _save(d, document):
    from portal.audit.services import Actor
    from portal.workflow.services import save
    out = save(d, document, Actor("t"), AT)
    assert out.ok, out.violations
    return out.delegation


@pytest.fixture
def stored(db):
    from benchmarks.national import delegation_document
    from portal.games.services import find_games
    from portal.workflow.services import new_delegation

    made = []

    def make(unit, n):
        # Each delegation its own identity numbers (by its index): none shares one with another.
        made.append(unit)
        document = delegation_document(unit, 2 + len(made), n)
        d = _save(new_delegation(find_games("nmsg-2009"), unit), document)
        db.session.commit()
        return d, document
    return make


def _count_statements(db, fn):
    seen = []

    def tick(_conn, _cursor, statement, *_a):
        seen.append(statement.split()[0].upper())
    event.listen(db.engine, "before_cursor_execute", tick)
    try:
        fn()
    finally:
        event.remove(db.engine, "before_cursor_execute", tick)
    return seen


def _normalised(document: dict) -> dict:
    out = copy.deepcopy(document)
    for p in out["people"]:
        for key in ("id_type", "id_number", "club", "university", "fide_rating", "registration"):
            p.setdefault(key, None)
        p["documents"] = sorted(p.get("documents") or [])
    return out


def test_changing_one_person_keeps_every_other_row_and_statements_do_not_grow(db, stored):
    from portal.delegations.models import EntryMember, Person
    from portal.delegations.services import export_document
    counts = {}
    for unit, n in (("beijing", 30), ("tianjin", 600)):
        d, document = stored(unit, n)
        ids_before = dict(db.session.execute(select(Person.ref, Person.id).where(Person.delegation_id == d.id)).all())
        members_before = db.session.scalar(select(EntryMember.id).order_by(EntryMember.id.desc()).limit(1))
        changed = export_document(d)
        changed["people"][5]["club"] = "杭州棋院"
        writes = _count_statements(db, lambda d=d, changed=changed: _save(d, changed))
        db.session.commit()
        counts[n] = writes
        ids_after = dict(db.session.execute(select(Person.ref, Person.id).where(Person.delegation_id == d.id)).all())
        assert ids_after == ids_before
        assert db.session.scalar(select(EntryMember.id).order_by(EntryMember.id.desc()).limit(1)) == members_before
        assert export_document(d)["people"][5]["club"] == "杭州棋院"
        assert [w for w in writes if w in ("INSERT", "UPDATE", "DELETE")].count("UPDATE") <= 3, writes
    assert len(counts[30]) == len(counts[600]), (counts[30], counts[600])


def test_any_edit_stores_exactly_the_document(db, stored):
    """Random edits of every kind (people added, removed, changed, moved; entries and
    line-ups rewritten; roles reshuffled): what is stored is what was sent."""
    from portal.delegations.edit import delete_person, set_individual, set_roles, set_team
    from portal.delegations.services import export_document
    d, _document = stored("shanghai", 80)
    rng = random.Random(7)
    for round_ in range(12):
        doc = export_document(d)
        refs = [p["ref"] for p in doc["people"]]
        action = round_ % 6
        if action == 0:
            doc = delete_person(doc, rng.choice(refs))
        elif action == 1:
            doc["people"].insert(rng.randrange(len(doc["people"])), {
                "ref": f"n{round_}", "name": f"新人{round_}", "gender": "M", "birth_date": "1990-05-05",
                "documents": ["insurance_proof"]})
        elif action == 2:
            p = rng.choice(doc["people"])
            p["name"], p["documents"] = p["name"] + "乙", ["health_certificate", "insurance_proof"]
        elif action == 3:
            entries = [e for e in doc["entries"] if e.get("people")]
            e = rng.choice(entries)
            doc = set_individual(doc, e["event"], list(reversed(e["people"])))
        elif action == 4:
            teams = [e for e in doc["entries"] if e.get("lineup")]
            e = rng.choice(teams)
            lineup = list(reversed(e["lineup"]))
            for board, slot in enumerate(lineup, 1):
                slot["board"] = board
            doc = set_team(doc, e["event"], e.get("team") or "A", lineup)
        else:
            doc = set_roles(doc, list(reversed(doc["officials"])), doc["staff"][1:], doc["companions"])
        _save(d, doc)
        db.session.commit()
        assert _normalised(export_document(d)) == _normalised(doc), f"round {round_}"
