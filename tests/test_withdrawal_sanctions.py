"""Withdrawals and forfeits as regulations write them (issue 36, 4), on a real database: a
notice deadline with its hour, the unit losing its place in the unit tables, and the series'
ladder of forfeits (the first a warning, the second barring the player from the next
edition, where his entry is refused)."""
from __future__ import annotations

import datetime as dt

import pytest
import yaml
from builders import person

CHINA = dt.timezone(dt.timedelta(hours=8))
AT = dt.datetime(2026, 5, 1, 10, tzinfo=CHINA)
SANCTIONS = {"notice_hours": 24, "loses_award_eligibility": True, "clause": "十(三)",
             "forfeits": [{"count": 1, "sanction": "warning"}, {"count": 2, "sanction": "barred_next_edition"}]}


def _games(tmp_path, slug, edition):
    from portal.games.services import load_games
    data = {"slug": slug, "series": "league", "edition": edition, "name": {"zh": f"联赛第{edition}届", "en": f"League {edition}"},
            "dates": {"start": f"{2025 + edition}-07-01", "end": f"{2025 + edition}-07-05"},
            "participation": {"unit_kinds": ["province"]},
            "sports": [{"code": "go", "name": {"zh": "围棋", "en": "Go"}}],
            "events": [{"code": "go.MI", "sport": "go", "gender": "X", "kind": "individual", "name": {"zh": "个人", "en": "Individual"},
                        "sessions": [{"start": f"{2025 + edition}-07-01T09:00:00+08:00",
                                      "end": f"{2025 + edition}-07-01T17:00:00+08:00"}]}],
            "competition": [{"kind": "rounds", "count": 7}],
            "awards": [{"kind": "points", "table": ["9", "7", "5"]}],
            "sanctions": SANCTIONS}
    path = tmp_path / f"{slug}.yaml"
    path.write_text(yaml.safe_dump(data, allow_unicode=True), encoding="utf-8")
    return load_games(str(path))


def _doc(slug, people, unit="zhejiang"):
    return {"format": "delegation/1", "games": slug, "unit": unit, "declarations": [], "people": people,
            "entries": [{"event": "go.MI", "people": [p["ref"] for p in people]}],
            "officials": [], "staff": [], "companions": []}


@pytest.fixture
def league(db, tmp_path):
    first, second = _games(tmp_path, "league-2026", 1), _games(tmp_path, "league-2027", 2)
    yield first, second
    for g in (first, second):
        db.session.delete(g)
    db.session.commit()


def test_a_withdrawal_announced_too_late_is_unexcused_and_the_unit_leaves_the_tables(league, db):
    from portal.audit.services import Actor
    from portal.results.services import Line, enter_results, games_standings
    from portal.workflow.services import approve, import_document, withdraw
    first, _second = league
    ours = import_document(first, _doc("league-2026", [person("a", name="甲")]), AT, Actor("t")).delegation
    theirs = import_document(first, _doc("league-2026", [person("b", name="乙", unit="jiangsu", area="320102")],
                                         unit="jiangsu"), AT, Actor("t")).delegation
    for d in (ours, theirs):
        assert approve(d, Actor("组委会"), AT).ok
    db.session.commit()
    assert enter_results(first, "go.MI", [Line(1, place=1, name="甲"), Line(2, place=2, name="乙")], Actor("裁判长")).ok
    # 30 June 12:00 is 21 hours before the first session (1 July 09:00): too late for 24 hours' notice
    out = withdraw(theirs, None, True, Actor("组委会"), dt.datetime(2026, 6, 30, 12, tzinfo=CHINA), "临时有事")
    assert out.ok and "未在赛前 24 小时通知（截至 2026-06-30 09:00），按无故退出处理" in out.message[0]
    assert "本单位失去本届团体总分和奖牌榜的录取资格" in out.message[0]
    db.session.commit()
    table = games_standings(first).table
    assert [row.unit for row in table] == [str(ours.id)]


def test_the_second_forfeit_in_the_series_bars_the_player_from_the_next_edition(league, db):
    from portal.audit.services import Actor
    from portal.delegations.services import check_document
    from portal.register.models import PlayerSanction
    from portal.results.entrants import players
    from portal.results.pairing import record_absences
    from portal.rules.awards import Rounds
    from portal.workflow.services import approve, import_document
    first, second = league
    a, b = person("a", name="甲"), person("b", name="乙")
    d = import_document(first, _doc("league-2026", [a, b]), AT, Actor("t")).delegation
    assert approve(d, Actor("组委会"), AT).ok
    db.session.commit()
    listed, _left = players(first, "go.MI")
    key = {p.name: p.key for p in listed}
    rule = Rounds(kind="rounds", count=7)
    assert record_absences(first, "go.MI", rule, listed, {f"{key['甲']}:3"}, Actor("裁判长")).ok
    kinds = {s.kind for s in db.session.query(PlayerSanction)}
    assert kinds == {"warning"}
    rep, _ = check_document(_doc("league-2027", [a, b]), dt.datetime(2027, 5, 1, tzinfo=CHINA))
    assert not [v for v in rep["violations"] if v["code"] == "SANCTIONED"]
    assert record_absences(first, "go.MI", rule, listed, {f"{key['甲']}:3", f"{key['甲']}:5"}, Actor("裁判长")).ok
    rep, status = check_document(_doc("league-2027", [a, b]), dt.datetime(2027, 5, 1, tzinfo=CHINA))
    barred = [v for v in rep["violations"] if v["code"] == "SANCTIONED"]
    assert [v["people"] for v in barred] == [["a"]] and status == 1
    assert "截至联赛第1届已无故弃权 2 次（规程 十(三)）" in barred[0]["message"]["zh"]
    # an absence struck off lifts the sanction it led to
    assert record_absences(first, "go.MI", rule, listed, set(), Actor("裁判长")).ok
    rep, _ = check_document(_doc("league-2027", [a, b]), dt.datetime(2027, 5, 1, tzinfo=CHINA))
    assert not [v for v in rep["violations"] if v["code"] == "SANCTIONED"]


