"""Attacks on the portal, as a stranger, a leader of another unit, an accountant would try
them. Two units' delegations at nmsg-2019 with known people, and one account per role."""
from __future__ import annotations

import datetime as dt

import pytest
from builders import account, doc, individual, person

from security.attack import PASSWORD

CHINA = dt.timezone(dt.timedelta(hours=8))

PRODUCTION_LIMITS = {"RATE_LIMIT_LOGIN": "10 per minute;60 per hour", "RATE_LIMIT_LOGIN_ADDRESS": "60 per minute;600 per hour",
                     "RATE_LIMIT_FORMS": "10 per minute;60 per hour",
                     "RATE_LIMIT_REGISTER": "5 per minute;30 per hour", "RATE_LIMIT_API": "60 per minute;1000 per hour"}


@pytest.fixture
def world(app, db):
    from portal.audit.services import Actor
    from portal.games.services import find_games
    from portal.workflow.services import new_delegation, save
    games = find_games("nmsg-2019")
    when = dt.datetime(2019, 5, 1, tzinfo=CHINA)
    a_people = [person("p1", year=2019, name="甲方选手一", club="=HYPERLINK(\"http://evil.example\",\"点我\")"),
                person("p2", "F", "1997-02-02", year=2019, name="+甲方选手二")]
    b_people = [person("p1", year=2019, unit="jiangsu", name="秘密选手", area="320102")]
    da = save(new_delegation(games, "zhejiang"), doc("nmsg-2019", people=a_people,
              entries=[individual("chess.MI", "p1"), individual("chess.WI", "p2")]), Actor("t"), when).delegation
    dbb = save(new_delegation(games, "jiangsu"), doc("nmsg-2019", unit="jiangsu", people=b_people,
               entries=[individual("chess.MI", "p1")]), Actor("t"), when).delegation
    users = {}
    for name, role, d in (("leader_a", "leader", da), ("leader_b", "leader", dbb), ("organiser", "organiser", None),
                          ("accountant", "accountant", None)):
        users[name] = account(name, role, delegation=d, password=PASSWORD)
    return {"a": da, "b": dbb, "users": users, "a_ids": [p["id_number"] for p in a_people],
            "b_ids": [p["id_number"] for p in b_people], "a_people": a_people, "b_people": b_people}


@pytest.fixture
def no_csrf(app):
    app.config["WTF_CSRF_ENABLED"] = False
    yield
    app.config["WTF_CSRF_ENABLED"] = True


@pytest.fixture
def production_limits(app):
    """The production rate limits, on a fresh counter (Redis where REDIS_URL is set)."""
    from portal.extensions import limiter
    saved = {k: app.config[k] for k in PRODUCTION_LIMITS}
    app.config.update(PRODUCTION_LIMITS)
    limiter.reset()
    yield limiter
    app.config.update(saved)
    limiter.reset()
