"""No identity oracle (issue 8, 1): nobody learns from a duplicate ID number who holds it,
unless he is an organiser."""
from __future__ import annotations

import datetime as dt

from builders import doc, individual, person

from portal.rules.idnumber import make
from security.attack import get, login, post


def _probe(world):
    """Leader A's document re-using B's person's ID number."""
    spy = person("p9", year=2019, name="探子")
    spy["id_number"] = world["b_ids"][0]
    spy["birth_date"] = world["b_people"][0]["birth_date"]
    return doc("nmsg-2019", people=[spy], entries=[individual("chess.MI", "p9")])


def _leaks(text: str) -> list[str]:
    return [w for w in ("秘密选手", "江苏", "jiangsu", "Jiangsu") if w in text]


def test_the_anonymous_api_judges_the_document_alone(app, world):
    client = app.test_client()
    for _ in range(3):
        r = post(app, client, "/api/v1/check?at=2019-08-01T00:00:00%2B08:00", json=_probe(world))
        assert r.status_code == 200
        body = r.get_data(as_text=True)
        assert _leaks(body) == [] and "DUPLICATE_PERSON" not in body


def test_the_api_never_compares_a_leaders_document_with_other_delegations(app, world):
    """Issue 19, 1: the API judges a document that is not saved; an answer about other
    delegations there would be an oracle, one guess per person of the document."""
    client = login(app, "leader_a")
    r = post(app, client, "/api/v1/check?at=2019-08-01T00:00:00%2B08:00", json=_probe(world))
    body = r.get_json()
    assert r.status_code == 200 and not [v for v in body["violations"] if v["code"] == "DUPLICATE_PERSON"]
    assert _leaks(r.get_data(as_text=True)) == []


def test_the_workspace_does_not_name_the_other_delegation(app, world, no_csrf, monkeypatch):
    from portal.extensions import db
    d = world["a"]
    client = login(app, "leader_a")
    monkeypatch.setitem(app.config, "FIXED_NOW", dt.datetime(2019, 5, 20, tzinfo=dt.UTC))
    try:
        r = post(app, client, f"/d/{d.id}/people/new", data={
            "version": d.version, "name": "探子", "id_type": "resident_id", "id_number": world["b_ids"][0],
            "gender": "M", "birth_date": world["b_people"][0]["birth_date"]}, follow_redirects=True)
        page = r.get_data(as_text=True)
        assert "已在本届比赛登记" in page and _leaks(page) == []
        assert _leaks(get(app, client, f"/d/{d.id}").get_data(as_text=True)) == []
        organiser = login(app, "organiser")
        assert "江苏" in get(app, organiser, f"/d/{d.id}").get_data(as_text=True)
    finally:
        db.session.rollback()


def _register(app, client, **changes):
    event = "gomoku.OPEN"
    data = {"name": "探子", "id_type": "resident_id", "id_number": make("610102", dt.date(2012, 5, 5), 7), "gender": "M",
            "birth_date": "2012-05-05", "event": event, "username": "spy-user", "password": "x7-long-passphrase",
            "confirm": "x7-long-passphrase", **changes}
    r = post(app, client, "/register/shaanxi-mind-2025", data=data)
    assert r.status_code == 200
    return r.get_data(as_text=True)


def test_the_public_registration_form_is_no_oracle(app, db, no_csrf, monkeypatch):
    """shaanxi-mind-2025 takes individuals: an entrant registered; a stranger tries his ID
    number, and the usernames of the committee (issue 38, 5). The form answers each the same
    as a fresh one; the number is checked when the registration is made, and the answer
    then names nobody."""
    from builders import account
    from sqlalchemy import select

    from portal.accounts.arrivals import finish
    from portal.audit.services import Actor
    from portal.games.services import find_games
    from portal.workflow.models import ArrivalTicket
    from portal.workflow.services import import_document
    monkeypatch.setattr("portal.accounts.registration.hand_to_worker", lambda _ticket_id: None)
    games = find_games("shaanxi-mind-2025")
    at = dt.datetime(2025, 9, 1, tzinfo=dt.timezone(dt.timedelta(hours=8)))
    holder = person("p1", born="2012-04-04", name="秘密选手", unit=None, area="610102")
    out = import_document(games, doc("shaanxi-mind-2025", unit=None, people=[holder],
                                     entries=[individual("gomoku.OPEN", "p1")]), at, Actor("t"))
    assert out.status in ("submitted", "waitlisted"), out
    account("zuweihui", "organiser", games=["shaanxi-mind-2025"])
    monkeypatch.setitem(app.config, "FIXED_NOW", at)

    fresh = _register(app, app.test_client(), username="fresh-user", id_number=make("610102", dt.date(2012, 6, 6), 9),
                      birth_date="2012-06-06")
    held = _register(app, app.test_client(), username="other-user", id_number=holder["id_number"], birth_date="2012-04-04")
    assert "已在本届比赛登记" not in held and "秘密选手" not in held
    assert 'id="arrival"' in fresh and 'id="arrival"' in held
    for name in ("admin", "zuweihui"):
        page = _register(app, app.test_client(), username=name, id_number=make("610102", dt.date(2012, 7, 7), 11),
                         birth_date="2012-07-07")
        assert "该用户名已被使用" not in page and 'id="arrival"' in page
    # After: the held number's ticket is refused when it is made, naming nobody.
    tickets = db.session.scalars(select(ArrivalTicket).order_by(ArrivalTicket.id)).all()
    ids = [t.id for t in tickets]
    for ticket_id in ids:
        finish(ticket_id)
    db.session.expire_all()
    refused = db.session.get(ArrivalTicket, ids[1])
    assert refused.status == "refused" and "已在本届比赛登记" in refused.problems[0]["zh"]
    assert _leaks(str(refused.problems)) == []
    assert db.session.get(ArrivalTicket, ids[0]).status == "done"
