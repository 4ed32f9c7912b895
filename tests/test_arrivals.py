"""Self-registration answered on arrival (issue 27, 6): the place or the wait list is given
by the request, in order of arrival, from an arrival ticket; the delegation and the account
are made afterwards by the worker, and the arrival page then logs the entrant in."""
import datetime as dt
import re

import pytest

from portal.rules.idnumber import make

SLUG = "shaanxi-mind-2025"
OPENS = dt.datetime(2025, 9, 1, 12, 0, tzinfo=dt.timezone(dt.timedelta(hours=8)))


def form(i, **changes):
    born = dt.date(1980 + i, 3, 1 + i)
    data = {"name": f"选手{i:02d}", "id_type": "resident_id", "gender": "M", "birth_date": born.isoformat(),
            "id_number": make("610102", born, 2 * i + 1), "event": "gomoku.OPEN", "username": f"arrival{i:02d}",
            "password": f"amber-river-{i:02d}-stone", "confirm": f"amber-river-{i:02d}-stone"}
    return {**data, **changes}


@pytest.fixture
def handed(app, no_csrf, monkeypatch):
    """Registrations at the opening; the tickets handed to the worker are collected here
    and finished by the test itself, when it chooses."""
    monkeypatch.setitem(app.config, "FIXED_NOW", OPENS)
    handed = []
    monkeypatch.setattr("portal.accounts.registration.hand_to_worker", handed.append)
    return handed


def _register(app, client, data):
    with app.app_context():
        return client.post(f"/register/{SLUG}", data=data)


def _get(app, client, url):
    with app.app_context():  # a context of its own, as each real request has
        return client.get(url)


def _ticket(db, ticket_id):
    from portal.workflow.models import ArrivalTicket
    db.session.expire_all()
    return db.session.get(ArrivalTicket, ticket_id)


def test_the_answer_comes_at_once_and_the_worker_makes_the_account(app, db, handed):
    from portal.accounts.arrivals import finish
    from portal.accounts.models import User
    from portal.accounts.services import authenticate
    from portal.delegations.models import Delegation
    from portal.workflow.models import Place
    client = app.test_client()
    r = _register(app, client, form(1))
    page = r.get_data(as_text=True)
    assert r.status_code == 200 and 'id="arrival"' in page and "您在 160 个名额之内" in page
    assert "正在为您建立账号" in page
    # Its address becomes the arrival page's (static/address.js): a reload asks for the page,
    # it does not register again; the language switch goes there too.
    assert f'<main data-page-address="/register/{SLUG}/arrival">' in page and "address.js" in page
    assert f'name="next" value="/register/{SLUG}/arrival"' in page
    [ticket_id] = handed
    ticket = _ticket(db, ticket_id)
    assert ticket.status == "pending" and ticket.answer == "submitted"
    # The password is held sealed, never in clear; nothing is made yet.
    assert "amber-river-01-stone" not in ticket.sealed_password and ticket.document["people"][0]["name"] == "选手01"
    assert db.session.query(User).filter_by(username="arrival01").count() == 0
    place = db.session.get(Place, ticket.place_id)
    assert place.status == "accepted" and place.delegation_id is None
    assert _get(app, client, f"/register/{SLUG}/arrival/state").get_json() == {"status": "pending"}
    # Another browser has no ticket: it is sent to the form, and learns nothing.
    stranger = app.test_client()
    assert _get(app, stranger, f"/register/{SLUG}/arrival").status_code == 302
    assert _get(app, stranger, f"/register/{SLUG}/arrival/state").get_json() == {"status": "none"}

    finish(ticket_id)
    ticket = _ticket(db, ticket_id)
    assert ticket.status == "done"
    assert (ticket.document, ticket.sealed_password, ticket.id_number, ticket.username) == (None, None, None, None)
    d = db.session.get(Delegation, ticket.delegation_id)
    assert d.status == "submitted" and db.session.get(Place, ticket.place_id).delegation_id == d.id
    with app.app_context():
        assert authenticate("arrival01", "amber-river-01-stone").delegation_id == d.id
    finish(ticket_id)  # delivered twice: nothing more
    assert db.session.query(Delegation).filter_by(games_id=d.games_id).count() == 1

    # The arrival page logs this browser in and goes to the delegation's page.
    r = _get(app, client, f"/register/{SLUG}/arrival")
    assert r.status_code == 302 and r.headers["Location"].endswith(f"/d/{d.id}")
    assert "报名成功" in _get(app, client, f"/d/{d.id}").get_data(as_text=True)
    assert _get(app, stranger, f"/d/{d.id}").status_code in (302, 401, 403, 404)


