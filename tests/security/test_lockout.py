"""Staff lockout (issue 19, 2): wrong passwords slow down the client that makes them, never
the account's owner on a device he logged in from; the same answer for names that exist and
names that do not; every account can be unlocked (administrators for staff, a shell command
for the last administrator)."""
from __future__ import annotations

import datetime as dt

from builders import account

from security.attack import PASSWORD, get, login, post

LOCKED = "暂时锁定"


def _try(app, client, username, password, address):
    with app.app_context():
        return client.post("/login", data={"username": username, "password": password},
                           environ_base={"REMOTE_ADDR": address})


def test_five_strangers_cannot_lock_the_organiser_out(app, world, no_csrf):
    owner = app.test_client()
    assert _try(app, owner, "organiser", PASSWORD, "10.0.0.1").status_code == 302  # his browser, known from now on
    for i in range(5):  # five wrong passwords from five addresses
        assert LOCKED not in _try(app, app.test_client(), "organiser", "wrong-password", f"192.0.2.{i}").get_data(as_text=True)
    assert _try(app, owner, "organiser", PASSWORD, "10.0.0.1").status_code == 302
    assert _try(app, app.test_client(), "organiser", PASSWORD, "198.51.100.9").status_code == 302  # a new address too
    # one stranger repeating from one address is the one who waits
    stranger = app.test_client()
    pages = [_try(app, stranger, "organiser", "wrong-password", "203.0.113.5").get_data(as_text=True) for _ in range(6)]
    assert LOCKED in pages[-1] and LOCKED in pages[4]
    assert LOCKED in _try(app, stranger, "organiser", PASSWORD, "203.0.113.5").get_data(as_text=True)
    assert _try(app, owner, "organiser", PASSWORD, "203.0.113.5").status_code == 302  # his device, same address


def test_delays_grow_and_end(app, world):
    from portal.accounts.services import attempt_login
    t0 = dt.datetime(2026, 12, 1, 10, 0, tzinfo=dt.UTC)
    with app.test_request_context():
        for _i in range(4):
            assert attempt_login("leader_a", "wrong", "192.0.2.50", at=t0).locked_until is None
        first = attempt_login("leader_a", "wrong", "192.0.2.50", at=t0).locked_until
        assert first == t0 + dt.timedelta(minutes=1)
        assert attempt_login("leader_a", PASSWORD, "192.0.2.50", at=t0 + dt.timedelta(seconds=30)).user is None
        later = t0 + dt.timedelta(minutes=2)
        second = attempt_login("leader_a", "wrong", "192.0.2.50", at=later).locked_until
        assert second == later + dt.timedelta(minutes=2)  # twice as long
        assert attempt_login("leader_a", PASSWORD, "192.0.2.50", at=later + dt.timedelta(minutes=3)).user is not None


def test_the_answer_is_the_same_whether_or_not_the_account_exists(app, world, no_csrf):
    def fifth_page(name, address):
        client = app.test_client()
        pages = [_try(app, client, name, "wrong-password", address).get_data(as_text=True) for _ in range(5)]
        return pages[0], pages[-1]
    real_first, real_fifth = fifth_page("leader_b", "192.0.2.77")
    fake_first, fake_fifth = fifth_page("no-such-leader", "192.0.2.78")
    assert "用户名或密码不对" in real_first and "用户名或密码不对" in fake_first
    assert LOCKED in real_fifth and LOCKED in fake_fifth


def test_many_addresses_slow_every_unknown_client_but_not_the_owners_device(app, world):
    from portal.accounts.services import attempt_login
    from portal.accounts.throttle import UNTRUSTED_CEILING, device_cookie_for
    t0 = dt.datetime(2026, 12, 1, 11, 0, tzinfo=dt.UTC)
    with app.test_request_context():
        ok = attempt_login("leader_b", PASSWORD, "10.1.1.1", at=t0)
        cookie = device_cookie_for(ok.user.id, ok.device)
        for i in range(UNTRUSTED_CEILING):
            attempt_login("leader_b", "wrong", f"10.2.{i // 200}.{i % 200}", at=t0)
        assert attempt_login("leader_b", PASSWORD, "10.3.0.1", at=t0).locked_until is not None
        assert attempt_login("leader_b", PASSWORD, "10.3.0.1", at=t0, device_cookie=cookie).user is not None


def test_admins_unlock_staff_and_organisers_only_leaders(app, world, no_csrf):
    from portal.extensions import db
    with app.app_context():
        account("root-admin", "admin", password=PASSWORD, name="管理员")
        accountant_id = world["users"]["accountant"].id
        db.session.commit()
    client = app.test_client()
    for _ in range(5):
        _try(app, client, "accountant", "wrong-password", "192.0.2.99")
    assert LOCKED in _try(app, client, "accountant", PASSWORD, "192.0.2.99").get_data(as_text=True)
    organiser = login(app, "organiser")
    assert post(app, organiser, f"/org/accounts/{accountant_id}/unlock").status_code == 404
    admins = login(app, "root-admin")
    page = get(app, admins, "/org/staff").get_data(as_text=True)
    assert "工作人员账号" in page and "已锁定至" in page
    assert post(app, admins, f"/org/accounts/{accountant_id}/unlock").status_code == 302
    assert _try(app, client, "accountant", PASSWORD, "192.0.2.99").status_code == 302


def test_the_last_administrator_unlocks_from_the_shell(app, world):
    from portal.accounts.services import attempt_login
    with app.test_request_context():
        account("only-admin", "admin", password=PASSWORD, name="管理员")
        for _ in range(5):
            attempt_login("only-admin", "wrong", "192.0.2.120")
        assert attempt_login("only-admin", PASSWORD, "192.0.2.120").locked_until is not None
    result = app.test_cli_runner().invoke(args=["accounts", "unlock", "only-admin"])
    assert result.exit_code == 0 and "已解锁" in result.output, result.output
    with app.test_request_context():
        assert attempt_login("only-admin", PASSWORD, "192.0.2.120").user is not None
    assert app.test_cli_runner().invoke(args=["accounts", "unlock", "nobody-at-all"]).exit_code == 2