def _deposit_games(tmp_path):
    from portal.games.services import load_games
    data = {"slug": "deposit-2026", "series": "deposit", "edition": 1, "name": {"zh": "保证金赛", "en": "Deposit Games"},
            "dates": {"start": "2026-07-01", "end": "2026-07-05"}, "participation": {"unit_kinds": ["province"]},
            "sports": [{"code": "go", "name": {"zh": "围棋", "en": "Go"}}],
            "events": [{"code": "go.MI", "sport": "go", "gender": "X", "kind": "individual",
                        "name": {"zh": "个人", "en": "Individual"}}],
            "competition": [{"kind": "rounds", "count": 7}],
            "document_kinds": [{"code": "withdrawal_letter", "name": {"zh": "书面退赛说明", "en": "written explanation"}}],
            "sanctions": {"explanation": "withdrawal_letter"},
            "money": {"fees": [{"code": "deposit", "name": {"zh": "保证金", "en": "Deposit"}, "amount": "100.00",
                                "per": "entrant", "refundable": "after_event", "forfeited_on": ["unfinished", "misconduct"]}]}}
    path = tmp_path / "deposit-2026.yaml"
    path.write_text(yaml.safe_dump(data, allow_unicode=True), encoding="utf-8")
    return load_games(str(path))


def test_deposits_come_back_after_play_but_not_a_players_who_left_or_a_units_that_broke_the_rules(db, tmp_path):
    from sqlalchemy import select

    from portal.audit.services import Actor
    from portal.games.services import definition_of
    from portal.money.models import LedgerEntry
    from portal.money.services import settle_deposits_after_event
    from portal.results.entrants import players
    from portal.results.pairing import record_absences
    from portal.rules.awards import Rounds
    from portal.rules.readback import read_back
    from portal.workflow.services import approve, import_document
    games = _deposit_games(tmp_path)
    ours = import_document(games, _doc("deposit-2026", [person("a", name="甲"), person("b", name="乙")]), AT,
                           Actor("t")).delegation
    theirs = import_document(games, _doc("deposit-2026", [person("c", name="丙", unit="jiangsu", area="320102")],
                                         unit="jiangsu"), AT, Actor("t")).delegation
    for d in (ours, theirs):
        assert approve(d, Actor("组委会"), AT).ok
    db.session.commit()
    listed, _left = players(games, "go.MI")
    key = {p.name: p.key for p in listed}
    assert record_absences(games, "go.MI", Rounds(kind="rounds", count=7), listed, {f"{key['乙']}:6"}, Actor("裁判长")).ok
    out = settle_deposits_after_event(games, Actor("组委会"), {theirs.id: "赛场喧哗，经警告不改"})
    assert out.ok and "退还 ¥100.00，不予退还 ¥200.00" in out.message[0]
    rows = {(e.delegation_id, e.kind): e for e in db.session.scalars(select(LedgerEntry).where(LedgerEntry.fee_code == "deposit"))}
    assert rows[(ours.id, "forfeit")].amount == 100 and "未下完全部轮次：乙" in rows[(ours.id, "forfeit")].description
    assert rows[(ours.id, "credit")].amount == 100
    assert "违反赛风赛纪：赛场喧哗" in rows[(theirs.id, "forfeit")].description and (theirs.id, "credit") not in rows
    again = settle_deposits_after_event(games, Actor("组委会"), {})
    assert again.ok and "退还 ¥0.00，不予退还 ¥0.00" in again.message[0]
    money = [x.zh for x in read_back(definition_of(games)) if x.section == "money"]
    assert "保证金：每名参赛者 100.00 元，比赛结束后退还；未下完全部轮次（按人计）、违反赛风赛纪者不予退还" in money


def test_an_excused_withdrawal_needs_the_units_written_explanation_first(db, tmp_path):
    from portal.audit.services import Actor
    from portal.delegations.saving import add_delegation_document
    from portal.workflow.services import import_document, withdraw
    games = _deposit_games(tmp_path)
    d = import_document(games, _doc("deposit-2026", [person("a", name="甲")]), AT, Actor("t")).delegation
    db.session.commit()
    refused = withdraw(d, None, True, Actor("组委会"), AT, "生病")
    assert not refused.ok and "须先由领队在报名首页上传书面退赛说明" in refused.message[0]
    pdf = b"%PDF-1.4\n1 0 obj<<>>endobj\ntrailer<<>>\n%%EOF\n"
    assert add_delegation_document(d, "withdrawal_letter", pdf, "说明.pdf", Actor("领队")).ok
    assert withdraw(d, None, True, Actor("组委会"), AT, "生病").ok