def test_arrival_order_holds_at_the_cap_and_a_ticket_refused_later_gives_its_place_on(app, db, handed):
    from portal.accounts.arrivals import finish_when_quiet
    from portal.accounts.models import User
    from portal.delegations.models import Delegation
    from portal.games.models import Games
    from portal.workflow.models import Place
    games = db.session.query(Games).filter_by(slug=SLUG).one()
    games.definition = {**games.definition, "capacity": 2}  # the conftest puts the fixture back
    games.loaded_at = dt.datetime.now(dt.UTC)
    db.session.commit()
    clients = [app.test_client() for _ in range(4)]
    pages = [_register(app, c, form(i)).get_data(as_text=True) for i, c in enumerate(clients)]
    assert ["名额之内" in p for p in pages] == [True, True, False, False]
    assert "候补名单第 1 位" in pages[2] and "候补名单第 2 位" in pages[3]
    # The second's username is taken before the worker comes to it (a race with another
    # way of making accounts): it is refused, and the first on the wait list moves up.
    db.session.add(User(username="arrival01", display_name="别人", role="leader"))
    db.session.commit()
    finish_when_quiet(handed[0])  # the first, then every other waiting, in order
    tickets = [_ticket(db, i) for i in handed]
    assert [t.status for t in tickets] == ["done", "refused", "done", "done"]
    assert [t.answer for t in tickets] == ["submitted", "submitted", "submitted", "waitlisted"]
    assert "用户名已被使用" in tickets[1].problems[0]["zh"] and tickets[1].document is None
    assert [db.session.get(Place, t.place_id).status for t in tickets] == ["accepted", "released", "accepted",
                                                                           "waitlisted"]
    assert [db.session.get(Delegation, t.delegation_id).status for t in tickets if t.delegation_id] == [
        "submitted", "submitted", "waitlisted"]
    refused = _get(app, clients[1], f"/register/{SLUG}/arrival").get_data(as_text=True)
    assert "报名未能完成" in refused and "用户名已被使用" in refused and "重新报名" in refused
    moved_up = _get(app, clients[2], f"/register/{SLUG}/arrival")
    assert moved_up.status_code == 302
    assert "报名成功" in _get(app, clients[2], moved_up.headers["Location"]).get_data(as_text=True)


def test_the_answer_tells_the_tickets_ahead_as_the_page_reloaded_does(app, db, handed):
    """Counted under the cap's lock with the places (no read after it): the third arrival
    has two tickets ahead of it, as its arrival page says again when reloaded."""
    clients = [app.test_client() for _ in range(3)]
    pages = [_register(app, c, form(i)).get_data(as_text=True) for i, c in enumerate(clients)]
    assert "前面还有" not in pages[0]
    assert "前面还有 1 份报名在处理" in pages[1] and "前面还有 2 份报名在处理" in pages[2]
    assert "前面还有 2 份报名在处理" in _get(app, clients[2], f"/register/{SLUG}/arrival").get_data(as_text=True)


def test_the_form_answers_a_held_number_and_a_taken_username_as_any_other(app, db, handed):
    """The form tells nobody whether an ID number is registered or a username exists
    (issue 38, 5): the twin gets a ticket like anyone, and his number is checked when his
    registration is made; a taken username is given as a free variant, told to him alone."""
    from portal.accounts.arrivals import finish
    from portal.workflow.models import ArrivalTicket
    _register(app, app.test_client(), form(1))
    twin = _register(app, app.test_client(), form(2, id_number=form(1)["id_number"], birth_date=form(1)["birth_date"]))
    page = twin.get_data(as_text=True)
    assert 'id="arrival"' in page and "已在本届比赛登记" not in page
    same_name = _register(app, app.test_client(), form(3, username="arrival01")).get_data(as_text=True)
    assert 'id="arrival"' in same_name and "您的登录用户名是 arrival01-2" in same_name
    assert [_ticket(db, i).username for i in handed] == ["arrival01", "arrival02", "arrival01-2"]
    for ticket_id in handed:
        finish(ticket_id)
    first, second, third = (_ticket(db, i) for i in handed)
    assert (first.status, second.status, third.status) == ("done", "refused", "done")
    assert "已在本届比赛登记" in second.problems[0]["zh"] and "选手01" not in str(second.problems)
    assert db.session.query(ArrivalTicket).count() == 3


def test_a_sealed_password_opens_only_with_its_key_and_purpose(app):
    from portal.sealed import seal, unseal
    with app.app_context():
        token = seal("amber-river-stone", "arrival password")
        assert unseal(token, "arrival password", ttl=60) == "amber-river-stone"
        assert unseal(token, "something else", ttl=60) is None
        assert unseal(token[:-4] + "AAAA", "arrival password", ttl=60) is None
        assert re.fullmatch(r"[A-Za-z0-9_=-]+", token) and "amber" not in token


