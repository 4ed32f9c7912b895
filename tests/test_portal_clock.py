"""Every timestamp a person reads comes from the portal's clock (issue 39, 7): in the demo,
standing in August 2019, an extension request and its answer, a fee charge, a queued
message, a job and an audit line are all of 2019, not of the machine's year. Security
windows (throttles, token expiry) keep the machine's time."""
from __future__ import annotations

import datetime as dt

from builders import account, doc

CHINA = dt.timezone(dt.timedelta(hours=8))
DEMO = dt.datetime(2019, 9, 5, 10, 0, tzinfo=CHINA)


def test_the_demo_clock_writes_every_timestamp(app, db, monkeypatch):
    from portal.audit.services import Actor
    from portal.games.services import find_games
    from portal.jobs.models import Job
    from portal.money.models import LedgerEntry
    from portal.notify.models import OutboxMessage
    from portal.workflow.models import ExtensionRequest
    from portal.workflow.services import new_delegation, request_extension, save
    monkeypatch.delitem(app.config, "FIXED_NOW", raising=False)
    monkeypatch.setitem(app.config, "CLOCK_START", DEMO)  # as PORTAL_CLOCK sets it: a running clock
    with app.app_context():
        games = find_games("nmsg-2019")
        d = save(new_delegation(games, "hainan"), doc("nmsg-2019", unit="hainan", declarations=[]),
                 Actor("t"), dt.datetime(2019, 5, 1, tzinfo=CHINA)).delegation
        user = account("clock-leader", "leader", delegation=d)
        assert request_extension(d, "names", "名单盖章延误", Actor("海南领队")).ok
        db.session.add(Job(kind="games_workbook", params={}, user_id=user.id, title="t"))
        db.session.commit()
        req = db.session.query(ExtensionRequest).filter_by(delegation_id=d.id).one()
        stamps = {"extension request": req.requested_at, "job": db.session.query(Job).one().created_at,
                  "account": user.created_at}
        stamps |= {f"message {m.kind}": m.created_at for m in db.session.query(OutboxMessage)}
        stamps |= {f"ledger {e.kind}": e.created_at for e in db.session.query(LedgerEntry)}
        wrong = {what: at for what, at in stamps.items() if at.astimezone(CHINA).year != 2019}
        assert wrong == {}
        # the machine's time where a window must not move with the demo
        from portal.accounts.api_tokens import create_token
        from portal.api.models import ApiToken
        made = create_token(user, "系统", "read", 30, Actor("t"))
        token = db.session.get(ApiToken, made.details["id"])
        assert token.expires_at.astimezone(dt.UTC) > dt.datetime.now(dt.UTC)
