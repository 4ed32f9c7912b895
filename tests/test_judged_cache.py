"""The remembered judgement of a stored delegation (portal/delegations/judged.py) is always
the judgement: after every kind of change it depends on (the delegation's own rows written
by a save or by the ORM, another delegation's identity numbers, a deadline passing, a
sanction, the reader's role), it equals judge() run afresh."""
import datetime as dt

import pytest
from builders import doc, individual, person

CHINA = dt.timezone(dt.timedelta(hours=8))
MAY = dt.datetime(2019, 5, 20, tzinfo=CHINA)


def fresh(d, at, reveal=False):
    from portal.delegations.services import export_document, judge
    from portal.rules import parse_document
    from portal.rules.violations import dedupe
    parsed, problems = parse_document(export_document(d))
    return dedupe(problems + judge(d.games, parsed, at, exclude_delegation_id=d.id, reveal=reveal))


ANOTHER_WORKER = {"on": False}  # each answer asked of a worker that never computed it


def remembered(d, at, reveal=False):
    from portal.delegations import judged
    from portal.extensions import db
    db.session.refresh(d)
    if ANOTHER_WORKER["on"]:  # what this process remembers is not there: only what Redis shares
        judged._documents.clear()
        judged._judgements.clear()
    return judged.stored_violations(d, judged.stored_document(d), at, reveal)


def codes(violations):
    return sorted(v.code for v in violations)


def summarised(d, at):
    """The stored summary (delegations/summary.py), asked twice: the second from the table."""
    from portal.delegations.summary import summaries
    from portal.extensions import db
    first, second = summaries(d.games, [d], at)[d.id], summaries(d.games, [d], at)[d.id]
    db.session.commit()  # the page's reading transaction ends with it
    assert first == second
    return first


def agree(d, at, reveal=False):
    """Asked twice (the second answer from memory), the remembered judgement is the fresh one;
    and the stored summary has the organisers' figures of it, rule by rule."""
    first, second = remembered(d, at, reveal), remembered(d, at, reveal)
    expected = fresh(d, at, reveal)
    assert first == second == expected
    organisers = fresh(d, at, reveal=True)
    by_rule = {}
    for v in organisers:
        by_rule.setdefault(v.code, [0, 0])[0 if v.is_error else 1] += 1
    summary = summarised(d, at)
    assert summary.by_rule == by_rule
    assert (summary.errors, summary.warnings) == (sum(v.is_error for v in organisers), sum(not v.is_error for v in organisers))
    return codes(expected)


@pytest.fixture(params=["this worker", "another worker"])
def worker(request, app, monkeypatch):
    """"another worker": the judgement and the document come from the one shared through
    Redis (delegations/shared.py) by whichever process computed them."""
    if request.param == "another worker":
        monkeypatch.setitem(app.config, "JOBS_BACKEND", "rq")
        monkeypatch.setitem(ANOTHER_WORKER, "on", True)
    return request.param


