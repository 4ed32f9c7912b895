"""A cap on the events one player enters ("每名运动员最多兼报两项", "每人限报一项"): the
`one_of` kind with `max_events`, from the engine to the fixture, the regulation's text and
the set-up screens."""
from __future__ import annotations

import pytest
import yaml
from builders import account, logged_in
from conftest import codes
from test_rule_kinds import d, games, judge, players, team_of
from test_setup_screens import _games, _get, _post

from portal.rules.proposals import propose
from portal.rules.readback import read_back

XIANGQI = ["xiangqi.MI", "xiangqi.T", "bridge.MT"]


def _two_of_three(**extra):
    return games([{"kind": "one_of", "clause": "五(三)", "events": XIANGQI, "max_events": 2, **extra}])


def test_a_player_enters_at_most_two_of_the_events_listed():
    """象棋、桥牌: 每名运动员最多兼报两项。"""
    g = _two_of_three()
    four = players(4)
    refs = [p["ref"] for p in four]
    two = [{"event": "xiangqi.MI", "people": ["p1"]}, team_of("xiangqi.T", refs), team_of("bridge.MT", ["p2", "p3", "p4"])]
    assert codes(judge(g, d(four, two))) == []  # p1 plays two, the others two as well
    three = [two[0], two[1], team_of("bridge.MT", refs)]  # p1 in all three
    found = [v for v in judge(g, d(four, three)) if v.code == "DOUBLE_ENTRY"]
    assert [v.people for v in found] == [("p1",)]
    [v] = found
    assert "共 3 项" in v.zh and "每人最多报 2 项" in v.zh and "请去掉 1 项" in v.zh and "只能报其中一项" not in v.zh
    assert "at most 2 of these events" in v.en and "Remove 1" in v.en
    assert v.event == "bridge.MT"  # the event beyond the limit, where the leader looks for it


def test_one_event_each_is_still_the_rule_when_no_number_is_given():
    g = games([{"kind": "one_of", "events": ["xiangqi.MI", "xiangqi.T"]}])
    four = players(4)
    entries = [{"event": "xiangqi.MI", "people": ["p1"]}, team_of("xiangqi.T", [p["ref"] for p in four])]
    [v] = [v for v in judge(g, d(four, entries)) if v.code == "DOUBLE_ENTRY"]
    assert "每人只能报其中一项" in v.zh and "Keep one" in v.en


def test_the_read_back_says_the_number():
    lines = [x.zh for x in read_back(_two_of_three()) if x.section == "rules"]
    assert any("中每名选手最多报 2 项" in line for line in lines), lines
    lines = [x.en for x in read_back(_two_of_three(says={"zh": "兼项须在赛程允许时", "en": "as the schedule allows"}))
             if x.section == "rules"]
    assert any(line.startswith("As the schedule allows: a player enters at most 2 of") for line in lines), lines


def test_a_limit_that_forbids_nothing_is_refused_in_words_at_load(tmp_path):
    from portal.config import FIXTURES
    from portal.games.services import FixtureError, read_fixture
    data = yaml.safe_load((FIXTURES / "games" / "youth-gomoku-2015.yaml").read_text(encoding="utf-8"))
    data["rules"].append({"kind": "one_of", "events": ["gomoku.MJA", "gomoku.TJA"], "max_events": 2})
    bad = tmp_path / "next-year.yaml"
    bad.write_text(yaml.safe_dump(data, allow_unicode=True), encoding="utf-8")
    with pytest.raises(FixtureError) as caught:
        read_fixture(bad)
    text = str(caught.value)
    assert f"rules[{len(data['rules']) - 1}]: 每人最多报 2 项，而所列项目只有 2 个" in text
    assert "the rule limits nothing" in text and "Value error" not in text


@pytest.mark.parametrize("sentence, most", [("每名运动员限报一项。", 1), ("每人最多可兼报2个项目。", 2),
                                            ("每位选手只能参加一个单项的比赛。", 1), ("每名棋手最多报名参加两个项目。", 2)])
def test_the_regulations_words_are_proposed(sentence, most):
    [p] = propose("五、参赛办法\n（三）" + sentence)
    assert p.kind == "events_per_player" and p.values == {"max_events": most} and p.ref == "五(三)"


def test_a_quota_of_people_and_a_players_own_limit_are_told_apart():
    assert [p.kind for p in propose("每单位限报4人。每名运动员只能代表一个单位参赛。")] == ["quota"]


def test_the_committee_takes_the_proposal_into_the_rule_form_and_saves_it(app, db):
    with app.app_context():
        account("root", "admin", name="管理员")
        db.session.commit()
    admin = logged_in(app, "root")
    assert _post(app, admin, "/org/games/new", {"slug": "gomoku-2017", "name_zh": "2017年五子棋锦标赛",
                                                "name_en": "2017 Gomoku", "copy_of": "youth-gomoku-2015",
                                                "years_later": "2"}).status_code == 302
    setup = "/org/games/gomoku-2017/setup"
    text = "八、参赛办法\n（三）每名运动员最多可兼报两个项目。\n"
    assert _post(app, admin, setup + "/regulation-text", {"text": text}, page=setup).status_code == 302
    page = _get(app, admin, setup + "/proposals").get_data(as_text=True)
    assert "每名选手最多报 2 项（请选择项目）" in page and "规程 八(三)" in page
    link = "/org/games/gomoku-2017/setup/rules/new?kind=one_of&amp;p_max_events=2&amp;p_clause=%E5%85%AB%28%E4%B8%89%29"
    assert link in page
    form = _get(app, admin, link.replace("&amp;", "&")).get_data(as_text=True)
    assert "每人最多报几项" in form and 'value="2"' in form
    # Two events listed for a limit of two: refused on the form, in words, nothing saved.
    rules = setup + "/rules/new?kind=one_of"
    r = _post(app, admin, rules, {"op": "save", "p_events": ["gomoku.MJA", "gomoku.TJA"], "p_max_events": "2"})
    assert r.status_code == 422 and "这条规则什么也不限制" in r.get_data(as_text=True)
    r = _post(app, admin, rules, {"op": "save", "p_events": ["gomoku.MJA", "gomoku.MJB", "gomoku.TJA"],
                                  "p_max_events": "2", "p_clause": "八(三)"})
    assert r.status_code == 302, r.get_data(as_text=True)[:2000]
    readback = _get(app, admin, "/org/games/gomoku-2017/regulation").get_data(as_text=True)
    assert "中每名选手最多报 2 项" in readback and "八(三)" in readback
    assert "已与设置一致" in _get(app, admin, setup + "/proposals").get_data(as_text=True)
    with app.app_context():
        from portal.games.services import definition_of
        from portal.rules.definition import OneOfRule
        assert [r.max_events for r in definition_of(_games("gomoku-2017")).rules_of(OneOfRule)] == [1, 2]
