"""The second factor cannot be skipped (issue 38, 3), API tokens end with what made them
trustworthy (issue 42, 2), and a registration's session cookie opens the account once
(issue 38, 6)."""
from __future__ import annotations

import datetime as dt
import re
import threading

import pyotp
import pytest

from security.attack import PASSWORD, get


@pytest.fixture
def two_factor_on(app, monkeypatch):
    monkeypatch.setitem(app.config, "STAFF_TWO_FACTOR", True)
    monkeypatch.setitem(app.config, "WTF_CSRF_ENABLED", False)


def _post(app, client, url, **data):
    with app.app_context():
        return client.post(url, data=data)


def _enrol(app, client):
    with app.app_context():
        page = client.get("/login/enrol").get_data(as_text=True)
    secret = re.search(r'<code class="mono">([A-Z2-7 ]+)</code>', page).group(1).replace(" ", "")
    r = _post(app, client, "/login/enrol", code=pyotp.TOTP(secret).now())
    assert r.status_code == 200 and "恢复码" in r.get_data(as_text=True)
    return secret


def _token(app, client, name="结果系统"):
    r = _post(app, client, "/account/tokens", name=name, scope="read", days="30")
    found = re.search(r'<code id="new-token">([^<]+)</code>', r.get_data(as_text=True))
    return r.status_code, (found.group(1) if found else None)


def _api(app, token):
    with app.app_context():
        return app.test_client().get("/api/v1/games", headers={"Authorization": f"Bearer {token}"}).status_code


def test_an_accepted_staff_invitation_enrols_before_any_staff_page(app, db, two_factor_on):
    from portal.accounts.services import create_staff
    from portal.audit.services import Actor
    from portal.games.services import find_games
    _user, token = create_staff("new-org", "新组委", "organiser", [find_games("nmsg-2019")], Actor("t"))
    client = app.test_client()
    r = _post(app, client, f"/invite/{token}", password=PASSWORD, confirm=PASSWORD)
    assert r.status_code == 302 and "/login/enrol" in r.headers["Location"]
    # No staff page, and no token, before the authenticator is enrolled.
    assert get(app, client, "/org/").status_code == 302
    assert get(app, client, "/org/games/nmsg-2019/webhooks").status_code == 302
    status, made = _token(app, client)
    assert made is None and status in (302, 401, 403)
    _enrol(app, client)
    assert get(app, client, "/org/").status_code == 200
    status, made = _token(app, client)
    assert status == 200 and made and _api(app, made) == 200


def test_a_staff_session_that_never_passed_the_second_step_is_no_session(app, world, monkeypatch):
    """A session opened with the password alone (before two steps were required) ends
    once they are, and its API token never works."""
    from security.attack import login
    monkeypatch.setitem(app.config, "WTF_CSRF_ENABLED", False)
    client = login(app, "organiser")
    status, token = _token(app, client)
    assert status == 200 and _api(app, token) == 200
    monkeypatch.setitem(app.config, "STAFF_TWO_FACTOR", True)
    assert get(app, client, "/org/").status_code == 302
    status, made = _token(app, client)
    assert made is None


def test_tokens_made_before_enrolment_end_at_enrolment(app, world, monkeypatch):
    from security.attack import login
    monkeypatch.setitem(app.config, "WTF_CSRF_ENABLED", False)
    _status, before = _token(app, login(app, "accountant"))
    assert _api(app, before) == 200
    monkeypatch.setitem(app.config, "STAFF_TWO_FACTOR", True)
    client = app.test_client()
    _post(app, client, "/login", username="accountant", password=PASSWORD)
    _enrol(app, client)
    assert _api(app, before) == 401
    page = get(app, client, "/account/tokens").get_data(as_text=True)
    assert "启用两步验证时失效" in page


def test_a_new_password_and_a_reset_second_factor_end_every_token(app, world, no_csrf, monkeypatch):
    from portal.accounts import two_factor
    from portal.accounts.models import User
    from portal.audit.services import Actor
    from security.attack import login
    leader = login(app, "leader_a")
    _s, token = _token(app, leader)
    assert _api(app, token) == 200
    new = "another-long-passphrase-77"
    r = _post(app, leader, "/password", current=PASSWORD, password=new, confirm=new)
    assert r.status_code == 302
    assert _api(app, token) == 401
    page = get(app, leader, "/account/tokens").get_data(as_text=True)
    assert "修改密码时失效" in page and "其他系统需用新令牌" in page

    organiser = login(app, "organiser")
    _s, staff_token = _token(app, organiser)
    assert _api(app, staff_token) == 200
    with app.app_context():
        from portal.extensions import db
        two_factor.reset(db.session.scalar(db.select(User).where(User.username == "organiser")), Actor("admin"))
    assert _api(app, staff_token) == 401


