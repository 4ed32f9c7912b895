"""Fees, the ledger, statements and bank reconciliation, with the real statement files in
fixtures/bank (youth-gomoku-2015: entry fee 200 per athlete, 200 per team group)."""
import datetime as dt
from concurrent.futures import ThreadPoolExecutor
from decimal import Decimal

import pytest
from builders import doc, individual, person, team

from portal.config import FIXTURES

CHINA = dt.timezone(dt.timedelta(hours=8))
BANK = FIXTURES / "bank"
G = "youth-gomoku-2015"


def kid(ref, gender, born="2006-06-06"):
    return person(ref, gender, born, unit="tianjin", docs=("photo", "id_copy"))


@pytest.fixture
def actor():
    from portal.audit.services import Actor
    return Actor("财务测试", role="accountant")


@pytest.fixture
def clubs(db, actor):
    """Four clubs entered and submitted on 1 Jul 2015, with the references the statements quote."""
    from portal.games.services import find_games
    from portal.workflow.services import import_document
    games = find_games(G)
    club = lambda name: {"name": name, "kind": "club"}
    a = doc(G, unit=club("南开少儿棋校"), people=[kid("b", "M"), kid("g", "F")],
            entries=[individual("gomoku.MCA", "b"), individual("gomoku.WCA", "g"), team("gomoku.TCA", "b", "g")])
    b = doc(G, unit=club("河西棋院"), people=[kid("b", "M")], entries=[individual("gomoku.MCA", "b")])
    c = doc(G, unit=club("红桥棋社"), people=[kid("b", "M")], entries=[individual("gomoku.MCA", "b")])
    d = doc(G, unit=club("和平棋友会"), people=[kid("b", "M")], entries=[individual("gomoku.MCA", "b")])
    out = {}
    for key, document, ref in (("a", a, "ZY03000011"), ("b", b, None), ("c", c, "ZY03000029"), ("d", d, "ZY03000037")):
        result = import_document(games, document, dt.datetime(2015, 7, 1, 10, tzinfo=CHINA), actor)
        assert result.ok, result.violations
        if ref:
            result.delegation.payment_reference = ref
        out[key] = result.delegation
    db.session.commit()
    return games, out


def totals(d):
    from portal.money.services import totals as t
    return t(d)


def test_fees_charged_from_the_regulation(clubs):
    _, d = clubs
    assert totals(d["a"])["expected"] == Decimal("600.00")  # 2 athletes + 1 team group
    assert totals(d["b"])["expected"] == Decimal("200.00")


def test_each_matching_path(clubs, actor, db):
    from portal.money.models import BankLine
    from portal.money.services import account_status, import_statement
    games, d = clubs
    first = import_statement(games, (BANK / "icbc-2015-07.csv").read_bytes(), "icbc-2015-07.csv", actor)
    assert first.ok and first.imported == 3
    assert (first.reference, first.name_amount, first.unmatched) == (2, 0, 1)
    second = import_statement(games, (BANK / "ccb-2015-07.xlsx").read_bytes(), "ccb-2015-07.xlsx", actor)
    assert (second.reference, second.name_amount, second.unmatched) == (1, 1, 0)
    assert account_status(totals(d["a"])) == "paid"          # by reference in the memo
    assert account_status(totals(d["b"])) == "paid"          # by payer name and amount
    assert account_status(totals(d["c"])) == "partly_paid"   # "zy-0300-0029": dashes and case ignored
    t = totals(d["d"])
    assert account_status(t) == "refund_due" and t["balance"] == Decimal("-50.00")
    unmatched = db.session.query(BankLine).filter_by(matched_delegation_id=None).one()
    assert unmatched.payer == "张三" and unmatched.amount == Decimal("1300.00")


def test_reimport_changes_nothing(clubs, actor, db):
    from portal.money.models import LedgerEntry
    from portal.money.services import import_statement
    games, _ = clubs
    data = (BANK / "icbc-2015-07.csv").read_bytes()
    import_statement(games, data, "icbc.csv", actor)
    before = db.session.query(LedgerEntry).count()
    again = import_statement(games, data, "icbc-again.csv", actor)
    assert again.ok and again.imported == 0 and again.duplicates == 3
    assert db.session.query(LedgerEntry).count() == before


