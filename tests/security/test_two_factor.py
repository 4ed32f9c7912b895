"""Two-factor login for staff (issue 19, 3): organisers, accountants and administrators enrol
an authenticator at their first login and give its code each time after; recovery codes
work once each; an administrator (or the shell) resets it. Leaders log in as before."""
from __future__ import annotations

import datetime as dt
import re
import time

import pyotp
import pytest
from builders import account

from security.attack import PASSWORD, get


@pytest.fixture
def two_factor_on(app, monkeypatch):
    monkeypatch.setitem(app.config, "STAFF_TWO_FACTOR", True)
    monkeypatch.setitem(app.config, "WTF_CSRF_ENABLED", False)


def _password(app, client, username):
    with app.app_context():
        return client.post("/login", data={"username": username, "password": PASSWORD})


def _post(app, client, url, **data):
    with app.app_context():
        return client.post(url, data=data)


def _enrol(app, client):
    """Scan the QR code (its secret), type the app's code; returns (secret, recovery codes)."""
    with app.app_context():
        page = client.get("/login/enrol").get_data(as_text=True)
    assert "data:image/svg+xml" in page and "绑定验证器" in page
    secret = re.search(r'<code class="mono">([A-Z2-7 ]+)</code>', page).group(1).replace(" ", "")
    r = _post(app, client, "/login/enrol", code=pyotp.TOTP(secret).now())
    page = r.get_data(as_text=True)
    assert r.status_code == 200 and "恢复码" in page, page[:800]
    codes = re.findall(r"<li>([a-z2-9]{4}-[a-z2-9]{4})</li>", page)
    assert len(codes) == 10
    return secret, codes


def test_staff_enrol_at_the_first_login_then_give_a_code_each_time(app, world, two_factor_on):
    client = app.test_client()
    r = _password(app, client, "organiser")
    assert r.status_code == 302 and "/login/verify" in r.headers["Location"]
    assert get(app, client, "/org/").status_code == 302  # no session yet: the password alone is not enough
    assert "/login/enrol" in get(app, client, "/login/verify").headers["Location"]
    secret, _codes = _enrol(app, client)
    assert get(app, client, "/org/").status_code == 200
    # next time: password, then the code
    again = app.test_client()
    assert "/login/verify" in _password(app, again, "organiser").headers["Location"]
    wrong = _post(app, again, "/login/verify", code="000000").get_data(as_text=True)
    assert "验证码不对" in wrong
    assert get(app, again, "/org/").status_code == 302
    code = pyotp.TOTP(secret).now()
    from sqlalchemy import select

    from portal.accounts.models import User
    from portal.extensions import db
    with app.app_context():
        last = db.session.scalar(select(User.totp_last_step).where(User.username == "organiser"))
    if pyotp.TOTP(secret).timecode(dt.datetime.now(dt.UTC)) <= last:
        time.sleep(31 - time.time() % 30)  # the enrolment's code is good once: wait for the next
        code = pyotp.TOTP(secret).now()
    assert _post(app, again, "/login/verify", code=code).status_code == 302
    assert get(app, again, "/org/").status_code == 200
    # the same code a second time does not let anyone else in
    third = app.test_client()
    _password(app, third, "organiser")
    assert "验证码不对" in _post(app, third, "/login/verify", code=code).get_data(as_text=True)


def test_a_recovery_code_works_once(app, world, two_factor_on):
    client = app.test_client()
    _password(app, client, "accountant")
    _secret, codes = _enrol(app, client)
    for attempt, expected in ((codes[0], 302), (codes[0], 200)):
        other = app.test_client()
        _password(app, other, "accountant")
        r = _post(app, other, "/login/verify", code=attempt.upper())
        assert r.status_code == expected, (attempt, r.status_code)


def test_wrong_codes_make_the_client_wait(app, world, two_factor_on):
    client = app.test_client()
    _password(app, client, "organiser")
    _enrol(app, client)
    guesser = app.test_client()
    _password(app, guesser, "organiser")
    pages = [_post(app, guesser, "/login/verify", code=f"{i:06d}").get_data(as_text=True) for i in range(6)]
    assert "之后再试" in pages[-1]


def test_leaders_log_in_with_their_password_alone(app, world, two_factor_on):
    client = app.test_client()
    r = _password(app, client, "leader_a")
    assert r.status_code == 302 and "/login/verify" not in r.headers["Location"]


def test_an_admin_resets_a_lost_phone_and_the_shell_resets_the_last_admin(app, world, two_factor_on):
    from portal.extensions import db
    with app.app_context():
        account("root", "admin", password=PASSWORD, name="管理员")
        db.session.commit()
    organiser = app.test_client()
    _password(app, organiser, "organiser")
    _enrol(app, organiser)
    admin = app.test_client()
    _password(app, admin, "root")
    _enrol(app, admin)
    page = get(app, admin, "/org/staff").get_data(as_text=True)
    assert "重置两步验证" in page
    organiser_id = world["users"]["organiser"].id
    assert _post(app, admin, f"/org/accounts/{organiser_id}/reset-2fa").status_code == 302
    assert get(app, organiser, "/org/").status_code == 302  # his sessions ended
    fresh = app.test_client()
    _password(app, fresh, "organiser")
    assert "/login/enrol" in get(app, fresh, "/login/verify").headers["Location"]
    result = app.test_cli_runner().invoke(args=["accounts", "reset-2fa", "root"])
    assert result.exit_code == 0 and "已重置" in result.output
    again = app.test_client()
    _password(app, again, "root")
    assert "/login/enrol" in get(app, again, "/login/verify").headers["Location"]


def test_an_organiser_cannot_reset_two_factor(app, world, two_factor_on):
    client = app.test_client()
    _password(app, client, "organiser")
    _enrol(app, client)
    accountant_id = world["users"]["accountant"].id
    assert _post(app, client, f"/org/accounts/{accountant_id}/reset-2fa").status_code == 404
