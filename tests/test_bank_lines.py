"""The accountant's bank lines (issue 10): matched lines show where they went, a manual
match can be undone (audited, reversed in the ledger), the same payment in two statement
files is flagged instead of booked twice, and unreadable files say what they are."""
import datetime as dt
import io
import re
from decimal import Decimal

import pytest
from builders import account, doc, individual, logged_in, person

# These tests post the pages' forms without their CSRF tokens (CSRF: tests/security).
pytestmark = pytest.mark.usefixtures("no_csrf")

CHINA = dt.timezone(dt.timedelta(hours=8))
HEADER = "交易日期,收入金额,对方户名,摘要,交易流水号\n"


def _setup(app, db):
    from portal.audit.services import Actor
    from portal.games.services import find_games
    from portal.workflow.services import import_document
    games = find_games("youth-gomoku-2015")
    out = import_document(games, doc("youth-gomoku-2015", unit={"name": "河西棋院", "kind": "club"},
                                     people=[person("b", "M", "2006-06-06", docs=("photo", "id_copy"))],
                                     entries=[individual("gomoku.MCA", "b")]),
                          dt.datetime(2015, 7, 1, tzinfo=CHINA), Actor("t"))
    db.session.commit()
    account("cw2", "accountant", name="财务")
    return out.delegation, logged_in(app, "cw2")


def _import(app, client, name, text):
    import io
    with app.app_context():
        return client.post("/money/import", data={"games": "youth-gomoku-2015", "on_error": "all",
                                                  "file": (io.BytesIO(text.encode("utf-8")), name)},
                           content_type="multipart/form-data")


def _balance(db, d):
    from portal.money.services import totals
    db.session.rollback()
    return totals(d)["payment"]


def test_the_same_payment_in_two_files_is_flagged_not_booked_twice(app, db, monkeypatch):
    d, client = _setup(app, db)
    r = _import(app, client, "jul-a.csv", HEADER + "2015-07-03,300.00,王大明,河西棋院报名费,SN0001\n")
    assert r.status_code == 302
    before = _balance(db, d)
    # The other export of the same account: another memo, same day, payer, amount, serial.
    r = _import(app, client, "jul-b.csv", HEADER + "2015-07-03,300.00,王大明,转账 河西,SN0001\n"
                                                   "2015-07-03,300.00,王大明,另一笔,SN0002\n")
    assert r.status_code == 302
    with app.app_context():
        page = client.get("/money/lines?games=youth-gomoku-2015&show=duplicates").get_data(as_text=True)
    assert "疑似重复" in page and "jul-a.csv" in page and page.count("SN0001") >= 1
    assert "SN0002" not in page  # its own serial: a payment of its own
    from sqlalchemy import select

    from portal.money.models import BankLine
    db.session.rollback()  # a fresh snapshot: the imports ran in requests of their own
    flagged = db.session.scalar(select(BankLine).where(BankLine.statement_name == "jul-b.csv",
                                                       BankLine.bank_ref == "SN0001"))
    assert flagged.duplicate_of_id is not None and flagged.matched_delegation_id is None
    with app.app_context():
        client.post(f"/money/lines/{flagged.id}/duplicate", data={"decision": "same"})
    db.session.rollback()
    assert db.session.get(BankLine, flagged.id).match_method == "duplicate_confirmed"
    assert _balance(db, d) - before in (Decimal("0.00"), Decimal("300.00"))  # SN0002 may match by payer


