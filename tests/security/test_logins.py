"""Logins (issue 8, 2): throttling, lockout, password policy, invitation links, redirects."""
from __future__ import annotations

import base64
import os
import zlib

from security.attack import PASSWORD, get, login, post


def _try(app, client, username, password):
    return post(app, client, "/login", data={"username": username, "password": password})


def test_an_account_locks_after_five_wrong_passwords_and_says_so(app, world, no_csrf):
    client = app.test_client()
    for _ in range(5):
        r = _try(app, client, "leader_a", "wrong-password-x")
        assert r.status_code == 200
    page = _try(app, client, "leader_a", PASSWORD).get_data(as_text=True)  # even the right one
    assert "暂时锁定" in page and "联系组委会解锁" in page
    # the organisers see it, and unlock
    organiser = login(app, "organiser")
    accounts = get(app, organiser, "/org/accounts").get_data(as_text=True)
    assert "已锁定至" in accounts
    from portal.extensions import db
    r = post(app, organiser, f"/org/accounts/{world['users']['leader_a'].id}/unlock")
    assert r.status_code == 302 and "/org/accounts" in r.headers["Location"], r.headers.get("Location")
    assert _try(app, app.test_client(), "leader_a", PASSWORD).status_code == 302
    from sqlalchemy import select

    from portal.audit.models import AuditLog
    db.session.rollback()  # a fresh snapshot: the requests committed in their own sessions
    actions = set(db.session.scalars(select(AuditLog.action)))
    assert {"account.locked", "account.unlock"} <= actions, actions


def test_login_is_limited_per_account_and_address_with_a_higher_ceiling_per_address(app, world, no_csrf,
                                                                                    production_limits):
    """Issue 25, 7: ten logins a minute per address stopped a leaders' meeting behind one
    hotel address. One name tried from one address is held up after ten; many leaders
    behind one address are not, until the address's own ceiling; the 429 page says when."""
    client = app.test_client()
    codes = [_try(app, client, "leader_a", "wrong-password-x").status_code for _ in range(12)]
    assert codes[:10] == [200] * 10 and codes[10:] == [429, 429]
    refused = _try(app, client, "leader_a", "wrong-password-x")
    page = refused.get_data(as_text=True)
    assert "秒后再试" in page and "per 1 minute" not in page
    assert 1 <= int(refused.headers["Retry-After"]) <= 60  # what the page says, for a browser or a script
    # A form's answer carries none of the limiter's headers (each cost it a Redis read); the API's do.
    assert not any(name.startswith("X-RateLimit") for name, _value in refused.headers)
    hotel = [_try(app, client, f"leader{i}", "wrong-password-x").status_code for i in range(40)]
    assert set(hotel) == {200}  # forty leaders behind one address
    more = [_try(app, client, f"late{i}", "wrong-password-x").status_code for i in range(25)]
    assert more[-1] == 429  # the address's ceiling (60 a minute)
    other = app.test_client()
    with app.app_context():
        r = other.post("/login", data={"username": "leader_a", "password": PASSWORD},
                       environ_base={"REMOTE_ADDR": "10.9.8.7"})
    assert r.status_code == 302  # another address is not held up


def test_the_api_and_registration_are_rate_limited(app, world, no_csrf, production_limits):
    client = app.test_client()
    codes = [post(app, client, "/api/v1/check", json={}).status_code for _ in range(61)]
    assert codes[-1] == 429 and set(codes[:60]) == {400}
    r = post(app, client, "/api/v1/check", json={})
    assert r.is_json and r.get_json()["violations"][0]["code"] == "SCHEMA_INVALID"
    codes = [post(app, client, "/register/shaanxi-mind-2025", data={}).status_code for _ in range(6)]
    assert codes[-1] == 429


def test_limits_use_redis_when_redis_url_is_set(app):
    from portal.extensions import limiter
    url = os.environ.get("REDIS_URL")
    assert app.config["RATELIMIT_STORAGE_URI"] == (url or "memory://")
    if url:
        assert "redis" in type(limiter.storage).__name__.lower()
        assert limiter.storage.check()


def test_password_policy(app, world, no_csrf):
    from portal.accounts.passwords import password_problem
    assert password_problem("short-1") is not None                      # under 10
    assert password_problem("1234567890") is not None                   # digits only
    assert password_problem("password123") is not None                  # on the common list
    assert password_problem("qwertyuiop") is not None
    assert password_problem("leader_a-2026!", username="leader_a") is not None
    assert password_problem("浙江省代表团2019年", names=("浙江省",)) is not None
    assert password_problem("correct horse battery") is None
    client = login(app, "leader_a")
    r = post(app, client, "/password", data={"current": PASSWORD, "password": "zhejiang-2019",
                                             "confirm": "zhejiang-2019"})
    assert "密码不能包含用户名或单位名称" in r.get_data(as_text=True)


def _cookie_payload(client) -> str:
    cookie = client.get_cookie("session")
    if cookie is None:
        return ""
    value = cookie.value
    compressed = value.startswith(".")
    body = value.lstrip(".").split(".")[0]
    raw = base64.urlsafe_b64decode(body + "=" * (-len(body) % 4))
    return (zlib.decompress(raw) if compressed else raw).decode("utf-8", "replace")


def test_invitation_links_are_shown_once_and_never_put_in_the_cookie(app, world, no_csrf):
    organiser = login(app, "organiser")
    r = post(app, organiser, f"/org/accounts/{world['users']['leader_b'].id}/invite")
    page = r.get_data(as_text=True)
    assert r.status_code == 200 and "/invite/" in page
    token = page.split("/invite/")[1].split("<")[0].split('"')[0]
    assert token and token not in _cookie_payload(organiser) and "/invite/" not in _cookie_payload(organiser)
    assert "/invite/" not in get(app, organiser, "/org/accounts").get_data(as_text=True)


def test_the_language_switch_and_login_redirect_only_within_the_site(app, no_csrf):
    client = app.test_client()
    for target in ("/\t/evil.example", "/\n/x", "//evil.example", "https://evil.example/", "/\\evil.example",
                   "javascript:alert(1)", "/%0d%0aSet-Cookie:x=1"):
        r = post(app, client, "/lang", data={"lang": "en", "next": target})
        assert r.status_code == 302, target
        location = r.headers["Location"]
        assert location.startswith("/") and not location.startswith("//") and "evil" not in location, (target, location)
        assert "\n" not in location and "\t" not in location
    r = post(app, client, "/lang", data={"lang": "zh", "next": "/d/1?x=1"})
    assert r.headers["Location"] == "/d/1?x=1"