def test_the_remembered_judgement_follows_every_change_it_depends_on(app, db, worker):
    from portal.audit.services import Actor
    from portal.delegations.judged import stored_document
    from portal.delegations.models import Person
    from portal.games.services import find_games
    from portal.workflow.models import Sanction
    from portal.workflow.services import new_delegation, save
    games = find_games("nmsg-2019")
    hunan = save(new_delegation(games, "hunan"),
                 doc("nmsg-2019", unit="hunan", people=[person("p1", year=2019, unit="hunan")],
                     entries=[individual("chess.MI", "p1")]), Actor("t"), MAY).delegation
    assert agree(hunan, MAY) == []

    # Its own save: a person with no entry and an impossible birth date.
    bad = person("p2", year=2019, unit="hunan", born="1990-01-01")
    bad["id_number"] = "110101199001011234"
    rev = hunan.content_rev
    save(hunan, doc("nmsg-2019", unit="hunan", people=[person("p1", year=2019, unit="hunan"), bad],
                    entries=[individual("chess.MI", "p1")]), Actor("t"), MAY)
    db.session.refresh(hunan)
    assert hunan.content_rev > rev
    own = agree(hunan, MAY)
    assert own

    # Another delegation of the Games takes p1's identity number.
    p1_number = stored_document(hunan)["people"][0]["id_number"]
    twin = person("q1", year=2019, unit="hubei")
    twin["id_number"] = p1_number
    save(new_delegation(games, "hubei"), doc("nmsg-2019", unit="hubei", people=[twin],
                                             entries=[individual("chess.MI", "q1")]), Actor("t"), MAY)
    with_twin = agree(hunan, MAY)
    assert "DUPLICATE_PERSON" in with_twin and "DUPLICATE_PERSON" not in own
    assert agree(hunan, MAY, reveal=True) == with_twin  # the organisers' wording, same codes

    # A change through the ORM, not through a save: p2 is removed by hand.
    rev = hunan.content_rev
    db.session.delete(db.session.scalar(db.select(Person).where(Person.delegation_id == hunan.id,
                                                                Person.ref == "p2")))
    db.session.commit()
    db.session.refresh(hunan)
    assert hunan.content_rev > rev
    agree(hunan, MAY)

    # A sanction on the unit's event.
    db.session.add(Sanction(series=games.series, edition=games.edition, unit_code="hunan", event_code="chess.MI",
                            source_games=games.slug, lifted=False))
    db.session.commit()
    assert "SANCTIONED" in agree(hunan, MAY)

    # The declaration deadline passes (1 June 2019) with an event entered but not declared.
    save(hunan, doc("nmsg-2019", unit="hunan", people=[person("p1", year=2019, unit="hunan")],
                    entries=[individual("chess.MI", "p1")], declarations=[]), Actor("t"), MAY)
    before, after = agree(hunan, MAY), agree(hunan, dt.datetime(2019, 6, 2, tzinfo=CHINA))
    assert "EVENT_NOT_DECLARED" in after and "EVENT_NOT_DECLARED" not in before


def test_every_write_raises_the_content_revision(app, db):
    from portal.audit.services import Actor
    from portal.delegations.models import Entry, EntryMember, Person
    from portal.games.services import find_games
    from portal.workflow.services import new_delegation, save
    d = save(new_delegation(find_games("nmsg-2019"), "hunan"),
             doc("nmsg-2019", unit="hunan", people=[person("p1", year=2019, unit="hunan"),
                                                     person("p2", year=2019, unit="hunan")],
                 entries=[individual("chess.MI", "p1")]), Actor("t"), MAY).delegation

    def raised(change) -> bool:
        db.session.refresh(d)
        before = d.content_rev
        change()
        db.session.commit()
        db.session.refresh(d)
        return d.content_rev > before

    p1 = db.session.scalar(db.select(Person).where(Person.delegation_id == d.id, Person.ref == "p1"))
    member = db.session.scalar(db.select(EntryMember).join(Entry).where(Entry.delegation_id == d.id))
    assert raised(lambda: setattr(p1, "documents", ["id_copy"]))          # a check-in document
    assert raised(lambda: setattr(p1, "id_number", "330102********1234"))  # retention masking
    assert raised(lambda: setattr(d, "status", "submitted"))
    assert raised(lambda: setattr(member, "board", 2))
    assert raised(lambda: d.entries.append(Entry(event_code="chess.WI", team=None, is_lineup=False, position=9)))
    assert not raised(lambda: None)

    # storage.py writes with Core statements; the loaded Delegation reads the new number at once.
    from portal.delegations.storage import store_document
    from portal.rules import parse_document
    parsed, _problems = parse_document(doc("nmsg-2019", unit="hunan", people=[person("p1", year=2019, unit="hunan")],
                                           entries=[individual("chess.MI", "p1")]))
    before = d.content_rev
    store_document(d, parsed)
    assert d.content_rev > before
    db.session.rollback()