def test_a_manual_match_can_be_undone_and_is_reversed_in_the_ledger(app, db, monkeypatch):
    from sqlalchemy import select

    from portal.audit.models import AuditLog
    from portal.money.models import BankLine, LedgerEntry
    d, client = _setup(app, db)
    assert _import(app, client, "jul-c.csv", HEADER + "2015-07-05,123.45,无名氏,不明款项,SN0100\n").status_code == 302
    db.session.rollback()
    line = db.session.scalar(select(BankLine).where(BankLine.bank_ref == "SN0100"))
    assert line.matched_delegation_id is None
    with app.app_context():
        page = client.get("/money/lines?games=youth-gomoku-2015&show=unmatched").get_data(as_text=True)
    assert re.search(rf'<select[^>]*id="line-{line.id}"[^>]*>\s*<option value="">', page)  # starts empty
    with app.app_context():
        client.post(f"/money/lines/{line.id}/assign", data={"delegation": d.id})
    paid = _balance(db, d)
    with app.app_context():
        page = client.get("/money/lines?games=youth-gomoku-2015&show=matched").get_data(as_text=True)
    assert "河西棋院" in page and "手工匹配" in page
    with app.app_context():
        client.post(f"/money/lines/{line.id}/undo", data={})
    assert _balance(db, d) == paid - Decimal("123.45")
    db.session.expire_all()
    assert db.session.get(BankLine, line.id).matched_delegation_id is None
    kinds = db.session.scalars(select(LedgerEntry.kind).where(LedgerEntry.bank_line_id == line.id)).all()
    assert sorted(kinds) == ["payment", "reversal"]  # append-only: nothing deleted
    assert db.session.scalar(select(AuditLog).where(AuditLog.action == "bank.unmatch")) is not None
    with app.app_context():  # matched again, to the right place this time
        client.post(f"/money/lines/{line.id}/assign", data={"delegation": d.id})
    assert _balance(db, d) == paid


def test_unreadable_files_say_what_they_are(app, db, monkeypatch):
    import io
    _d, client = _setup(app, db)
    for name, content, says in (("empty.csv", b"", "文件为空"),
                                ("scan.pdf", b"%PDF-1.4 binary\x00\x01", "不是 Excel（.xlsx）或 CSV 文件")):
        with app.app_context():
            r = client.post("/money/import", data={"games": "youth-gomoku-2015", "on_error": "all",
                                                   "file": (io.BytesIO(content), name)},
                            content_type="multipart/form-data")
        page = r.get_data(as_text=True)
        assert says in page, page[page.find("<main>"):][:1200]
        assert 'id="file-problem"' in page and "无法识别的行</h2>" not in page


def test_the_overview_lists_a_few_unmatched_lines_and_links_to_all(app, db, monkeypatch):
    """A 50,000-line statement can leave thousands unmatched: the overview shows the first
    ones (each with its drop-down of delegations) and a link to all, paginated."""
    d, client = _setup(app, db)
    lines = "".join(f"2015-07-0{1 + i % 9},{100 + i}.00,家长{i},报名,SN{i:05d}\n" for i in range(45))
    assert _import(app, client, "many.csv", HEADER + lines).status_code in (200, 302)
    with app.app_context():
        page = client.get("/money/?games=youth-gomoku-2015").get_data(as_text=True)
    assert page.count('name="delegation" required') == 30
    assert "全部 45 笔未匹配的流水" in page and "show=unmatched" in page


def test_matching_onto_a_settled_delegation_says_a_refund_is_due(app, db, monkeypatch):
    """Issue 25, 8: a manual match onto a delegation already settled took its balance below
    zero without a word; the accountant is now told how much is owed back."""
    from sqlalchemy import select

    from portal.money.models import BankLine
    from portal.money.services import account_status, totals
    d, client = _setup(app, db)
    due = totals(d)["balance"]
    assert due > 0
    assert _import(app, client, "jul-s.csv", HEADER + f"2015-07-05,{due},河西棋院,报名费,SN0200\n"
                                                      f"2015-07-06,200.00,无名氏,不明款项,SN0201\n").status_code == 302
    db.session.rollback()
    line = db.session.scalar(select(BankLine).where(BankLine.bank_ref == "SN0201"))
    with app.app_context():
        r = client.post(f"/money/lines/{line.id}/assign", data={"delegation": d.id}, follow_redirects=True)
    page = r.get_data(as_text=True)
    assert "多付 ¥200.00" in page and "应退款" in page
    db.session.rollback()
    assert account_status(totals(d)) == "refund_due"


def test_the_import_says_which_layout_and_columns_it_read(app, db):
    from test_bank_layouts import LAYOUTS
    d, client = _setup(app, db)
    encoding, text = LAYOUTS["cmb-personal"]
    with app.app_context():
        r = client.post("/money/import", data={"games": "youth-gomoku-2015", "on_error": "all",
                                               "file": (io.BytesIO(text.encode(encoding)), "cmb.csv")},
                        content_type="multipart/form-data", follow_redirects=True)
    page = r.get_data(as_text=True)
    assert "识别为：招商银行" in page and "付款人：对手信息" in page