@pytest.mark.parametrize("backend", ["thread", "rq"])
def test_a_burst_of_arrivals_queues_one_job_and_the_next_burst_its_own(app, monkeypatch, backend):
    """Queueing a job costs an answer more than anything else it does outside the lock: the
    first arrival of a burst queues the job that finishes every ticket, the others only mark
    their time (in the shared Redis with RQ). Once the job has drained, the next arrival
    queues again; a lost ticket handed over again is queued whatever the mark says."""
    from portal.accounts import arrivals
    monkeypatch.setitem(app.config, "JOBS_BACKEND", backend)
    queued = []
    monkeypatch.setattr(arrivals, "enqueue_call", lambda path, *args: queued.append(args[0]) or True)
    with app.app_context():
        arrivals._unschedule()
        for ticket_id in (101, 102, 103):
            arrivals.hand_to_worker(ticket_id)
        assert queued == [101]
        assert time_since_last_arrival(arrivals) < 5
        arrivals.finish_when_quiet(101)  # no such tickets: it drains nothing, and lifts the mark
        arrivals.hand_to_worker(104)
        arrivals.hand_to_worker(105)
        arrivals.hand_to_worker(106, again=True)
        assert queued == [101, 104, 106]
        # A queue out of reach queues nothing: the mark is lifted for the next arrival to try.
        monkeypatch.setattr(arrivals, "enqueue_call", lambda path, *args: queued.append(args[0]) and False)
        arrivals._unschedule()
        arrivals.hand_to_worker(107)
        arrivals.hand_to_worker(108)
        assert queued == [101, 104, 106, 107, 108]
        arrivals._unschedule()


def time_since_last_arrival(arrivals):
    import time
    return time.time() - arrivals._last_arrival()


def test_a_ticket_whose_job_was_lost_is_finished_by_the_sweep(app, db, handed, cli, monkeypatch):
    """The queue lost the ticket's job (Redis restarted): five minutes after the arrival,
    `flask jobs sweep` (and each worker as it starts) hands it to the worker again, which
    makes the account; before then it is left alone."""
    import time
    r = _register(app, app.test_client(), form(1))
    assert 'id="arrival"' in r.get_data(as_text=True)
    [ticket_id] = handed  # handed to nobody: the job is lost
    result = cli.invoke(args=["jobs", "sweep"])
    assert result.exit_code == 0 and "0 registrations still waiting" in result.output
    assert _ticket(db, ticket_id).status == "pending"
    monkeypatch.setitem(app.config, "FIXED_NOW", OPENS + dt.timedelta(minutes=6))
    result = cli.invoke(args=["jobs", "sweep"])
    assert result.exit_code == 0 and "1 registrations still waiting for their account handed to the worker again" \
        in result.output
    for _ in range(200):  # the worker is a thread of this process here
        if _ticket(db, ticket_id).status != "pending":
            break
        db.session.rollback()
        time.sleep(0.1)
    ticket = _ticket(db, ticket_id)
    assert ticket.status == "done" and ticket.user_id is not None and ticket.sealed_password is None


def test_someone_logged_in_who_registers_another_person_stays_himself(app, db, handed):
    """A parent logged in as his first child registers the second: once the account is
    made, his browser is still his own session, and he is told how the new one logs in."""
    from builders import account, logged_in

    from portal.accounts.arrivals import finish
    with app.app_context():
        account("parent-leader", "leader")
    client = logged_in(app, "parent-leader")
    _register(app, client, form(4))
    [ticket_id] = handed
    finish(ticket_id)
    r = _get(app, client, f"/register/{SLUG}/arrival")
    assert r.status_code == 302 and r.headers["Location"].endswith("/")
    with app.app_context():
        page = client.get("/", follow_redirects=True).get_data(as_text=True)
    assert "请退出当前账号，用报名时设置的用户名和密码登录" in page
    # Still the parent: the new delegation is not his to open (the entrant's account is).
    assert _get(app, client, f"/d/{_ticket(db, ticket_id).delegation_id}").status_code in (302, 403, 404)
    assert "请退出当前账号" not in _get(app, client, "/").get_data(as_text=True)  # said once


def _set_capacity(db, capacity):
    from portal.games.models import Games
    games = db.session.query(Games).filter_by(slug=SLUG).one()
    games.definition = {**games.definition, "capacity": capacity}  # the conftest puts the fixture back
    games.loaded_at = dt.datetime.now(dt.UTC)
    db.session.commit()
    return games.id