def test_a_save_elsewhere_that_touches_no_identity_number_leaves_the_judgement_remembered(app, db, monkeypatch):
    """Issue 27 (1): on deadline night every other delegation saves; a delegation's
    judgement stays remembered unless an identity number changed somewhere (then it is
    judged again, and sees the twin)."""
    from portal.audit.services import Actor
    from portal.delegations import judged
    from portal.delegations.judged import stored_document
    from portal.games.services import find_games
    from portal.workflow.services import new_delegation, save
    games = find_games("nmsg-2019")
    hunan = save(new_delegation(games, "hunan"), doc("nmsg-2019", unit="hunan", people=[person("p1", year=2019, unit="hunan")],
                                                     entries=[individual("chess.MI", "p1")]), Actor("t"), MAY).delegation
    hubei_doc = doc("nmsg-2019", unit="hubei", people=[person("q1", year=2019, unit="hubei")],
                    entries=[individual("chess.MI", "q1")])
    hubei = save(new_delegation(games, "hubei"), hubei_doc, Actor("t"), MAY).delegation
    calls = []
    real = judged.check_delegation
    monkeypatch.setattr(judged, "check_delegation", lambda *a, **k: calls.append(1) or real(*a, **k))
    # Judged by the save itself, and remembered from it: the next page judges nothing.
    assert agree(hunan, MAY) == [] and len(calls) == 0

    # Hubei renames its player: no identity number moves, Hunan's judgement is remembered.
    renamed = person("q1", year=2019, unit="hubei", name="改名")
    renamed["id_number"] = hubei_doc["people"][0]["id_number"]
    save(hubei, doc("nmsg-2019", unit="hubei", people=[renamed], entries=[individual("chess.MI", "q1")]), Actor("t"), MAY)
    before = len(calls)
    remembered(hunan, MAY)
    assert len(calls) == before

    # Hubei now takes Hunan's player's number: Hunan is judged again and sees the twin.
    twin = person("q1", year=2019, unit="hubei", name="改名")
    twin["id_number"] = stored_document(hunan)["people"][0]["id_number"]
    save(hubei, doc("nmsg-2019", unit="hubei", people=[twin], entries=[individual("chess.MI", "q1")]), Actor("t"), MAY)
    assert "DUPLICATE_PERSON" in agree(hunan, MAY, reveal=True)


def test_what_is_shared_between_workers_is_sealed_and_only_once_committed(app, db, monkeypatch):
    """Redis holds a delegation's document sealed (no identity number readable there); what
    a write transaction computed is shared only once it commits: rolled back, its revision
    number will come again with other contents."""
    from portal.audit.services import Actor
    from portal.db_tx import write_transaction
    from portal.delegations import judged, shared
    from portal.games.services import find_games
    from portal.jobs.services import redis_client
    from portal.workflow.services import new_delegation, save
    monkeypatch.setitem(app.config, "JOBS_BACKEND", "rq")
    games = find_games("nmsg-2019")
    hunan = save(new_delegation(games, "hunan"),
                 doc("nmsg-2019", unit="hunan", people=[person("p1", year=2019, unit="hunan")],
                     entries=[individual("chess.MI", "p1")]), Actor("t"), MAY).delegation
    _key, shared_key = judged._document_keys(hunan)
    sealed = redis_client().get(shared._name("document", shared_key))
    number = judged.stored_document(hunan)["people"][0]["id_number"]
    assert sealed and number.encode() not in sealed and b"hunan" not in sealed
    judged._documents.clear()
    monkeypatch.setattr(judged, "export_document", lambda d: pytest.fail("read again, not shared"))
    assert judged.stored_document(hunan)["people"][0]["id_number"] == number
    judgement = judged.stored_violations(hunan, judged.stored_document(hunan), MAY, False)
    judged._judgements.clear()
    monkeypatch.setattr(judged, "check_delegation", lambda *a, **k: pytest.fail("judged again, not shared"))
    assert judged.stored_violations(hunan, judged.stored_document(hunan), MAY, False) == judgement

    class Undone(Exception):
        pass
    with pytest.raises(Undone), write_transaction():
        d = db.session.get(type(hunan), hunan.id)
        d.content_rev += 1
        judged.remember_document(d, {"people": []})
        _key, undone = judged._document_keys(d)
        raise Undone
    assert redis_client().get(shared._name("document", undone)) is None
    assert all(k[2] != undone[3] for k in judged._documents) and not db.session.info.get(judged.PENDING)


