"""A save that changes only people's fields (the deadline night's usual save) writes their
rows and reads none of the delegation's (storage.store_people_changes); what it stores is
what any save stores: the document read back, a new card serial where the card's holder
changed, the numbers' revision where a number did (the suite's CHECK_STORED_DOCUMENT
compares every save's document with the rows read back)."""
import datetime as dt

import sqlalchemy as sa
from builders import doc, individual, person, stored

CHINA = dt.timezone(dt.timedelta(hours=8))
MAY = dt.datetime(2019, 5, 20, tzinfo=CHINA)


def people_and_serials(d):
    from portal.delegations.models import Person
    from portal.extensions import db
    return {p.ref: (p.name, p.id_number, p.card_serial)
            for p in db.session.scalars(sa.select(Person).where(Person.delegation_id == d.id))}


def saved(d, change, statements=None, key=None):
    """The stored document with `change` applied, saved through the workspace's path (`key`:
    the part a form changed; None: the whole document, as an upload saves)."""
    from portal.audit.services import Actor
    from portal.delegations.saving import save_change
    from portal.extensions import db

    def seen(conn, cursor, statement, *args):
        statements.append(" ".join(statement.split()))
    if statements is not None:
        sa.event.listen(db.engine, "before_cursor_execute", seen)
    try:
        out = save_change(d, change, key, None, Actor("t"), MAY)
    finally:
        if statements is not None:
            sa.event.remove(db.engine, "before_cursor_execute", seen)
    assert out.ok, out.message or [v.code for v in out.violations]
    db.session.refresh(d)
    return out


def with_person(ref, **fields):
    def change(document):
        for p in document["people"]:
            if p["ref"] == ref:
                p.update(fields)
        return document
    return change


def delegation(app):
    people = [person("p1", year=2019, unit="hunan"), person("p2", "F", year=2019, unit="hunan"),
              person("p3", year=2019, unit="hunan", id_number=None, id_type=None)]
    return stored("nmsg-2019", doc("nmsg-2019", unit="hunan", people=people,
                                   entries=[individual("chess.MI", "p1")]), MAY)


def test_a_changed_name_writes_one_row_and_reads_none_of_the_delegation(app, db, monkeypatch):
    from portal.delegations.judged import stored_document
    from portal.delegations.services import export_document
    d = delegation(app)
    before, numbers_rev = people_and_serials(d), d.numbers_rev
    stored_document(d)  # remembered, as the form's page left it
    monkeypatch.setitem(app.config, "CHECK_STORED_DOCUMENT", False)  # the suite's read-back, not the save's
    statements = []
    saved(d, with_person("p2", name="李四"), statements, key=("person", "p2"))
    after = people_and_serials(d)
    assert after["p2"][0] == "李四" and after["p2"][2] == before["p2"][2]  # her card stays valid
    assert {r: v for r, v in after.items() if r != "p2"} == {r: v for r, v in before.items() if r != "p2"}
    assert d.numbers_rev == numbers_rev
    # The delegation's own rows (other delegations' holders of its numbers are the judgement's).
    read = [s for s in statements if s.startswith("SELECT") and ("person.ref" in s or any(
        f"FROM {t} " in s + " " for t in ("entry", "entry_member", "official", "staff_member", "companion", "declaration")))]
    assert read == [], "\n".join(s[:120] for s in statements)
    assert [s for s in statements if s.startswith("UPDATE person")] != []
    assert export_document(d)["people"][1]["name"] == "李四"


def test_a_changed_number_or_a_numberless_name_issues_a_new_card_and_the_numbers_change(app, db):
    d = delegation(app)
    before, numbers_rev = people_and_serials(d), d.numbers_rev
    new_number = person("x", year=2019, unit="hunan", born="1996-06-06")["id_number"]
    saved(d, with_person("p1", id_number=new_number))
    after = people_and_serials(d)
    assert after["p1"][1] == new_number and after["p1"][2] != before["p1"][2]
    assert d.numbers_rev > numbers_rev
    saved(d, with_person("p3", name="无证件者"))
    again = people_and_serials(d)
    assert again["p3"][0] == "无证件者" and again["p3"][2] != after["p3"][2]
    assert again["p2"] == before["p2"]


def test_a_save_that_adds_a_person_or_an_entry_writes_them_as_before(app, db):
    from portal.delegations.services import export_document
    d = delegation(app)
    serials = people_and_serials(d)

    def add(document):
        document["people"].append(person("p4", "F", year=2019, unit="hunan"))
        document["entries"].append({"event": "chess.WI", "people": ["p2"]})
        return document
    saved(d, add)
    document = export_document(d)
    assert [p["ref"] for p in document["people"]] == ["p1", "p2", "p3", "p4"]
    assert {"event": "chess.WI", "people": ["p2"]} in document["entries"]
    assert {r: v for r, v in people_and_serials(d).items() if r != "p4"} == serials
