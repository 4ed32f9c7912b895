"""E-mail that is part of the transaction (issue 24, 1): each step writes to the outbox with
the change, in each recipient's language; the sender delivers to a real SMTP server
(aiosmtpd, started here), retries with backoff, never sends twice, and what could not be
sent is shown to the organisers."""
import datetime as dt
import email
import email.policy
import re
import socket

import pytest
from builders import account, csrf_token, doc, individual, logged_in, person, stored

CHINA = dt.timezone(dt.timedelta(hours=8))


class Inbox:
    def __init__(self):
        self.messages = []

    async def handle_DATA(self, server, session, envelope):
        self.messages.append(email.message_from_bytes(envelope.content, policy=email.policy.default))
        return "250 OK"


def _free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@pytest.fixture
def smtp(app, monkeypatch):
    from aiosmtpd.controller import Controller
    inbox = Inbox()
    port = _free_port()
    controller = Controller(inbox, hostname="127.0.0.1", port=port)
    controller.start()
    for key, value in (("MAIL_BACKEND", "smtp"), ("MAIL_SERVER", "127.0.0.1"), ("MAIL_PORT", port),
                       ("MAIL_DEFAULT_SENDER", "bisai@example.cn")):
        monkeypatch.setitem(app.config, key, value)
    yield inbox, port
    controller.stop()


def _delegation(app, db):
    d = stored("nmsg-2019", doc("nmsg-2019", people=[person("p1", year=2019, name="陈立"), person("p2", year=2019, name="王浩")],
                                entries=[individual("chess.MI", "p1", "p2")]), dt.datetime(2019, 5, 1, tzinfo=CHINA))
    zh = account("zj-mail", "leader", delegation=d, name="陈明")
    en = account("zj-mail-en", "leader", delegation=d, name="Ming Chen")
    zh.email, en.email, en.lang = "chenming@example.cn", "ming@example.org", "en"
    db.session.commit()
    return d


def _send(app):
    from portal.notify.sender import send_due
    with app.app_context():
        return send_due()


def test_a_submission_tells_each_leader_in_his_language_once(app, db, smtp):
    from portal.audit.services import Actor
    from portal.notify.models import OutboxMessage
    from portal.workflow.services import submit
    inbox, _port = smtp
    d = _delegation(app, db)
    assert submit(d, Actor("陈明"), dt.datetime(2019, 8, 20, 22, tzinfo=CHINA)).ok
    queued = {m.to_address: m for m in db.session.query(OutboxMessage).all()}
    assert set(queued) == {"chenming@example.cn", "ming@example.org"} and all(m.status == "pending" for m in queued.values())
    assert _send(app) == {"sent": 2, "retry": 0, "failed": 0}
    by_to = {m["To"].addresses[0].addr_spec: m for m in inbox.messages}
    zh, en = by_to["chenming@example.cn"], by_to["ming@example.org"]
    assert zh["Subject"].strip() == "报名已收到：浙江省 · 第四届全国智力运动会 国际象棋" and zh["From"] == "bisai@example.cn"
    body = zh.get_content()
    assert "2019-08-20 22:00（北京时间）提交" in body and "国际象棋男子个人：2 人" in body and "人员共 2 人" in body
    assert en["Subject"].strip() == "Entry received: Zhejiang, 4th National Mind Sports Games - Chess"
    assert "Chess Men's individual: 2" in en.get_content() and "陈立" not in en["Subject"]
    assert en.get_content_type() == "text/plain"
    # The sender runs again (cron twice, two senders): nothing goes twice.
    assert _send(app) == {"sent": 0, "retry": 0, "failed": 0} and len(inbox.messages) == 2


def test_a_refused_step_writes_no_message(app, db, smtp):
    from portal.audit.services import Actor
    from portal.notify.models import OutboxMessage
    from portal.workflow.services import approve
    d = _delegation(app, db)
    assert not approve(d, Actor("组委会"), dt.datetime(2019, 8, 21, tzinfo=CHINA)).ok  # not submitted: refused
    assert db.session.query(OutboxMessage).count() == 0