def test_the_same_line_twice_in_a_file_waits_for_the_accountants_word(clubs, actor, db):
    """Issue 25, 8: two identical lines in one file were booked as two payments with no hint.
    The second is a possible duplicate: kept out of the books until the accountant says it is
    a payment of its own, then matched like any other line."""
    from portal.money.models import BankLine
    from portal.money.services import assign_line, decide_duplicate, import_statement
    games, d = clubs
    out = import_statement(games, (BANK / "icbc-2015-07-duplicate-lines.csv").read_bytes(), "dup.csv", actor)
    assert out.imported == 2 and out.possible_duplicates == 1
    assert totals(d["c"])["payment"] == Decimal("100.00")
    twin = db.session.query(BankLine).filter(BankLine.duplicate_of_id.is_not(None)).one()
    assert decide_duplicate(twin, False, actor).ok
    assign_line(twin, d["c"], actor)
    assert totals(d["c"])["payment"] == Decimal("200.00")


def test_malformed_rows_all_or_nothing(clubs, actor, db):
    from portal.money.models import BankLine
    from portal.money.services import import_statement
    games, d = clubs
    data = (BANK / "icbc-2015-07-malformed.csv").read_bytes()
    refused = import_statement(games, data, "bad.csv", actor, all_or_nothing=True)
    assert not refused.ok and db.session.query(BankLine).count() == 0
    assert any("第 4 行" in zh for zh, _ in refused.problems) and any("第 5 行" in zh for zh, _ in refused.problems)
    rest = import_statement(games, data, "bad.csv", actor, all_or_nothing=False)
    assert rest.ok and rest.imported == 1 and rest.bad_rows == 2
    assert totals(d["a"])["payment"] == Decimal("600.00")


def test_not_a_statement(clubs, actor):
    from portal.money.services import import_statement
    games, _ = clubs
    out = import_statement(games, "姓名,年龄\n张三,3\n".encode(), "x.csv", actor)
    assert not out.ok and "表头" in out.problems[0][0]


def test_manual_assignment(clubs, actor, db):
    from portal.money.models import BankLine
    from portal.money.services import assign_line, import_statement
    games, d = clubs
    import_statement(games, (BANK / "icbc-2015-07.csv").read_bytes(), "icbc.csv", actor)
    line = db.session.query(BankLine).filter_by(matched_delegation_id=None).one()
    assert assign_line(line, d["b"], actor).ok
    assert totals(d["b"])["payment"] == Decimal("1300.00")
    assert not assign_line(line, d["c"], actor).ok  # once only


def test_ledger_invariant_and_append_only(clubs, actor, db):
    from portal.money.models import LedgerEntry
    from portal.money.services import import_statement, post
    games, d = clubs
    import_statement(games, (BANK / "ccb-2015-07.xlsx").read_bytes(), "ccb.xlsx", actor)
    post(d["d"], "refund", Decimal("50"), "退多付款", actor)
    db.session.commit()
    for dl in d.values():
        rows = db.session.query(LedgerEntry).filter_by(delegation_id=dl.id).all()
        s = lambda k, rows=rows: sum((r.amount for r in rows if r.kind == k), Decimal("0"))
        assert totals(dl)["balance"] == s("charge") - s("credit") - s("payment") + s("refund")
    assert totals(d["d"])["balance"] == Decimal("0.00")
    entry = db.session.query(LedgerEntry).first()
    entry.amount = Decimal("1.00")
    with pytest.raises(RuntimeError, match="append-only"):
        db.session.flush()
    db.session.rollback()


def test_entry_valid_only_when_the_fee_arrived_by_8_july(clubs, actor):
    from portal.money.services import entry_valid, post
    _, d = clubs
    assert entry_valid(d["b"]) is False
    post(d["b"], "payment", Decimal("200"), "到账", actor, value_date=dt.date(2015, 7, 9))
    assert entry_valid(d["b"]) is False  # arrived after the deadline
    post(d["c"], "payment", Decimal("200"), "到账", actor, value_date=dt.date(2015, 7, 8))
    assert entry_valid(d["c"]) is True


def test_statement_files(clubs, app):
    from portal.money import statement
    _, d = clubs
    data = statement.statement(d["a"])
    assert data["reference"] == "ZY03000011" and data["payee"]["account"] == "6222020302059638775"
    assert statement.to_pdf(data, "对账单").startswith(b"%PDF")
    import io

    from openpyxl import load_workbook
    wb = load_workbook(io.BytesIO(statement.to_xlsx(data, "对账单")))
    assert wb.active["B2"].value == "ZY03000011"