def test_a_file_with_no_payment_in_it_is_not_reported_as_imported(app, db):
    d, client = _setup(app, db)
    r = _import(app, client, "empty.csv", "交易日期,收入金额,对方户名,摘要\n2015-07-04,-,某某,印刷费\n")
    page = r.get_data(as_text=True)
    assert r.status_code == 200 and "已导入" not in page and "没有读到任何收入记录" in page


def test_an_automatic_match_is_undone_and_moved_and_the_leaders_hear_of_it(app, db, monkeypatch):
    """Issue 39, 2: a payment matched by the import (here by payer and amount) to the wrong
    club is undone like a manual one (audited, reversed), the leader is told and the
    webhook fires; it is then matched to the right club, whose leader reads what he
    overpaid, not "尚需支付：¥0.00"."""
    from sqlalchemy import select

    from portal.audit.models import AuditLog
    from portal.audit.services import Actor
    from portal.games.services import find_games
    from portal.money.models import BankLine
    from portal.money.services import totals
    from portal.notify.models import OutboxMessage, Webhook
    from portal.workflow.services import import_document
    d, client = _setup(app, db)
    other = import_document(find_games("youth-gomoku-2015"), doc(
        "youth-gomoku-2015", unit={"name": "红桥棋社", "kind": "club"},
        people=[person("g", "F", "2006-07-07", docs=("photo", "id_copy"))], entries=[individual("gomoku.WCA", "g")]),
        dt.datetime(2015, 7, 1, tzinfo=CHINA), Actor("t")).delegation
    from portal.money.services import post
    assert totals(other)["balance"] == totals(d)["balance"]  # one child each, the same fee
    post(other, "payment", Decimal("100.00"), "现金", Actor("t"), value_date=dt.date(2015, 7, 2))
    for who, dd in (("hx-leader", d), ("hq-leader", other)):
        user = account(who, "leader", delegation=dd)
        user.email = f"{who}@example.cn"
    db.session.add(Webhook(games_id=d.games_id, url="https://hooks.example.cn/in", secret="s", created_by="t"))
    db.session.commit()
    due = totals(d)["balance"]
    assert _import(app, client, "jul-m.csv", HEADER + f"2015-07-05,{due},河西棋院,报名费,SN0300\n").status_code == 302
    db.session.rollback()
    line = db.session.scalar(select(BankLine).where(BankLine.bank_ref == "SN0300"))
    assert line.matched_delegation_id == d.id and line.match_method == "name_amount"
    with app.app_context():
        page = client.get("/money/lines?games=youth-gomoku-2015&show=matched").get_data(as_text=True)
    assert f"/money/lines/{line.id}/undo" in page
    with app.app_context():
        r = client.post(f"/money/lines/{line.id}/undo", data={}, follow_redirects=True)
    assert "已撤销匹配" in r.get_data(as_text=True)
    db.session.rollback()
    assert db.session.get(BankLine, line.id).matched_delegation_id is None
    row = db.session.scalars(select(AuditLog).where(AuditLog.action == "bank.unmatch")).one()
    assert row.before == {"delegation": d.id, "method": "name_amount"}
    told = db.session.scalars(select(OutboxMessage).where(OutboxMessage.kind == "payment_unmatched")).all()
    assert [m.to_address for m in told] == ["hx-leader@example.cn"] and "撤回" in told[0].body
    hooks = db.session.scalars(select(OutboxMessage).where(OutboxMessage.kind == "webhook")).all()
    assert [m.subject for m in hooks][-1] == "payment.unmatched"
    # moved: to 红桥, who owed less than the transfer
    with app.app_context():
        client.post(f"/money/lines/{line.id}/assign", data={"delegation": other.id})
    db.session.rollback()
    mail = db.session.scalars(select(OutboxMessage).where(OutboxMessage.kind == "payment_matched",
                                                          OutboxMessage.to_address == "hq-leader@example.cn")).one()
    assert "比应缴多付 ¥100.00" in mail.body and "尚需支付" not in mail.body