def test_a_return_names_the_people_and_the_reason(app, db, smtp):
    from portal.audit.services import Actor
    from portal.workflow.services import return_for_changes, submit
    inbox, _port = smtp
    d = _delegation(app, db)
    assert submit(d, Actor("陈明"), dt.datetime(2019, 8, 20, tzinfo=CHINA)).ok
    _send(app)
    inbox.messages.clear()
    assert return_for_changes(d, Actor("组委会"), [("person", "p2", "请补充身份证复印件")]).ok
    _send(app)
    zh = next(m for m in inbox.messages if m["To"].addresses[0].addr_spec == "chenming@example.cn")
    assert zh["Subject"].strip().startswith("报名被退回修改") and "王浩：请补充身份证复印件" in zh.get_content()
    assert "截止 2019-08-31 23:59" in zh.get_content()


def test_a_mail_server_that_is_down_is_tried_again_then_shown_to_the_organisers(app, db, monkeypatch):
    from portal.audit.services import Actor
    from portal.notify import sender
    from portal.notify.models import OutboxMessage
    from portal.workflow.services import submit
    monkeypatch.setitem(app.config, "MAIL_BACKEND", "smtp")
    monkeypatch.setitem(app.config, "MAIL_SERVER", "127.0.0.1")
    monkeypatch.setitem(app.config, "MAIL_PORT", _free_port())  # nothing listens there
    monkeypatch.setitem(app.config, "MAIL_TIMEOUT", 2)
    d = _delegation(app, db)
    assert submit(d, Actor("陈明"), dt.datetime(2019, 8, 20, tzinfo=CHINA)).ok
    start = dt.datetime.now(dt.UTC)
    with app.app_context():
        assert sender.send_due(start) == {"sent": 0, "retry": 2, "failed": 0}
        assert sender.send_due(start) == {"sent": 0, "retry": 0, "failed": 0}  # not due again yet
        at = start
        for wait in sender.BACKOFF:
            at += wait + dt.timedelta(seconds=1)
            sender.send_due(at)
    db.session.rollback()
    rows = db.session.query(OutboxMessage).all()
    assert {m.status for m in rows} == {"failed"} and all(m.attempts == len(sender.BACKOFF) + 1 for m in rows)
    assert all("ConnectionRefusedError" in m.last_error for m in rows)
    account("mail-org", "organiser", games=["nmsg-2019"])
    account("other-org", "organiser", games=["youth-gomoku-2015"])
    db.session.commit()
    organiser = logged_in(app, "mail-org")
    with app.app_context():
        page = organiser.get("/org/outbox?status=failed").get_data(as_text=True)
    assert "发送失败" in page and "chenming@example.cn" in page and "重新发送" in page
    other = logged_in(app, "other-org")
    with app.app_context():
        assert "chenming@example.cn" not in other.get("/org/outbox").get_data(as_text=True)
    token = csrf_token(page)
    with app.app_context():
        other_token = csrf_token(other.get("/org/outbox").get_data(as_text=True))  # the language form's
    with app.app_context():
        assert other.post(f"/org/outbox/{rows[0].id}/retry", data={"csrf_token": other_token}).status_code == 404
    with app.app_context():
        r = organiser.post(f"/org/outbox/{rows[0].id}/retry", data={"csrf_token": token})
    assert r.status_code == 302
    db.session.rollback()
    assert db.session.get(OutboxMessage, rows[0].id).status == "pending"


def test_an_invitation_goes_by_mail_and_its_link_is_not_kept(app, db, smtp, no_csrf, monkeypatch):
    from portal.notify.models import OutboxMessage
    inbox, _port = smtp
    monkeypatch.setitem(app.config, "PUBLIC_URL", "https://baoming.example.cn")
    account("inv-org", "organiser", games=["nmsg-2019"])
    db.session.commit()
    organiser = logged_in(app, "inv-org")
    with app.app_context():
        r = organiser.post("/org/accounts", data={"games": "nmsg-2019", "unit": "fujian", "username": "fj-leader",
                                                  "display_name": "林华", "email": "linhua@example.cn"})
    assert r.status_code == 200 and "/invite/" in r.get_data(as_text=True)
    _send(app)
    [message] = inbox.messages
    assert message["Subject"].strip() == "第四届全国智力运动会 国际象棋报名账号"
    link = re.search(r"https://baoming\.example\.cn/invite/\S+", message.get_content()).group(0)
    assert link in r.get_data(as_text=True)
    db.session.rollback()
    assert db.session.query(OutboxMessage).one().body == ""  # the one-time link is not kept


