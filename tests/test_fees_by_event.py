"""Fees as regulations charge them event by event (报名费每人每项100元; 个人赛报名费每人200元，
团体赛每队500元): a fee per athlete per individual event, and a fee per athlete, team or team
group for the events it names only; the same count on the leader's statement and in the
"valid once paid by the deadline" check."""
import datetime as dt
from decimal import Decimal

import pytest
from builders import person
from test_rule_kinds import d, games, team_of

from portal.rules.readback import read_back

ENTRY = {"zh": "报名费", "en": "Entry fee"}


def _fees(*fees):
    return games([], money={"fees": list(fees)})


def _doc():
    people = [person("p1"), person("p2"), person("p3"), person("p4"), person("w1", "F")]
    return d(people, [{"event": "xiangqi.MI", "people": ["p1", "p2"]}, {"event": "xiangqi.WI", "people": ["w1"]},
                      team_of("xiangqi.T", ["p1", "p3", "p4"]), team_of("bridge.MT", ["p2", "p3", "p4", "p1"])])


def test_a_fee_per_athlete_per_individual_event(app):
    from portal.money.services import fees_under
    definition = _fees({"code": "entry", "name": ENTRY, "amount": "100", "per": "individual_entry"})
    with app.app_context():
        fees = fees_under(definition, _doc(), True, [])
    assert fees["entry"][:2] == (3, Decimal("100"))  # p1 and p2 in 男子个人, w1 in 女子个人; teams not


def test_fees_for_the_events_they_name_only(app):
    from portal.money.services import fees_under
    definition = _fees(
        {"code": "individual", "name": ENTRY, "amount": "200", "per": "athlete", "events": ["xiangqi.MI", "xiangqi.WI"]},
        {"code": "xq-team", "name": {"zh": "象棋团体报名费", "en": "Xiangqi team fee"}, "amount": "500",
         "per": "team_entry", "events": ["xiangqi.T"]},
        {"code": "all", "name": {"zh": "资料费", "en": "Papers"}, "amount": "10", "per": "athlete"})
    with app.app_context():
        fees = fees_under(definition, _doc(), True, [])
    assert fees["individual"][0] == 3 and fees["xq-team"][0] == 1 and fees["all"][0] == 5


def test_the_read_back_names_the_events_and_a_fee_that_cannot_be_by_event_is_refused():
    definition = _fees({"code": "individual", "name": ENTRY, "amount": "200", "per": "individual_entry",
                        "events": ["xiangqi.MI", "xiangqi.WI"]})
    [line] = [x for x in read_back(definition) if x.section == "money"]
    assert line.zh == "报名费：象棋男子个人、象棋女子个人每人每项 200 元"
    assert line.en.startswith("Entry fee: ¥200 per athlete per event in ")
    from pydantic import ValidationError
    with pytest.raises(ValidationError, match="only a fee per athlete"):
        _fees({"code": "appeal", "name": ENTRY, "amount": "500", "per": "appeal", "events": ["xiangqi.MI"]})
    with pytest.raises(ValidationError, match="unknown event"):
        _fees({"code": "entry", "name": ENTRY, "amount": "100", "per": "athlete", "events": ["xiangqi.NOPE"]})


def test_an_entry_paid_by_the_deadline_is_counted_per_entry_as_its_statement_is(app, db, tmp_path):
    """The "valid once paid" check counts from the stored entries as the statement does."""
    from test_player_register import _games

    from portal.audit.services import Actor
    from portal.money.services import entry_valid, expected_fees, post
    from portal.workflow.services import import_document
    games = _games(tmp_path, "fee-2026", "fee", money={
        "fees": [{"code": "entry", "name": ENTRY, "amount": "100", "per": "individual_entry"}],
        "entry_valid_when_paid": True}, stages={"names_closes": "2026-06-01T00:00:00+08:00"})
    at = dt.datetime(2026, 5, 1, 10, tzinfo=dt.timezone(dt.timedelta(hours=8)))
    people = [person("a", "M", name="甲"), person("b", "M", name="乙")]
    document = {"format": "delegation/1", "games": "fee-2026", "unit": "zhejiang", "declarations": [],
                "people": people, "entries": [{"event": "xiangqi.MI", "people": ["a", "b"]}],
                "officials": [], "staff": [], "companions": []}
    out = import_document(games, document, at, Actor("t"))
    assert out.ok, out.violations
    delegation = out.delegation
    assert expected_fees(delegation)["entry"][:2] == (2, Decimal("100"))
    post(delegation, "payment", Decimal("100"), "到账", Actor("财务"), value_date=dt.date(2026, 5, 20))
    assert entry_valid(delegation) is False  # 100 of 200
    post(delegation, "payment", Decimal("100"), "到账", Actor("财务"), value_date=dt.date(2026, 5, 31))
    assert entry_valid(delegation) is True


def test_the_committee_sets_a_fee_per_entry_for_some_events_in_the_screens(app, db):
    from builders import account, logged_in
    from test_setup_screens import _games, _get, _post
    with app.app_context():
        account("root", "admin", name="管理员")
        db.session.commit()
    admin = logged_in(app, "root")
    assert _post(app, admin, "/org/games/new", {"slug": "fees-2017", "name_zh": "2017年五子棋锦标赛",
                                                "name_en": "2017 Gomoku", "copy_of": "youth-gomoku-2015",
                                                "years_later": "2"}).status_code == 302
    base = "/org/games/fees-2017/setup"
    form = _get(app, admin, base + "/list/fees/new").get_data(as_text=True)
    assert "每人每项" in form and 'name="p_events"' in form
    r = _post(app, admin, base + "/list/fees/new", {"op": "save", "p_code": "per-entry", "p_name_zh": "报名费",
                                                   "p_name_en": "Entry fee", "p_amount": "100", "p_per": "individual_entry",
                                                   "p_events": ["gomoku.MJA", "gomoku.WJA"]}, page=base)
    assert r.status_code == 302, r.get_data(as_text=True)[:2000]
    page = _get(app, admin, base).get_data(as_text=True)
    assert "报名费 100.00 元（每人每项：五子棋男子少年甲组、五子棋女子少年甲组）" in page
    assert _games("fees-2017").definition["money"]["fees"][-1]["events"] == ["gomoku.MJA", "gomoku.WJA"]
    refused = _post(app, admin, base + "/list/fees/new", {"op": "save", "p_code": "appeal2", "p_name_zh": "申诉费",
                                                         "p_amount": "500", "p_per": "appeal", "p_events": ["gomoku.MJA"]},
                    page=base)
    assert refused.status_code == 422 and "才能限定项目" in refused.get_data(as_text=True)
