"""A unit that let a stage close is not stuck (issue 25, 3): the dashboard says the stage has
closed and offers to ask the organisers for more time; they see the request in their queue
and answer it, by an extension or a refusal with its reason."""
from __future__ import annotations

import datetime as dt

from builders import account, csrf_token, doc, logged_in

CHINA = dt.timezone(dt.timedelta(hours=8))


def test_a_leader_asks_for_time_and_the_organisers_answer(app, db, monkeypatch):
    from portal.audit.services import Actor
    from portal.games.services import find_games
    from portal.workflow.models import ExtensionRequest
    from portal.workflow.services import new_delegation, save
    games = find_games("nmsg-2019")
    d = save(new_delegation(games, "hainan"), doc("nmsg-2019", unit="hainan", declarations=[]),
             Actor("t"), dt.datetime(2019, 5, 1, tzinfo=CHINA)).delegation
    account("late-leader", "leader", delegation=d, name="海南领队")
    account("ext-org", "organiser", name="组委会")
    db.session.commit()
    monkeypatch.setitem(app.config, "FIXED_NOW", dt.datetime(2019, 9, 5, 2, 0, tzinfo=dt.UTC))
    leader = logged_in(app, "late-leader", "password-123")
    with app.app_context():
        page = leader.get(f"/d/{d.id}").get_data(as_text=True)
        assert "向组委会申请延期" in page
        r = leader.post(f"/d/{d.id}/extension-request", data={"csrf_token": csrf_token(page), "reason": "名单盖章延误"})
        assert r.status_code == 302
        page = leader.get(f"/d/{d.id}").get_data(as_text=True)
    assert "等待答复" in page and "ask-for-time" not in page
    organiser = logged_in(app, "ext-org", "password-123")
    with app.app_context():
        queue = organiser.get("/org/queue").get_data(as_text=True)
    assert "名单盖章延误" in queue and "申请延长" in queue
    db.session.rollback()
    req = db.session.query(ExtensionRequest).filter_by(delegation_id=d.id).one()
    with app.app_context():
        r = organiser.post(f"/org/extension-requests/{req.id}/decline",
                           data={"csrf_token": csrf_token(queue), "reason": "名单已交付印刷"})
        assert r.status_code == 302
        page = leader.get(f"/d/{d.id}").get_data(as_text=True)
    assert "组委会未同意延期：名单已交付印刷" in page and "向组委会申请延期" in page  # may ask again