def test_the_embedded_default_writes_messages_to_a_folder_and_says_where(app, db, cli, monkeypatch, tmp_path):
    from portal.audit.services import Actor
    from portal.workflow.services import submit
    monkeypatch.setitem(app.config, "MAIL_BACKEND", "file")
    monkeypatch.setitem(app.config, "MAIL_FILE_PATH", str(tmp_path / "mail"))
    d = _delegation(app, db)
    assert submit(d, Actor("陈明"), dt.datetime(2019, 8, 20, tzinfo=CHINA)).ok
    db.session.commit()
    result = cli.invoke(args=["notify", "send"])
    assert result.exit_code == 0 and "sent 2" in result.output and str(tmp_path / "mail") in result.output
    written = "".join(p.read_text(errors="replace") for p in (tmp_path / "mail").iterdir())
    assert "chenming@example.cn" in written


def test_every_kind_of_message_reads_right_in_both_languages(app, db, smtp):
    """Each step's message, sent through the real SMTP server, in Chinese and in English:
    the names and reasons in words, never a code, a slug or "None"."""
    from portal.audit.services import Actor
    from portal.setup.services import _tell_amendment
    from portal.workflow.models import Substitution
    from portal.workflow.services import approve, decide_substitution, grant_extension, submit
    inbox, _port = smtp
    d = _delegation(app, db)
    assert submit(d, Actor("陈明"), dt.datetime(2019, 8, 20, tzinfo=CHINA)).ok
    assert approve(d, Actor("组委会"), dt.datetime(2019, 8, 21, tzinfo=CHINA)).ok
    assert grant_extension(d, "substitutions", dt.datetime(2019, 11, 3, 17, tzinfo=CHINA), "赛区交通管制", Actor("组委会")).ok
    sub = Substitution(delegation_id=d.id, event_code="chess.MI", out_ref="p2", out_name="王浩",
                       in_person={"ref": "s1", "name": "赵磊"}, reason="伤病", requested_by="陈明")
    db.session.add(sub)
    db.session.commit()
    assert decide_substitution(sub, False, Actor("组委会"), dt.datetime(2019, 9, 2, tzinfo=CHINA), "替补已报满").ok
    from portal.db_tx import write_transaction
    with write_transaction():
        _tell_amendment(d.games, "补充通知（一）", "场地所限", {"removed": [("每单位国际象棋男子个人限报 4 人", "At most 4 entrants per unit in Chess Men's individual", "五(二)")],
                                                         "added": [("每单位国际象棋男子个人限报 3 人", "At most 3 entrants per unit in Chess Men's individual", "五(二)")]})
    _send(app)
    got = {(m["To"].addresses[0].addr_spec, m["Subject"].strip().split("：")[0].split(":")[0]): m.get_content()
           for m in inbox.messages}
    zh = {k[1]: v for k, v in got.items() if k[0] == "chenming@example.cn"}
    en = {k[1]: v for k, v in got.items() if k[0] == "ming@example.org"}
    assert set(zh) == {"报名已收到", "报名已批准", "延期", "更换申请被驳回", "补充通知（一）"}, set(zh)
    assert "2019-11-03 17:00（北京时间）：赛区交通管制" in zh["延期"] and "“更换运动员" in zh["延期"]
    assert "以 赵磊 替换 王浩" in zh["更换申请被驳回"] and "替补已报满" in zh["更换申请被驳回"]
    assert "- 每单位国际象棋男子个人限报 3 人" in zh["补充通知（一）"] and "场地所限" in zh["补充通知（一）"]
    assert set(en) == {"Entry received", "Entry approved", "More time for Substitutions (with approval)", "Substitution rejected",
                       "补充通知（一）"}, set(en)
    assert "At most 3 entrants per unit in Chess Men's individual" in en["补充通知（一）"]
    for text in list(zh.values()) + list(en.values()):
        assert "None" not in text and "chess.MI" not in text and "nmsg-2019" not in text


