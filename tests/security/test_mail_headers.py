"""Nothing typed reaches a mail header with a line break in it (issue 38, 9): names and
addresses with control characters are refused where they are typed, and a message is
never queued to such an address or under such a name."""
from __future__ import annotations

import io

from builders import account, logged_in

from security.attack import get, post

INJECTED = "lingdui@example.cn\r\nBcc: all@evil.example"


def test_an_address_with_a_line_break_is_refused_everywhere_it_is_typed(app, world, no_csrf):
    from portal.accounts.models import User
    from portal.accounts.services import set_email
    from portal.audit.services import Actor
    from portal.extensions import db
    leader = logged_in(app, "leader_a", "a-long-test-passphrase-42")
    for address in (INJECTED, "ling\ndui@example.cn", "a@b.cn\x00"):
        r = post(app, leader, "/account/notifications", data={"email": address, "reminders": "y"})
        assert r.status_code == 422 and "请填写有效的电子邮箱" in r.get_data(as_text=True)
    db.session.rollback()
    assert db.session.get(User, world["users"]["leader_a"].id).email is None
    # the service itself, whoever calls it
    out = set_email(world["users"]["leader_a"], INJECTED, Actor("t"))
    assert not out.ok and out.code == "input" and out.field == "email"  # the field named apart (RefusalCode)
    db.session.rollback()
    assert db.session.get(User, world["users"]["leader_a"].id).email is None


def test_names_with_control_characters_make_no_account(app, db, no_csrf):
    from portal.accounts.models import User
    account("hdr-admin", "admin")
    db.session.commit()
    admin = logged_in(app, "hdr-admin")
    r = post(app, admin, "/org/staff", data={"username": "new-staff", "display_name": "王伟\r\nBcc: x@evil.example",
                                             "role": "organiser", "games": ["nmsg-2019"]})
    assert r.status_code == 422 and "控制字符" in r.get_data(as_text=True)
    r = post(app, admin, "/org/accounts", data={"games": "nmsg-2019", "unit": "zhejiang", "username": "new-leader",
                                                "display_name": "李明\nX-Evil: 1", "email": ""})
    assert r.status_code in (200, 422) and "控制字符" in r.get_data(as_text=True)
    sheet = "单位,领队姓名,用户名\nzhejiang,李明\x1b[2J,bulk-one\n".encode()
    r = post(app, admin, "/org/accounts/bulk", data={"games": "nmsg-2019", "file": (io.BytesIO(sheet), "leaders.csv")},
             content_type="multipart/form-data")
    assert r.status_code == 422 and "控制字符" in r.get_data(as_text=True)
    db.session.rollback()
    assert db.session.query(User).filter(User.username.in_(["new-staff", "new-leader", "bulk-one"])).count() == 0
    assert get(app, admin, "/org/staff").status_code == 200


def test_a_message_is_never_queued_to_a_stored_bad_address_nor_under_a_broken_name(app, world):
    from portal.extensions import db
    from portal.notify.services import queue
    with app.app_context():
        made = queue("account_locked", [(INJECTED, "王伟", "zh"), ("good@example.cn", "王伟\r\nBcc: x@evil.example", "zh")],
                     until="", minutes=15)
        assert [m.to_address for m in made] == ["good@example.cn"]
        assert "\n" not in made[0].to_name and "\r" not in made[0].to_name and "\n" not in made[0].subject
        db.session.rollback()
