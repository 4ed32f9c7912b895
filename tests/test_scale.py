"""Size is a non-event (issue 12): every page issues the same number of SQL statements for
a delegation of 30 people and one of 1,000, and no leader page ships a list per row of
every person. Timings live in benchmarks/national_games.py; here: counts and sizes."""
from __future__ import annotations

import datetime as dt
import sys
from pathlib import Path

import pytest
from builders import account, logged_in
from sqlalchemy import event

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
UTC = dt.UTC
PASSWORD = "scale-test-passphrase-1"
LEADER_PAGES = ["", "/declarations", "/people", "/people?q=王&sort=name", "/entries", "/roles", "/substitutions",
                "/statement", "/rooms", "/people/p1", "/upload", "/document.json", "/entry-form.xlsx"]


@pytest.fixture
def two_sizes(app, db):
    from benchmarks.national import delegation_document
    from portal.audit.services import Actor
    from portal.games.services import find_games
    from portal.workflow.services import new_delegation, save
    out = {}
    for i, (unit, n) in enumerate((("beijing", 30), ("tianjin", 1000))):
        document = delegation_document(unit, i, n)
        d = save(new_delegation(find_games("nmsg-2009"), unit), document, Actor("t"),
                 dt.datetime(2009, 8, 1, tzinfo=UTC)).delegation
        db.session.commit()
        account(f"scale-{unit}", "leader", delegation=d, password=PASSWORD, name=unit)
        out[n] = d.id
    account("scale-org", "organiser", password=PASSWORD, name="org")
    account("scale-acc", "accountant", password=PASSWORD, name="acc")
    return out


def _measure(app, username, urls):
    from portal.extensions import db
    from portal.register.career import forget
    count = {"n": 0}

    def tick(*_a, **_k):
        count["n"] += 1
    client = logged_in(app, username, PASSWORD)
    out = {}
    with app.app_context():
        engine = db.engine
    event.listen(engine, "before_cursor_execute", tick)
    try:
        for url in urls:
            count["n"] = 0
            forget()  # each page as a process's first: what it read of the register for another is not counted out
            with app.app_context():
                r = client.get(url)
            assert r.status_code == 200, url
            out[url] = (count["n"], len(r.get_data()))
    finally:
        event.remove(engine, "before_cursor_execute", tick)
    return out


def test_leader_pages_issue_the_same_statements_at_30_and_1000_people(app, two_sizes, monkeypatch):
    monkeypatch.setitem(app.config, "FIXED_NOW", dt.datetime(2009, 8, 20, tzinfo=UTC))
    small = _measure(app, "scale-beijing", [f"/d/{two_sizes[30]}{p}" for p in LEADER_PAGES])
    big = _measure(app, "scale-tianjin", [f"/d/{two_sizes[1000]}{p}" for p in LEADER_PAGES])
    for page, (s, b) in zip(LEADER_PAGES, zip(small.values(), big.values())):
        assert s[0] == b[0], f"{page or '/'}: {s[0]} statements at 30 people, {b[0]} at 1000"
    for page in ("/entries", "/roles", "/people"):
        size = big[f"/d/{two_sizes[1000]}{page}"][1]
        assert size < 300_000, f"{page} is {size} bytes at 1000 people"


def test_organiser_and_accountant_pages_do_not_grow_with_the_delegation(app, two_sizes):
    big = two_sizes[1000]
    pages = ["/org/", "/org/games/nmsg-2009", "/org/queue", f"/org/d/{big}", "/org/audit"]
    counts = _measure(app, "scale-org", pages)
    small_review = _measure(app, "scale-org", [f"/org/d/{two_sizes[30]}"])[f"/org/d/{two_sizes[30]}"][0]
    assert counts[f"/org/d/{big}"][0] == small_review
    assert all(n < 40 for n, _size in counts.values()), counts
    money = _measure(app, "scale-acc", ["/money/?games=nmsg-2009", "/money/rooms?games=nmsg-2009"])
    assert all(n < 40 for n, _size in money.values()), money


def test_whole_games_pages_and_the_programme_book_do_not_grow_with_the_delegations(app, db):
    """Cards, the check-in desk and the programme book read each kind of row once for the
    whole Games, not once per delegation."""
    from benchmarks.national import delegation_document
    from portal.audit.services import Actor
    from portal.games.services import find_games
    from portal.results.programme import book
    from portal.workflow import services as svc
    games = find_games("nmsg-2009")
    account("venue-org", "organiser", password=PASSWORD, name="org")

    def add(units):
        for unit, index in units:
            d = svc.import_document(games, delegation_document(unit, index, 8), dt.datetime(2009, 8, 1, tzinfo=UTC),
                                    Actor("t")).delegation
            assert svc.approve(d, Actor("t"), dt.datetime(2009, 8, 2, tzinfo=UTC)).ok
        db.session.commit()

    pages = ["/org/games/nmsg-2009/cards", "/org/games/nmsg-2009/checkin", "/org/games/nmsg-2009/meeting",
             "/org/games/nmsg-2009"]

    def book_statements():
        count = {"n": 0}

        def tick(*_a, **_k):
            count["n"] += 1
        event.listen(db.engine, "before_cursor_execute", tick)
        try:
            book(games)
        finally:
            event.remove(db.engine, "before_cursor_execute", tick)
        return count["n"]

    add([("beijing", 1), ("tianjin", 2)])
    few, few_book = _measure(app, "venue-org", pages), book_statements()
    add([("hebei", 3), ("shanxi", 4), ("neimenggu", 5)])
    many, many_book = _measure(app, "venue-org", pages), book_statements()
    for page in pages:
        assert few[page][0] == many[page][0], f"{page}: {few[page][0]} statements at 2 delegations, {many[page][0]} at 5"
    assert few_book == many_book


def test_money_pages_do_not_grow_with_the_delegations_where_fees_make_entries_valid(app, db):
    """youth-gomoku-2015 counts an entry only once its fee arrived: whether each one did is
    read for all delegations at once."""
    import random

    from portal.audit.services import Actor
    from portal.demo_season import _document
    from portal.games.services import find_games
    from portal.workflow import services as svc
    games = find_games("youth-gomoku-2015")
    account("yg-acc", "accountant", password=PASSWORD, name="acc")
    account("yg-org", "organiser", password=PASSWORD, name="org")
    rng = random.Random(7)

    def add(names, start):
        for i, name in enumerate(names):
            out = svc.import_document(games, _document(rng, name, start + i, 6),
                                      dt.datetime(2015, 7, 2, tzinfo=UTC), Actor("t"))
            assert out.ok, out.violations
        db.session.commit()

    pages = ["/money/?games=youth-gomoku-2015", "/money/lines?games=youth-gomoku-2015"]
    add(["甲棋院", "乙棋院"], 0)
    _measure(app, "yg-acc", pages)  # the first look gives each delegation its payment reference
    few = _measure(app, "yg-acc", pages) | _measure(app, "yg-org", ["/org/games/youth-gomoku-2015"])
    add(["丙棋院", "丁棋院", "戊棋院"], 2)
    _measure(app, "yg-acc", pages)
    many = _measure(app, "yg-acc", pages) | _measure(app, "yg-org", ["/org/games/youth-gomoku-2015"])
    for page in few:
        assert few[page][0] == many[page][0], f"{page}: {few[page][0]} statements at 2 delegations, {many[page][0]} at 5"
