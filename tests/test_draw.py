"""The draw is reproducible from its seed and fair in shape (issue 11, item 3)."""
from collections import Counter

from builders import account, logged_in

from portal.rules.draw import draw_numbers


def test_the_same_seed_draws_the_same_numbers_whatever_the_order():
    people = [f"p{i}" for i in range(40)]
    a = draw_numbers(people, "3f9c2a")
    b = draw_numbers(list(reversed(people)), "3f9c2a")
    assert a == b
    assert sorted(n for n, _ in a) == list(range(1, 41)) and sorted(k for _, k in a) == sorted(people)
    assert draw_numbers(people, "another") != a


def test_every_entrant_is_as_likely_to_draw_number_one():
    firsts = Counter(draw_numbers(["a", "b", "c", "d"], str(seed))[0][1] for seed in range(4000))
    assert all(850 < n < 1150 for n in firsts.values()), firsts


def test_the_draw_page_draws_records_the_seed_and_a_redraw_needs_a_reason(app, db, monkeypatch):
    import datetime as dt
    import sys
    from pathlib import Path

    from sqlalchemy import select

    from portal.audit.models import AuditLog
    from portal.audit.services import Actor
    from portal.games.services import find_games
    from portal.results.draws import current_draw, entrants
    from portal.workflow.services import import_document
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
    from benchmarks.national import delegation_document
    games = find_games("nmsg-2009")
    from portal.workflow.services import approve
    for i, unit in enumerate(("zhejiang", "jiangsu")):
        out = import_document(games, delegation_document(unit, i + 20, 40),
                              dt.datetime(2009, 8, 1, tzinfo=dt.UTC), Actor("t"))
        assert out.ok and approve(out.delegation, Actor("组委会"), dt.datetime(2009, 8, 2, tzinfo=dt.UTC)).ok
    db.session.commit()
    event = next(code for code in ("chess.MIR", "go.MI", "xiangqi.MI", "gomoku.MI") if entrants(games, code))
    account("draw-org", "organiser", name="组委会")
    client = app.test_client()
    monkeypatch.setitem(app.config, "WTF_CSRF_ENABLED", False)
    logged_in(app, "draw-org", client=client)
    with app.app_context():
        unconfirmed = client.post("/org/games/nmsg-2009/draw", data={"event": event})
        assert unconfirmed.status_code == 422 and "确认" in unconfirmed.get_data(as_text=True)
        assert client.post("/org/games/nmsg-2009/draw", data={"event": event, "confirmed": "yes"}).status_code == 302
    db.session.rollback()
    first = current_draw(games, event)
    assert [n for n, *_ in first.numbers] == list(range(1, len(entrants(games, event)) + 1))
    assert [k for _n, k in draw_numbers([str(p) for p, *_ in entrants(games, event)], first.seed)] == \
        [str(pid) for _n, pid, *_ in first.numbers]  # reproducible from the recorded seed
    with app.app_context():
        r = client.post("/org/games/nmsg-2009/draw", data={"event": event, "confirmed": "yes"})
    assert r.status_code == 422 and "理由" in r.get_data(as_text=True)
    with app.app_context():
        assert client.post("/org/games/nmsg-2009/draw", data={"event": event, "reason": "报名更正",
                                                             "confirmed": "yes"}).status_code == 302
        csv_text = client.get(f"/org/games/nmsg-2009/draw/{event}.csv").get_data().decode("utf-8-sig")
    db.session.rollback()
    assert current_draw(games, event).id != first.id and csv_text.startswith("序号")
    actions = db.session.scalars(select(AuditLog.action).where(AuditLog.action.like("draw.%"))).all()
    assert sorted(actions) == ["draw.make", "draw.redraw"]
