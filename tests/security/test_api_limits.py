"""The API's rate limit holds for every method (issue 38, 8): GETs, full documents and PUTs
from one address count against RATE_LIMIT_API together, and each answer says how many
are left."""
from __future__ import annotations

import re

from builders import csrf_token

from security.attack import login


def _token(app, username):
    client = login(app, username)
    with app.app_context():
        page = client.get("/account/tokens").get_data(as_text=True)
        csrf = csrf_token(page)
        made = client.post("/account/tokens", data={"csrf_token": csrf, "name": "系统", "scope": "write",
                                                    "days": "30"}).get_data(as_text=True)
    return re.search(r'<code id="new-token">([^<]+)</code>', made).group(1)


def _call(app, method, url, token, **kw):
    with app.app_context():
        return app.test_client().open(url, method=method, headers={"Authorization": f"Bearer {token}",
                                                                   **kw.pop("headers", {})}, **kw)


def test_every_method_counts_against_one_limit(app, world, production_limits):
    app.config["RATE_LIMIT_API"] = "10 per minute"
    d = world["a"]
    token = _token(app, "leader_a")
    first = _call(app, "GET", "/api/v1/games", token)
    assert first.status_code == 200 and first.headers["X-RateLimit-Limit"] == "10"
    assert first.headers["X-RateLimit-Remaining"] == "9"
    answers = [_call(app, "GET", f"/api/v1/delegations/{d.id}/document", token).status_code for _ in range(5)]
    answers += [_call(app, "PUT", f"/api/v1/delegations/{d.id}/document", token, json={},
                      headers={"If-Match": '"0"'}).status_code for _ in range(6)]
    assert 429 not in answers[:9] and answers[9:] == [429, 429], answers
    limited = _call(app, "GET", "/api/v1/games", token)
    assert limited.status_code == 429 and "Retry-After" in limited.headers