def test_with_redis_out_of_reach_the_judgement_is_computed_and_the_page_does_not_wait(app, db, monkeypatch):
    """Redis answering nothing (a partition): the first call gives up after a quarter of a
    second, and the process then does without it for a while, computing as it always could."""
    import time

    from portal.audit.services import Actor
    from portal.delegations import judged, shared
    from portal.games.services import find_games
    from portal.workflow.services import new_delegation, save
    monkeypatch.setattr(shared, "_unreachable_until", [0.0])
    monkeypatch.setitem(app.config, "JOBS_BACKEND", "rq")
    monkeypatch.setenv("REDIS_URL", "redis://10.255.255.1:6379/0")  # a black hole: nothing answers
    games = find_games("nmsg-2019")
    started = time.monotonic()
    hunan = save(new_delegation(games, "hunan"),
                 doc("nmsg-2019", unit="hunan", people=[person("p1", year=2019, unit="hunan")],
                     entries=[individual("chess.MI", "p1")]), Actor("t"), MAY).delegation
    judged._documents.clear()
    judged._judgements.clear()
    assert remembered(hunan, MAY) == fresh(hunan, MAY)
    assert shared._unreachable_until[0] > time.monotonic()  # it does without Redis for a while
    assert time.monotonic() - started < 1.0  # one wait of a quarter of a second, not one per call


def test_one_delegations_shared_numbers_are_the_whole_games_answer_for_it(app, db):
    """Issue 41 (5): asked for one delegation, shared_numbers reads only the other holders
    of its numbers, and says what the whole Games' answer says of it: each number it
    shares and with whom, a withdrawn holder not counted."""
    from portal.audit.services import Actor
    from portal.delegations.judged import shared_numbers
    from portal.delegations.models import DelegationStatus
    from portal.games.services import find_games
    from portal.workflow.services import new_delegation, save
    games = find_games("nmsg-2019")
    a_people = [person("p1", year=2019, unit="hunan"), person("p2", "F", "1996-06-06", year=2019, unit="hunan")]
    hunan = save(new_delegation(games, "hunan"), doc("nmsg-2019", unit="hunan", people=a_people), Actor("t"), MAY).delegation
    twin = dict(person("q1", year=2019, unit="hubei"), id_number=a_people[0]["id_number"])
    hubei = save(new_delegation(games, "hubei"), doc("nmsg-2019", unit="hubei", people=[twin]), Actor("t"), MAY).delegation
    gone = dict(person("r1", year=2019, unit="hebei"), id_number=a_people[1]["id_number"])
    hebei = save(new_delegation(games, "hebei"), doc("nmsg-2019", unit="hebei", people=[gone]), Actor("t"), MAY).delegation
    alone = save(new_delegation(games, "henan"), doc("nmsg-2019", unit="henan", people=[person("s1", year=2019, unit="henan")]),
                 Actor("t"), MAY).delegation
    hebei.status = DelegationStatus.WITHDRAWN
    db.session.commit()
    whole = shared_numbers(games.id)
    assert whole[hunan.id] == {(a_people[0]["id_number"], hubei.id)}  # not the withdrawn Hebei's
    assert whole[hubei.id] == {(a_people[0]["id_number"], hunan.id)}
    for d in (hunan, hubei, hebei, alone):
        assert shared_numbers(games.id, d.id) == ({d.id: whole[d.id]} if d.id in whole else {})
    assert hebei.id in whole and alone.id not in whole  # a withdrawn delegation still sees whom it shares with


