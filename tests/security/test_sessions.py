"""Sessions that can be revoked (issue 8, 2): logout, a password change and a disabled
account end every session at once; idle and absolute timeouts; secure cookies behind HTTPS."""
from __future__ import annotations

import time

from security.attack import PASSWORD, get, login, post


def _alive(app, client, url) -> bool:
    r = get(app, client, url)
    return r.status_code == 200


def test_logout_ends_every_session_of_the_account(app, world, no_csrf):
    url = f"/d/{world['a'].id}"
    laptop, phone = login(app, "leader_a"), login(app, "leader_a")
    assert _alive(app, laptop, url) and _alive(app, phone, url)
    post(app, laptop, "/logout")
    assert not _alive(app, phone, url) and not _alive(app, laptop, url)


def test_a_password_change_ends_the_other_sessions_and_keeps_this_one(app, world, no_csrf):
    url = f"/d/{world['a'].id}"
    laptop, stolen = login(app, "leader_a"), login(app, "leader_a")
    r = post(app, laptop, "/password", data={"current": PASSWORD, "password": "a-new-passphrase-77",
                                             "confirm": "a-new-passphrase-77"})
    assert r.status_code == 302
    assert _alive(app, laptop, url) and not _alive(app, stolen, url)


def test_disabling_an_account_ends_its_sessions(app, world, no_csrf):
    url = f"/d/{world['a'].id}"
    leader = login(app, "leader_a")
    organiser = login(app, "organiser")
    post(app, organiser, f"/org/accounts/{world['users']['leader_a'].id}/disable")
    assert not _alive(app, leader, url)
    r = post(app, app.test_client(), "/login", data={"username": "leader_a", "password": PASSWORD})
    assert r.status_code == 200  # refused
    assert "已停用" in get(app, organiser, "/org/accounts").get_data(as_text=True)


def test_idle_and_absolute_timeouts(app, world):
    url = f"/d/{world['a'].id}"
    client = login(app, "leader_a")
    with client.session_transaction() as s:
        s["seen_at"] = time.time() - app.config["SESSION_IDLE_MINUTES"] * 60 - 5
    assert not _alive(app, client, url)
    r = get(app, client, "/login")
    assert "登录已超时" in r.get_data(as_text=True)

    client = login(app, "leader_a")
    with client.session_transaction() as s:
        s["auth_at"] = time.time() - app.config["SESSION_ABSOLUTE_HOURS"] * 3600 - 5
    assert not _alive(app, client, url)


def test_https_turns_on_secure_cookies_and_hsts(tmp_path, monkeypatch):
    from portal import create_app
    monkeypatch.setenv("DATABASE_URL", f"sqlite:///{tmp_path / 'h.db'}")
    app = create_app({"TESTING": True, "PREFERRED_URL_SCHEME": "https", "SECRET_KEY": "x"})
    assert app.config["SESSION_COOKIE_SECURE"] is True
    with app.test_client().get("/static/app.css", base_url="https://localhost") as r:
        assert "max-age" in r.headers["Strict-Transport-Security"]
    plain = create_app({"TESTING": True, "SECRET_KEY": "x"})
    assert not plain.config.get("SESSION_COOKIE_SECURE")
    with plain.test_client().get("/static/app.css") as r:
        assert "Strict-Transport-Security" not in r.headers