def test_one_code_lets_one_login_in_however_many_send_it_at_once(app, world):
    from portal.accounts import two_factor
    from portal.accounts.models import User
    from portal.audit.services import Actor
    from portal.extensions import db
    secret = pyotp.random_base32()
    at = dt.datetime.now(dt.UTC)
    with app.app_context():
        user = db.session.scalar(db.select(User).where(User.username == "organiser"))
        user.totp_secret, user.totp_last_step = secret, None
        db.session.commit()
        user_id = user.id
    code = pyotp.TOTP(secret).at(at)
    results, start = [], threading.Barrier(6)

    def login_with_the_code():
        with app.app_context():
            one = db.session.get(User, user_id)
            start.wait()
            results.append(two_factor.verify(one, code, Actor("x"), at))
    threads = [threading.Thread(target=login_with_the_code) for _ in range(6)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert sorted(map(str, results)) == ["None"] * 5 + ["code"]


def test_wrong_codes_from_many_addresses_are_limited_together(app, world):
    """64 wrong codes from 8 addresses: after CODE_CEILING of them every client waits,
    and the right code is then refused too."""
    from portal.accounts import two_factor
    from portal.accounts.models import User
    from portal.audit.services import Actor
    from portal.extensions import db
    secret = pyotp.random_base32()
    at = dt.datetime.now(dt.UTC)
    with app.app_context():
        user = db.session.scalar(db.select(User).where(User.username == "organiser"))
        user.totp_secret, user.totp_last_step = secret, None
        db.session.commit()
        right = pyotp.TOTP(secret).at(at)
        wrong = [f"{(int(right) + k) % 1_000_000:06d}" for k in range(1, 65)]
        checked = 0
        for i, code in enumerate(wrong):
            how, until = two_factor.attempt(user, code, f"203.0.113.{i % 8}", None, Actor("x"), at)
            assert how is None
            if until is None:
                checked += 1
        assert checked < two_factor.CODE_CEILING
        how, until = two_factor.attempt(user, right, "203.0.113.99", None, Actor("x"), at)
        assert how is None and until is not None


def test_a_registration_cookie_replayed_after_logout_opens_nothing(app, db, no_csrf, monkeypatch):
    from portal.accounts.arrivals import finish
    from portal.delegations.models import Delegation
    from portal.rules.idnumber import make
    monkeypatch.setitem(app.config, "FIXED_NOW", dt.datetime(2025, 9, 1, 12, 0, tzinfo=dt.timezone(dt.timedelta(hours=8))))
    handed = []
    monkeypatch.setattr("portal.accounts.registration.hand_to_worker", handed.append)
    born = dt.date(1981, 3, 2)
    data = {"name": "选手甲", "id_type": "resident_id", "gender": "M", "birth_date": born.isoformat(),
            "id_number": make("610102", born, 3), "event": "gomoku.OPEN", "username": "replayed01",
            "password": "amber-river-01-stone", "confirm": "amber-river-01-stone"}
    client = app.test_client()
    with app.app_context():
        assert client.post("/register/shaanxi-mind-2025", data=data).status_code == 200
    cookie = client.get_cookie("session").value  # what an onlooker copies
    finish(handed[0])
    r = get(app, client, "/register/shaanxi-mind-2025/arrival")
    d_id = db.session.query(Delegation).order_by(Delegation.id.desc()).first().id
    assert r.status_code == 302 and r.headers["Location"].endswith(f"/d/{d_id}")
    with app.app_context():
        client.post("/logout")
    replay = app.test_client()
    replay.set_cookie("session", cookie)
    r = get(app, replay, "/register/shaanxi-mind-2025/arrival")
    assert r.status_code == 302 and "/login" in r.headers["Location"]
    assert get(app, replay, f"/d/{d_id}").status_code in (302, 401, 403, 404)
