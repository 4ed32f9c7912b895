"""Mail reaches a delegation without a leader account (issue 39, 6): the organisers give it
a contact address on its review page (audited, a bad address refused), and a
self-registered entrant's own address, given on the form, is his account's."""
from __future__ import annotations

import datetime as dt

from builders import account, doc, individual, logged_in, person, stored
from sqlalchemy import select

CHINA = dt.timezone(dt.timedelta(hours=8))


def _post(app, client, url, data):
    with app.app_context():
        return client.post(url, data=data)


def test_the_organisers_give_a_delegation_without_a_leader_its_address(app, db, no_csrf):
    from portal.audit.models import AuditLog
    from portal.delegations.models import Delegation
    from portal.notify.services import recipients_of
    d = stored("nmsg-2019", doc("nmsg-2019", unit="hainan", people=[person("p1", unit="hainan", year=2019)],
                                 entries=[individual("chess.MI", "p1")]), dt.datetime(2019, 5, 1, tzinfo=CHINA))
    account("contact-org", "organiser", name="组委会")
    db.session.commit()
    organiser = logged_in(app, "contact-org")
    with app.app_context():
        page = organiser.get(f"/org/d/{d.id}").get_data(as_text=True)
    assert "还没有可收信的地址" in page
    bad = _post(app, organiser, f"/org/d/{d.id}/contact", {"email": "hainan@example.cn\r\nBcc: x@evil.example"})
    assert bad.status_code == 302
    db.session.rollback()
    assert db.session.get(Delegation, d.id).contact_email is None
    r = _post(app, organiser, f"/org/d/{d.id}/contact", {"email": " tiyuju@hainan.example.cn "})
    assert r.status_code == 302
    with app.app_context():
        assert "已保存联系邮箱" in organiser.get(f"/org/d/{d.id}").get_data(as_text=True)
    db.session.rollback()
    d = db.session.get(Delegation, d.id)
    assert d.contact_email == "tiyuju@hainan.example.cn"
    assert [a for a, _n, _l in recipients_of(d)] == ["tiyuju@hainan.example.cn"]
    row = db.session.scalars(select(AuditLog).where(AuditLog.action == "delegation.contact_email")).one()
    assert row.before == {"contact_email": None} and row.after == {"contact_email": "tiyuju@hainan.example.cn"}
    with app.app_context():
        page = organiser.get(f"/org/d/{d.id}").get_data(as_text=True)
    assert "还没有可收信的地址" not in page and "tiyuju@hainan.example.cn" in page


def test_a_self_registered_entrant_gets_mail_at_the_address_he_gave(app, db, no_csrf, monkeypatch):
    from portal.accounts.arrivals import finish
    from portal.accounts.models import User
    from portal.rules.idnumber import make
    from portal.workflow.models import ArrivalTicket
    monkeypatch.setitem(app.config, "FIXED_NOW", dt.datetime(2025, 9, 1, 12, tzinfo=CHINA))
    monkeypatch.setattr("portal.accounts.registration.hand_to_worker", lambda _i: None)
    born = dt.date(1990, 3, 3)
    r = _post(app, app.test_client(), "/register/shaanxi-mind-2025", {
        "name": "赵一", "id_type": "resident_id", "gender": "M", "birth_date": born.isoformat(),
        "id_number": make("610102", born, 3), "event": "gomoku.OPEN", "username": "zhaoyi",
        "password": "amber-river-01-stone", "confirm": "amber-river-01-stone", "email": "zhaoyi@example.cn"})
    assert r.status_code == 200 and 'id="arrival"' in r.get_data(as_text=True)
    ticket = db.session.scalars(select(ArrivalTicket)).one()
    finish(ticket.id)
    db.session.rollback()
    assert db.session.scalars(select(User).where(User.username == "zhaoyi")).one().email == "zhaoyi@example.cn"
    assert db.session.get(ArrivalTicket, ticket.id).email is None  # nothing kept on the ticket