def test_what_a_judgement_reads_from_outside_in_two_statements_is_what_each_read_gives(app, db):
    """Issue 41 (1): the unit, its sanctions, the numbers held elsewhere, the register's
    revision and the universities' fingerprint, read together for the judgement's key
    (judged.outside_facts), are what unit_info, sanctions_for, shared_numbers, the
    register and universities_map give one by one: for a unit with a sanction and a
    shared number, for one with neither, and for a person entering alone."""
    import sqlalchemy as sa

    from portal.audit.services import Actor
    from portal.delegations.judged import outside_facts, shared_numbers
    from portal.delegations.services import sanctions_for
    from portal.games.models import University
    from portal.games.services import find_games, unit_info, universities_map, universities_version
    from portal.register.career import revision
    from portal.register.services import bump_revision
    from portal.workflow.models import Sanction
    from portal.workflow.services import new_delegation, save
    games = find_games("nmsg-2019")
    p1 = person("p1", year=2019, unit="hunan")
    hunan = save(new_delegation(games, "hunan"), doc("nmsg-2019", unit="hunan", people=[p1]), Actor("t"), MAY).delegation
    twin = dict(person("q1", year=2019, unit="hubei"), id_number=p1["id_number"])
    hubei = save(new_delegation(games, "hubei"), doc("nmsg-2019", unit="hubei", people=[twin]), Actor("t"), MAY).delegation
    alone = save(new_delegation(games, None), doc("nmsg-2019", unit=None, people=[person("s1", year=2019, unit=None)]),
                 Actor("t"), MAY).delegation
    db.session.add(Sanction(series=games.series, edition=games.edition, unit_code="hunan", event_code="chess.MI",
                            source_games="nmsg-2019", reason="未到"))
    db.session.add(Sanction(series=games.series, edition=games.edition, unit_code="hunan", event_code="go.MI",
                            source_games="elsewhere-2018", reason="未到", lifted=False))
    bump_revision()
    db.session.commit()
    count, top = db.session.execute(sa.select(sa.func.count(), sa.func.max(University.code))).one()
    for d in (hunan, hubei, alone):
        facts = outside_facts(games, d.unit_code, d.id)
        assert facts.unit == (unit_info(d.unit_code) if d.unit_code else None)
        assert facts.sanctioned == sanctions_for(games, d.unit_code) == (
            {"chess.MI": games.name_zh, "go.MI": "elsewhere-2018"} if d is hunan else {})
        assert facts.shares == shared_numbers(games.id, d.id).get(d.id, frozenset())
        assert facts.register == revision() > 0
        assert facts.universities == (count, top)
        universities_map(fingerprint=facts.universities)
        assert universities_version()[0] == (count, top)
    assert outside_facts(games, "hunan", hunan.id).sanctioned == {"chess.MI": games.name_zh, "go.MI": "elsewhere-2018"}
    assert outside_facts(games, "hunan", hunan.id).shares == {(p1["id_number"], hubei.id)}


def test_a_save_under_the_lock_raises_the_revision_in_its_own_update_and_every_process_reads_that_number(app, db):
    """Under the row's lock no other writer comes between: the revision is raised from the
    number read, in the UPDATE the save makes anyway (no statement of its own, and the new
    number known without reading it back), and raised again by each write, as before."""
    import sqlalchemy as sa
    from sqlalchemy.orm import Session

    from portal.audit.services import Actor
    from portal.db_tx import lock_row, write_transaction
    from portal.delegations.models import Delegation
    from portal.delegations.storage import store_document
    from portal.games.services import find_games
    from portal.rules import parse_document
    from portal.workflow.services import new_delegation, save
    d = save(new_delegation(find_games("nmsg-2019"), "hunan"),
             doc("nmsg-2019", unit="hunan", people=[person("p1", year=2019, unit="hunan")],
                 entries=[individual("chess.MI", "p1")]), Actor("t"), MAY).delegation
    db.session.commit()
    delegation_id, rev, numbers = d.id, d.content_rev, d.numbers_rev

    def committed() -> tuple[int, int]:
        with Session(db.engine) as other:  # another process
            return other.execute(sa.select(Delegation.content_rev, Delegation.numbers_rev)
                                 .where(Delegation.id == delegation_id)).one()

    renamed = person("p1", year=2019, unit="hunan", name="改了名")
    new_number = person("p2", year=2019, unit="hunan")
    parsed, _problems = parse_document(doc("nmsg-2019", unit="hunan", people=[renamed, new_number],
                                           entries=[individual("chess.MI", "p1")]))
    sent = []

    def listener(conn, cursor, statement, *args):
        sent.append(statement)

    with write_transaction(keep_loaded=True):
        locked = lock_row(Delegation, delegation_id)
        sa.event.listen(db.engine, "before_cursor_execute", listener)
        try:
            store_document(locked, parsed)  # Core statements, a new identity number among them
            locked.version += 1
            db.session.flush()
            in_memory = (locked.content_rev, locked.numbers_rev)
        finally:
            sa.event.remove(db.engine, "before_cursor_execute", listener)
    assert in_memory[0] > rev and in_memory[1] > numbers
    assert committed() == in_memory
    updates = [s for s in sent if s.lstrip().upper().startswith("UPDATE DELEGATION")]
    assert len(updates) == 1, updates  # the revisions ride on the save's own UPDATE
    assert not [s for s in sent if "content_rev" in s and s.lstrip().upper().startswith("SELECT")], sent

    # Without the lock, the increment stays SQL (two writers never end on the same number).
    db.session.expire_all()
    plain = db.session.get(Delegation, delegation_id)
    before = plain.content_rev
    store_document(plain, parsed)
    db.session.commit()
    assert committed()[0] == before + 1