def _arrive_at_once(app, forms, threads):
    """Each form posted by its own browser, `threads` at once (fewer than the connection
    pool holds); the pages in the forms' order."""
    import threading
    from concurrent.futures import ThreadPoolExecutor
    start = threading.Barrier(threads)

    def post(i):
        client = app.test_client()
        if i < threads:
            start.wait()
        return _register(app, client, forms[i]).get_data(as_text=True)

    with ThreadPoolExecutor(max_workers=threads) as pool:
        return list(pool.map(post, range(len(forms))))


def _burst(i):
    born = dt.date(1980 + i, 1 + i % 12, 1 + i % 28)
    return form(i % 20, name=f"选手{i:02d}", username=f"burst{i:02d}", birth_date=born.isoformat(),
                id_number=make("610102", born, 2 * i + 1))


def test_arrivals_at_once_are_placed_in_order_of_arrival_to_the_letter_of_the_cap(app, db, handed):
    """36 at once for 20 places, ten browsers at a time: in the order they took the cap's
    lock, exactly 20 are in and 16 on the wait list at positions 1 to 16; each page says
    its own answer, and each arrival is in the audit with it."""
    from portal.audit.models import AuditLog
    from portal.workflow.models import ArrivalTicket, Place
    games_id = _set_capacity(db, 20)
    pages = _arrive_at_once(app, [_burst(i) for i in range(36)], threads=10)
    assert not [p[:300] for p in pages if 'id="arrival"' not in p]
    db.session.rollback()  # a read begun before the arrivals sees none of them
    tickets = db.session.query(ArrivalTicket).filter_by(games_id=games_id).order_by(ArrivalTicket.id).all()
    assert len(tickets) == 36 and {t.status for t in tickets} == {"pending"}
    places = {p.id: p for p in db.session.query(Place).filter_by(games_id=games_id)}
    in_order = [places[t.place_id] for t in tickets]
    assert [p.seq for p in in_order] == sorted(p.seq for p in in_order) and len({p.seq for p in in_order}) == 36
    assert [p.status for p in in_order] == ["accepted"] * 20 + ["waitlisted"] * 16
    assert [t.answer for t in tickets] == ["submitted"] * 20 + ["waitlisted"] * 16
    assert [t.position for t in tickets] == [None] * 20 + list(range(1, 17))
    for t in tickets:
        page = pages[int(t.username[-2:])]
        assert (f"候补名单第 {t.position} 位" in page) if t.position else ("名额之内" in page)
    arrived = db.session.query(AuditLog).filter_by(action="registration.arrive").all()
    assert sorted((a.object_key, a.actor, a.after["position"]) for a in arrived) == sorted(
        (str(t.id), t.display_name, t.position) for t in tickets)


def test_under_the_caps_lock_an_arrival_waits_for_three_round_trips_on_postgresql(app, db, handed):
    """The rush queues behind the cap's lock, and on a busy machine each round trip made
    while holding it waits for a core twice: on PostgreSQL the lock, one statement (the
    count, the place, the ticket and its audit record) and the commit; the audit record
    says the same as the service's own."""
    import sqlalchemy as sa

    from portal.audit.models import AuditLog
    from portal.extensions import db as portal_db
    from portal.workflow.models import ArrivalTicket
    if db.engine.dialect.name != "postgresql":
        pytest.skip("SQLite's lock is its BEGIN IMMEDIATE, held by one process at a time")
    seen = []

    def statement(conn, cursor, sql, *args):
        seen.append(sql)

    def commit(conn):
        seen.append("COMMIT")

    with app.app_context():
        sa.event.listen(portal_db.engine, "before_cursor_execute", statement)
        sa.event.listen(portal_db.engine, "commit", commit)
        try:
            page = _register(app, app.test_client(), form(4)).get_data(as_text=True)
        finally:
            sa.event.remove(portal_db.engine, "before_cursor_execute", statement)
            sa.event.remove(portal_db.engine, "commit", commit)
    assert 'id="arrival"' in page and "您在 160 个名额之内" in page
    locked = next(i for i, sql in enumerate(seen) if "FOR NO KEY UPDATE" in sql)
    held = seen[locked:seen.index("COMMIT", locked) + 1]
    assert len(held) == 3, held
    [ticket_id] = handed
    ticket = _ticket(db, ticket_id)
    arrived = db.session.query(AuditLog).filter_by(action="registration.arrive", object_key=str(ticket_id)).one()
    assert (arrived.actor, arrived.after, arrived.object_type) == ("选手04", {"answer": "submitted", "position": None},
                                                                  "arrival_ticket")
    assert arrived.at == ticket.created_at and isinstance(ticket, ArrivalTicket) and ticket.place_id is not None
