"""More for a unit placed at the previous edition (上届前三名的单位可多报1人; 上届前三名的单位可
增报1队): from the engine, and on a real database from the last edition's results to the
leader's judgement, the organisers' overview and a document checked, each alike."""
import datetime as dt

import pytest
from builders import person
from test_rule_kinds import AT, d, games, players, team_of

from portal.rules.readback import read_back

BONUS = {"top": 3, "extra": 1}


def _judge(definition, document, placed):
    from portal.rules import check_delegation, parse_document
    parsed, _ = parse_document(document)
    return [v for v in check_delegation(definition, parsed, at=AT, placed_before=placed)
            if v.code in ("QUOTA_EXCEEDED", "TEAM_LIMIT")]


def test_a_unit_placed_in_the_first_three_enters_one_more():
    g = games([{"kind": "quota", "events": ["xiangqi.MI"], "max": 2, "placed_bonus": BONUS, "clause": "五(二)"}])
    three = players(3)
    document = d(three, [{"event": "xiangqi.MI", "people": ["p1", "p2", "p3"]}])
    assert _judge(g, document, {"xiangqi.MI": 3}) == []
    [v] = _judge(g, document, {"xiangqi.MI": 4})  # fourth: no more
    assert "每单位最多报 2 人，现报了 3 人" in v.zh
    assert _judge(g, document, None)[0].code == "QUOTA_EXCEEDED"  # judged alone: nothing known of last edition
    four = players(4)
    [v] = _judge(g, d(four, [{"event": "xiangqi.MI", "people": ["p1", "p2", "p3", "p4"]}]), {"xiangqi.MI": 1})
    assert "本单位（上届名次靠前，多报 1 人）最多报 3 人，现报了 4 人" in v.zh and "last edition's place" in v.en


def test_one_more_team_for_a_place_in_another_event_the_bonus_names():
    g = games([{"kind": "team_makeup", "events": ["bridge.MT"], "max_teams": 1,
                "placed_bonus": {"top": 6, "extra": 1, "events": ["bridge.OP"]}}])
    eight = players(8)
    two = [team_of("bridge.MT", [p["ref"] for p in eight[:4]], "A"), team_of("bridge.MT", [p["ref"] for p in eight[4:]], "B")]
    assert _judge(g, d(eight, two), {"bridge.OP": 6}) == []
    [v] = _judge(g, d(eight, two), {"bridge.MT": 1})  # placed, but not in the event the bonus names
    assert v.code == "TEAM_LIMIT" and "只能报 1 支队" in v.zh
    lines = [x.zh for x in read_back(g) if x.section == "rules"]
    assert any("上届桥牌公开双人前 6 名的单位可多报 1 队" in line for line in lines), lines


def test_the_read_back_of_a_quota_and_a_bonus_without_a_team_limit_is_refused():
    g = games([{"kind": "quota", "events": ["xiangqi.MI"], "max": 2, "placed_bonus": BONUS}])
    assert any(x.zh.endswith("；上届该项目前 3 名的单位可多报 1 人") for x in read_back(g) if x.section == "rules")
    from pydantic import ValidationError
    with pytest.raises(ValidationError, match="max_teams"):
        games([{"kind": "team_makeup", "events": ["bridge.MT"], "placed_bonus": BONUS}])


def test_last_editions_results_give_the_bonus_on_every_path(app, db, tmp_path):
    from test_player_register import _doc, _games

    from portal.audit.services import Actor
    from portal.delegations.judged import stored_violations
    from portal.delegations.services import check_document, export_document, judge_many
    from portal.results.services import Line, enter_results
    from portal.workflow.services import approve, import_document
    at = dt.datetime(2026, 5, 1, 10, tzinfo=dt.timezone(dt.timedelta(hours=8)))
    rule = {"kind": "quota", "events": ["xiangqi.MI"], "max": 1, "placed_bonus": {"top": 1, "extra": 1}, "clause": "五(二)"}
    last = _games(tmp_path, "xq-2025", "xq", rules=[])
    this = _games(tmp_path, "xq-2026", "xq", rules=[rule])
    this.edition, last.edition = 2026, 2025
    db.session.commit()
    for unit, name in (("zhejiang", "甲"), ("jiangsu", "乙")):
        out = import_document(last, _doc("xq-2025", [person(f"{unit}1", "M", name=name)], unit=unit), at, Actor("t"))
        assert out.ok, out.violations
        assert approve(out.delegation, Actor("组委会"), at).ok
    db.session.commit()
    assert enter_results(last, "xiangqi.MI", [Line(1, place=1, name="甲"), Line(2, place=2, name="乙")],
                         Actor("裁判长")).ok
    db.session.commit()
    two = [person("a", "M", name="丙"), person("b", "M", name="丁")]
    # The champion's unit enters two (the import judges as the workspace does); the second's one.
    out = import_document(this, _doc("xq-2026", two, unit="zhejiang"), at, Actor("t"))
    assert out.ok, out.violations
    zhejiang = out.delegation
    db.session.commit()
    assert not [v for v in stored_violations(zhejiang, export_document(zhejiang), at, reveal=False)
                if v.code == "QUOTA_EXCEEDED"]
    assert not [v for v in judge_many(this, [zhejiang], at)[zhejiang.id] if v.code == "QUOTA_EXCEEDED"]
    others = [person("c", "M", name="戊"), person("e", "M", name="己")]
    rep, _ = check_document(_doc("xq-2026", others, unit="jiangsu"), at)
    assert [v["code"] for v in rep["violations"] if v["code"] == "QUOTA_EXCEEDED"] == ["QUOTA_EXCEEDED"]
    refused = import_document(this, _doc("xq-2026", others, unit="jiangsu"), at, Actor("t"))
    assert not refused.ok and "QUOTA_EXCEEDED" in [v.code for v in refused.violations]
    jiangsu = import_document(this, _doc("xq-2026", others[:1], unit="jiangsu"), at, Actor("t")).delegation
    db.session.commit()
    # The entries page says the number the check counts: 限报 2 for the champion's unit, 1 for the second's.
    from portal.delegations.workspace import Workspace
    with app.test_request_context():
        assert [(Workspace(x, at=at).quota("xiangqi.MI"), Workspace(x, at=at).most_athletes("xiangqi.MI"))
                for x in (zhejiang, jiangsu)] == [(2, 2), (1, 1)]


def test_the_declaration_of_a_placed_unit_takes_its_bonus():
    """第一次报名: a unit placed last edition declares the larger number without refusal."""
    g = games([{"kind": "quota", "events": ["xiangqi.MI"], "max": 2, "placed_bonus": BONUS}])
    from builders import doc
    document = doc("test-games", people=[], entries=[], declarations=[{"event": "xiangqi.MI", "count": 3}])
    assert _judge(g, document, {"xiangqi.MI": 2}) == []
    assert [v.code for v in _judge(g, document, {})] == ["QUOTA_EXCEEDED"]