def test_a_webhook_receives_signed_posts_and_a_failing_one_is_tried_again(app, db, monkeypatch):
    """Issue 24 (3): an organiser registers a URL; a submission and a manual payment match
    reach a small server on the loopback as signed POSTs, with no one's personal data."""
    import hashlib
    import hmac
    import http.server
    import json as _json
    import threading

    from portal.audit.services import Actor
    from portal.notify import sender
    from portal.notify.models import OutboxMessage
    from portal.workflow.services import submit
    received, answers = [], [200]

    class Receiver(http.server.BaseHTTPRequestHandler):
        def do_POST(self):
            body = self.rfile.read(int(self.headers["Content-Length"]))
            received.append((dict(self.headers), body))
            self.send_response(answers[0])
            self.end_headers()

        def log_message(self, *args):
            pass
    server = http.server.HTTPServer(("127.0.0.1", 0), Receiver)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    # The receiver stands on this machine, which webhooks never reach unless allowed.
    monkeypatch.setitem(app.config, "WEBHOOK_ALLOWED_NETWORKS", "127.0.0.1/32")
    try:
        account("hook-org", "organiser", games=["nmsg-2019"])
        db.session.commit()
        organiser = logged_in(app, "hook-org")
        with app.app_context():
            page = organiser.get("/org/games/nmsg-2019/webhooks").get_data(as_text=True)
        token = csrf_token(page)
        url = f"http://127.0.0.1:{server.server_port}/events"
        with app.app_context():
            made = organiser.post("/org/games/nmsg-2019/webhooks", data={"csrf_token": token, "url": url})
        secret = re.search(r'<code id="new-secret">([^<]+)</code>', made.get_data(as_text=True)).group(1)
        d = _delegation(app, db)
        assert submit(d, Actor("陈明"), dt.datetime(2019, 8, 20, tzinfo=CHINA)).ok
        with app.app_context():
            sender.send_due()
        hooks = [(h, b) for h, b in received]
        assert len(hooks) == 1
        headers, body = hooks[0]
        assert headers["X-Portal-Event"] == "delegation.submitted"
        signed = headers["X-Portal-Timestamp"].encode() + b"." + body
        assert headers["X-Portal-Signature"] == "sha256=" + hmac.new(secret.encode(), signed, hashlib.sha256).hexdigest()
        event = _json.loads(body)
        assert event["delegation"]["id"] == d.id and event["games"] == "nmsg-2019"
        assert "陈立" not in body.decode() and "id_number" not in body.decode()
        # The receiver is down: tried again later, not lost.
        answers[0] = 500
        from portal.money.models import BankLine
        from portal.money.services import assign_line
        line = BankLine(games_id=d.games_id, fingerprint="h" * 64, statement_name="s.csv", row_number=2,
                        booked_on=dt.date(2019, 8, 21), amount=500, payer="浙江省棋院", memo="")
        db.session.add(line)
        db.session.commit()
        assert assign_line(line, d, Actor("财务")).ok
        with app.app_context():
            counts = sender.send_due()
        assert counts["retry"] == 1
        db.session.rollback()
        pending = db.session.query(OutboxMessage).filter_by(kind="webhook", status="pending").one()
        assert pending.subject == "payment.matched" and "500" in pending.last_error
    finally:
        server.shutdown()
        server.server_close()


def test_a_payment_matched_tells_the_leaders_what_is_still_due(app, db, smtp):
    from portal.audit.services import Actor
    from portal.money.models import BankLine
    from portal.money.services import assign_line
    from portal.workflow.services import submit
    inbox, _port = smtp
    d = _delegation(app, db)
    assert submit(d, Actor("陈明"), dt.datetime(2019, 8, 20, tzinfo=CHINA)).ok
    line = BankLine(games_id=d.games_id, fingerprint="p" * 64, statement_name="s.csv", row_number=2,
                    booked_on=dt.date(2019, 8, 21), amount=100, payer="浙江省棋院", memo="")
    db.session.add(line)
    db.session.commit()
    assert assign_line(line, d, Actor("财务")).ok
    _send(app)
    paid = {m["To"].addresses[0].addr_spec: m for m in inbox.messages if "100.00" in m["Subject"]}
    assert set(paid) == {"chenming@example.cn", "ming@example.org"}
    zh = paid["chenming@example.cn"].get_content()
    # nmsg-2019 asks no entry fee: the ¥100 is more than is due, and the message says so
    # (issue 39, 2), not "尚需支付：¥0.00"
    assert "2019-08-21 到账的 ¥100.00 已记入浙江省" in zh and "比应缴多付 ¥100.00" in zh and "尚需支付" not in zh
    assert "¥100.00 more than is due" in paid["ming@example.org"].get_content()