def test_deposit_released_after_check_in_or_forfeited_on_withdrawal(db, actor):
    from portal.games.services import find_games
    from portal.money.services import post, release_deposit
    from portal.workflow.services import import_document, withdraw
    games = find_games("shaanxi-mind-2025")
    docs_ = ("id_copy", "health_certificate", "insurance_proof", "safety_pledge")
    outs = []
    for i in range(2):
        p = person("p1", "M", f"199{i}-01-01", docs=docs_)
        outs.append(import_document(games, doc("shaanxi-mind-2025", unit=None, people=[p],
                                                entries=[individual("gomoku.OPEN", "p1")]),
                                    dt.datetime(2025, 9, 1, tzinfo=CHINA), actor).delegation)
    stays, leaves = outs
    for d in outs:
        assert totals(d)["expected"] == Decimal("100.00")
        post(d, "payment", Decimal("100"), "微信转账", actor)
    release_deposit(stays, actor)
    assert totals(stays)["balance"] == Decimal("-100.00")  # refund due
    withdraw(leaves, None, False, actor, dt.datetime(2025, 9, 18, tzinfo=CHINA))
    assert release_deposit(leaves, actor) is None
    assert totals(leaves)["balance"] == Decimal("0.00")


def test_rooms_follow_the_stay_rules(clubs, actor):
    from portal.money.services import request_rooms
    _, d = clubs
    early = request_rooms(d["a"], "hotel_twin", dt.date(2015, 7, 13), dt.date(2015, 7, 17), 1, 2, actor)
    assert not early.ok and "提前报到" in early.message[0]
    ok = request_rooms(d["a"], "hotel_twin", dt.date(2015, 7, 14), dt.date(2015, 7, 17), 1, 2, actor)
    assert ok.ok
    # 4 nights x 2 people x 280
    assert totals(d["a"])["expected"] == Decimal("600.00") + Decimal("2240.00")


def test_rooms_never_oversold_under_concurrent_requests(app, clubs, actor):
    from portal.delegations.models import Delegation
    from portal.extensions import db as _db
    from portal.money.models import RoomRequest
    from portal.money.services import request_rooms
    games, d = clubs
    ids = [x.id for x in d.values()] * 10  # 40 requests of 1 room for 30 rooms

    def book(delegation_id):
        with app.app_context():
            dl = _db.session.get(Delegation, delegation_id)
            return request_rooms(dl, "apt_king", dt.date(2015, 7, 14), dt.date(2015, 7, 14), 1, 1, actor).status

    with ThreadPoolExecutor(max_workers=10) as pool:
        statuses = list(pool.map(book, ids))
    assert statuses.count("allocated") == 30 and statuses.count("waitlisted") == 10, statuses[:3]
    _db.session.rollback()  # end this session's read snapshot
    allocated = sum(r.rooms for r in _db.session.query(RoomRequest).filter_by(status="allocated", room_type="apt_king"))
    assert allocated == 30


def test_companion_warning(judge):
    people = [kid("b", "M"), kid("m1", "F", "1980-01-01"), kid("m2", "M", "1980-01-01")]
    d = doc(G, unit={"name": "x", "kind": "club"}, people=people, entries=[individual("gomoku.MCA", "b")],
            companions=[{"person": "m1", "accompanies": "b"}, {"person": "m2", "accompanies": "b"}])
    found = judge(d)
    assert [v.code for v in found] == ["COMPANION_EXCESS"] and found[0].severity == "warning"


def test_unpaid_entries_are_left_out_of_the_pairing_list(clubs, actor, db):
    from portal.money.services import import_statement
    from portal.workflow.exports import entry_rows
    games, d = clubs
    import_statement(games, (BANK / "ccb-2015-07.xlsx").read_bytes(), "ccb.xlsx", actor)  # pays b and d
    units = {row[0] for row in entry_rows(games, "gomoku.MCA")[1]}
    assert units == {"河西棋院", "和平棋友会"}


def test_signed_amount_with_a_credit_flag(clubs, actor):
    from portal.money.services import import_statement
    games, d = clubs
    out = import_statement(games, (BANK / "boc-2015-07-signed.csv").read_bytes(), "boc.csv", actor)
    assert out.ok and out.imported == 2 and (out.reference, out.name_amount) == (1, 1)
    assert totals(d["a"])["payment"] == Decimal("600.00") and totals(d["b"])["payment"] == Decimal("200.00")


def test_a_payer_who_is_not_the_unit_is_flagged_on_a_reference_match():
    """Issue 25, 8: matched by the reference, paid by another club: the accountant is told."""
    from portal.money.services import payer_fits
    assert payer_fits("南开区少儿棋校", "南开区少儿棋校") and payer_fits("李明", "红桥棋社")  # a person: the contact
    assert payer_fits("天津市南开区少儿棋校", "南开区少儿棋校")
    assert not payer_fits("河西棋院有限公司", "南开区少儿棋校")