def test_the_deposit_message_reads_right_returned_or_kept(app, db):
    from portal.games.services import definition_of, find_games
    from portal.notify.services import render
    definition = definition_of(find_games("shaanxi-mind-2025"))
    common = {"games": definition, "unit": ("西安棋院", "Xi'an Qiyuan"), "fee": ("保证金", "deposit"), "amount": "200.00",
              "name": "王老师"}
    subject, body = render("deposit", "zh", returned=True, **common)
    assert subject == "保证金退还：保证金 · 西安棋院" and "¥200.00 已在报到后退还" in body
    subject, body = render("deposit", "en", returned=False, **common)
    assert subject == "Deposit kept: deposit, Xi'an Qiyuan" and "is kept, as the regulation says" in body


def test_an_account_made_to_wait_tells_its_owner_once_a_day(app, db, smtp):
    """Account locked (issue 24, 1): the owner hears of wrong passwords, in his language,
    once a day however many clients try; a name that does not exist writes nothing."""
    from portal.accounts.services import attempt_login
    from portal.notify.models import OutboxMessage
    inbox, _port = smtp
    d = _delegation(app, db)
    t0 = dt.datetime(2026, 12, 1, 2, 0, tzinfo=dt.UTC)
    with app.test_request_context():
        for address in ("192.0.2.1", "192.0.2.2"):  # two clients, each made to wait
            for _i in range(5):
                attempt_login("zj-mail-en", "wrong", address, at=t0)
        for _i in range(5):
            attempt_login("zj-mail", "wrong", "192.0.2.3", at=t0)
            attempt_login("nobody-here", "wrong", "192.0.2.3", at=t0)
    db.session.rollback()
    rows = db.session.query(OutboxMessage).filter_by(kind="account_locked").all()
    assert sorted(r.to_address for r in rows) == ["chenming@example.cn", "ming@example.org"]
    assert all(r.delegation_id == d.id for r in rows)
    _send(app)
    got = {m["To"].addresses[0].addr_spec: (str(m["Subject"]), m.get_content()) for m in inbox.messages}
    subject, body = got["ming@example.org"]
    assert subject == "Wrong passwords for your account zj-mail-en"
    assert "5 wrong passwords" in body and "wait until 2026-12-01 10:01 (China time)" in body
    assert "from an address not known to the portal" in body and "192.0.2" not in body
    subject, body = got["chenming@example.cn"]
    assert subject == "您的账号 zj-mail 多次密码错误" and "2026-12-01 10:01（北京时间）" in body
    assert "None" not in body
    # The next day, a new wait is told again.
    with app.test_request_context():
        for _i in range(5):
            attempt_login("zj-mail", "wrong", "192.0.2.9", at=t0 + dt.timedelta(days=1))
    db.session.rollback()
    assert db.session.query(OutboxMessage).filter_by(kind="account_locked", to_address="chenming@example.cn").count() == 2


def test_the_sign_off_stands_on_its_own_lines_and_speaks_to_an_individual_as_one(app, db):
    """Issue 39, 6: "组委会https://…" was one line; an entrant is no delegation's leader."""
    import types

    from portal.games.services import definition_of, find_games
    from portal.notify.services import render
    games = definition_of(find_games("shaanxi-mind-2025"))
    with app.app_context():
        app.config["PUBLIC_URL"] = "https://baoming.example.cn"
        try:
            club = types.SimpleNamespace(unit_kind="club", id=1, games_id=1)
            entrant = types.SimpleNamespace(unit_kind="individual", id=2, games_id=1)
            _subject, body = render("approved", "zh", name="王伟", delegation=club, games=games, unit=("甲", "A"))
            assert "组委会\nhttps://baoming.example.cn\n" in body and "\n-- \n" in body
            assert "本代表团" in body
            _subject, body = render("approved", "zh", name="王伟", delegation=entrant, games=games, unit=("王伟", "Wang"))
            assert "本代表团" not in body and "您在报名系统报名参加本届比赛" in body
            _subject, body = render("approved", "en", name="Wang", delegation=entrant, games=games, unit=("王伟", "Wang"))
            assert "committee\nhttps://baoming.example.cn\n" in body and "you entered these Games" in body
        finally:
            app.config["PUBLIC_URL"] = ""
