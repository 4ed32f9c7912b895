"""Limits across a unit's events: the events one player enters ("每名运动员最多兼报两项",
`one_of` with `max_events`) and the athletes of a unit in all events together ("每单位运动员
总数不超过12人", `quota` with `per: unit`), from the engine to the fixture, the regulation's
text and the set-up screens."""
from __future__ import annotations

import pytest
import yaml
from builders import account, logged_in
from conftest import codes
from test_rule_kinds import AT, d, games, judge, players, team_of
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


def _unit_cap(**rule):
    return games([{"kind": "quota", "per": "unit", "max": 5, "clause": "四(一)", **rule}])


def test_a_units_athletes_in_all_events_together_each_counted_once():
    """每单位运动员总数不超过5人（一人兼项只算一人）."""
    g = _unit_cap()
    five = players(5)
    refs = [p["ref"] for p in five]
    entries = [{"event": "xiangqi.MI", "people": refs[:3]}, team_of("xiangqi.T", refs[:4]), team_of("bridge.MT", refs[1:])]
    assert codes(judge(g, d(five, entries))) == []  # 11 entries, 5 athletes
    six = players(6)
    [v] = judge(g, d(six, [*entries, {"event": "xiangqi.MI", "people": ["p6"]}]))
    assert v.code == "QUOTA_EXCEEDED" and v.people == tuple(p["ref"] for p in six) and v.event is None
    assert "本代表团报了运动员 6 人" in v.zh and "每单位最多报 5 人" in v.zh and "请减少 1 人" in v.zh
    assert "at most 5 per unit" in v.en and "Remove 1" in v.en


def test_a_units_total_in_the_events_it_lists_and_another_number_for_a_named_unit():
    g = _unit_cap(events=["xiangqi.MI", "xiangqi.WI"], max=2, max_by_unit={"dalian": 3})
    three = players(2) + players(1, "F", prefix="w")
    entries = [{"event": "xiangqi.MI", "people": ["p1", "p2"]}, {"event": "xiangqi.WI", "people": ["w1"]}]
    [v] = judge(g, d(three, entries))
    assert "象棋男子个人、象棋女子个人合计报了运动员 3 人" in v.zh and "3 athletes in" in v.en and "together" in v.en
    assert judge(g, d(three, entries, unit="dalian")) == []  # 大连 3 人
    # The bridge team is outside the listed events: its players are not counted.
    assert judge(g, d(players(2) + players(4, prefix="b"), [
        {"event": "xiangqi.MI", "people": ["p1", "p2"]}, team_of("bridge.MT", ["b1", "b2", "b3", "b4"])])) == []


def test_a_units_total_is_not_an_events_quota():
    from portal.rules.checks.entries import declared_max
    g = games([{"kind": "quota", "per": "unit", "max": 12},
               {"kind": "quota", "events": ["xiangqi.MI"], "max": 4}])
    assert declared_max(g, "xiangqi.MI") == 4 and declared_max(g, "xiangqi.WI") is None


def test_a_units_total_is_read_back_and_an_events_quota_needs_its_events():
    lines = [x.zh for x in read_back(_unit_cap(max=12)) if x.section == "rules"]
    assert "每单位限报运动员 12 人（各项目合计）" in lines, lines
    from pydantic import ValidationError

    from portal.games.services import _fixture_problems
    with pytest.raises(ValidationError) as caught:
        games([{"kind": "quota", "max": 4}])
    [(where, text)] = _fixture_problems(caught.value, {"rules": [{"kind": "quota", "max": 4}]})
    assert where == "rules[0]" and "请列出限报人数的项目" in text.zh and "“按”选“整个单位”" in text.zh


@pytest.mark.parametrize("sentence, most", [("每单位运动员总数不超过12人。", 12),
                                            ("各代表队参赛运动员合计不得超过8名（含替补）。", 8),
                                            ("每个代表团运动员总人数为20人。", 20)])
def test_a_units_total_is_proposed_and_an_events_quota_still_is(sentence, most):
    [p] = propose("四、参赛办法\n（一）" + sentence)
    assert (p.kind, p.values, p.ref) == ("quota", {"max": most, "per": "unit"}, "四(一)")
    [p] = propose("每单位限报4人。")
    assert p.values == {"max": 4}
    assert propose("凡运动员总数在30人(含30人)以下的代表团，可报团长1人。") == []  # staff, not a quota


def test_the_committee_sets_a_units_total_from_its_proposal(app, db):
    with app.app_context():
        account("root", "admin", name="管理员")
        db.session.commit()
    admin = logged_in(app, "root")
    assert _post(app, admin, "/org/games/new", {"slug": "gomoku-2018", "name_zh": "2018年五子棋锦标赛",
                                                "name_en": "2018 Gomoku", "copy_of": "youth-gomoku-2015",
                                                "years_later": "3"}).status_code == 302
    setup = "/org/games/gomoku-2018/setup"
    assert _post(app, admin, setup + "/regulation-text", {"text": "四、参赛办法\n（一）每单位运动员总数不超过12人。\n"},
                 page=setup).status_code == 302
    page = _get(app, admin, setup + "/proposals").get_data(as_text=True)
    assert "每单位运动员合计限报 12 人" in page
    link = "/org/games/gomoku-2018/setup/rules/new?kind=quota&p_max=12&p_per=unit&p_clause=%E5%9B%9B%28%E4%B8%80%29"
    assert link.replace("&", "&amp;") in page
    form = _get(app, admin, link).get_data(as_text=True)
    assert '<option value="unit" selected' in form.replace('selected="selected"', "selected") or \
        'value="unit" selected' in form, form[form.find("p_per"):form.find("p_per") + 400]
    r = _post(app, admin, setup + "/rules/new?kind=quota", {"op": "save", "p_per": "unit", "p_max": "12",
                                                            "p_clause": "四(一)"})
    assert r.status_code == 302, r.get_data(as_text=True)[:2000]
    readback = _get(app, admin, "/org/games/gomoku-2018/regulation").get_data(as_text=True)
    assert "每单位限报运动员 12 人（各项目合计）" in readback
    # An event's quota without its events is refused on the form, nothing saved.
    r = _post(app, admin, setup + "/rules/new?kind=quota", {"op": "save", "p_per": "event", "p_max": "4"})
    assert r.status_code == 422 and "请列出限报人数的项目" in r.get_data(as_text=True)
    with app.app_context():
        from portal.games.services import definition_of
        from portal.rules.definition import QuotaRule
        assert [(r.per, r.max) for r in definition_of(_games("gomoku-2018")).rules_of(QuotaRule)
                if r.per == "unit"] == [("unit", 12)]


def _exempt_quota(**extra):
    return games([{"kind": "quota", "events": ["xiangqi.MI"], "max": 1, "qualified_exempt": True,
                   "qualified_by": ["xq-2025"], "qualified_name": {"zh": "上届个人赛前2名", "en": "last year's first two"},
                   **extra}])


def _judged(definition, document, qualified):
    from portal.rules import check_delegation, parse_document
    parsed, _ = parse_document(document)
    return [v for v in check_delegation(definition, parsed, at=AT, qualified=qualified) if v.code == "QUOTA_EXCEEDED"]


def test_players_qualified_last_year_are_not_counted_in_the_quota():
    """个人赛每单位限报1人，上届个人赛前2名选手不占名额。"""
    three = players(3)
    document = d(three, [{"event": "xiangqi.MI", "people": ["p1", "p2", "p3"]}])
    numbers = {p["ref"]: p["id_number"] for p in three}
    both = frozenset({(numbers["p1"], "xq-2025", "xq"), (numbers["p2"], "xq-2025", "xq")})
    assert _judged(_exempt_quota(), document, both) == []  # p3 alone is counted
    [v] = _judged(_exempt_quota(), document, frozenset({(numbers["p1"], "xq-2025", "xq")}))
    assert v.people == ("p2", "p3") and "现报了 2 人" in v.zh and "另有上届个人赛前2名晋级的 选手p1 不占名额" in v.zh
    assert "qualified by last year's first two, not counted" in v.en
    # Qualified by another competition than the one the rule names: counted.
    other = frozenset({(numbers["p1"], "open-2025", "open"), (numbers["p2"], "open-2025", "open")})
    assert _judged(_exempt_quota(), document, other)[0].people == ("p1", "p2", "p3")
    # Put on the list by the organisers' hand: not counted, whichever qualifier the rule names.
    hand = frozenset({(numbers["p1"], "*", "*"), (numbers["p2"], "*", "*")})
    assert _judged(_exempt_quota(), document, hand) == []
    # Judged alone, nobody is known to have qualified: everyone is counted.
    assert _judged(_exempt_quota(), document, None)[0].people == ("p1", "p2", "p3")


def test_a_quota_that_exempts_qualifiers_is_read_back_and_bounds_no_declaration():
    from portal.rules.checks.entries import declared_max
    lines = [x.zh for x in read_back(_exempt_quota()) if x.section == "rules"]
    assert any(line.endswith("限报 1 人；上届个人赛前2名晋级的选手不占名额") for line in lines), lines
    assert declared_max(_exempt_quota(), "xiangqi.MI") is None
    with pytest.raises(Exception, match="qualified_exempt"):
        games([{"kind": "quota", "events": ["xiangqi.MI"], "max": 1, "qualified_by": ["xq-2025"]}])


def test_last_years_first_two_enter_beyond_the_quota_from_the_register(db, tmp_path):
    """On a real database: last edition's results qualify its first two for the series (its
    qualifies award); this edition's quota of one per unit does not count them."""
    import datetime as dt

    from builders import person
    from test_player_register import _doc, _games

    from portal.audit.services import Actor
    from portal.delegations.services import check_document
    from portal.results.services import Line, enter_results
    from portal.workflow.services import approve, import_document
    at = dt.datetime(2026, 5, 1, 10, tzinfo=dt.timezone(dt.timedelta(hours=8)))
    three = [person("a", "M", name="甲"), person("b", "M", name="乙"), person("c", "M", name="丙")]
    last = _games(tmp_path, "xq-2025", "xq", awards=[{"kind": "qualifies", "top": 2, "to": "xq", "clause": "八"}])
    this = _games(tmp_path, "xq-2026", "xq", rules=[
        {"kind": "quota", "events": ["xiangqi.MI"], "max": 1, "clause": "四(二)", "qualified_exempt": True,
         "qualified_by": ["xq-2025"], "qualified_name": {"zh": "上届个人赛前2名", "en": "last year's first two"}}])
    this.edition = 2
    out = import_document(last, _doc("xq-2025", three), at, Actor("t"))
    assert out.ok, out.violations
    assert approve(out.delegation, Actor("组委会"), at + dt.timedelta(hours=1)).ok
    db.session.commit()
    assert enter_results(last, "xiangqi.MI", [Line(1, place=1, name="甲"), Line(2, place=2, name="乙"),
                                              Line(3, place=3, name="丙")], Actor("裁判长")).ok
    db.session.commit()
    try:
        rep, _ = check_document(_doc("xq-2026", three), at)
        assert [v for v in rep["violations"] if v["code"] == "QUOTA_EXCEEDED"] == []
        four = [*three, person("d", "M", name="丁")]
        rep, _ = check_document(_doc("xq-2026", four), at)
        [v] = [v for v in rep["violations"] if v["code"] == "QUOTA_EXCEEDED"]
        assert v["people"] == ["c", "d"] and "另有上届个人赛前2名晋级的 甲、乙 不占名额" in v["message"]["zh"]
    finally:
        for g in (this, last):
            db.session.delete(g)
        db.session.commit()


def test_a_cap_on_each_gender_within_a_mixed_events_quota():
    """象棋个人赛（男女混合）每单位限报4人，其中女子不超过1人。"""
    events = [{"code": "xiangqi.OI", "sport": "xiangqi", "gender": "X", "kind": "individual",
               "name": {"zh": "个人赛", "en": "Individual"}}]
    g = games([{"kind": "quota", "events": ["xiangqi.OI"], "max": 4, "max_by_gender": {"F": 1}}], events=events)
    two_women = players(2) + players(2, "F", prefix="w")
    [v] = judge(g, d(two_women, [{"event": "xiangqi.OI", "people": [p["ref"] for p in two_women]}]))
    assert v.code == "QUOTA_EXCEEDED" and v.people == ("w1", "w2") and "每单位女子最多报 1 人，现报了 2 人" in v.zh
    assert "at most 1 women per unit" in v.en
    one = players(3) + players(1, "F", prefix="w")
    assert judge(g, d(one, [{"event": "xiangqi.OI", "people": [p["ref"] for p in one]}])) == []
    lines = [x.zh for x in read_back(g) if x.section == "rules"]
    assert "每单位象棋个人赛限报 4 人，其中女子不超过 1 人" in lines, lines


def test_a_cap_on_each_gender_in_a_units_total():
    """每单位运动员总数不超过6人，男女各不超过4人。"""
    g = _unit_cap(max=6, max_by_gender={"M": 4, "F": 4})
    five_men = players(5) + players(1, "F", prefix="w")
    entries = [{"event": "xiangqi.MI", "people": [p["ref"] for p in five_men if p["ref"].startswith("p")]},
               {"event": "xiangqi.WI", "people": ["w1"]}]
    [v] = judge(g, d(five_men, entries))
    assert "本代表团报了男子运动员 5 人" in v.zh and "每单位男子最多报 4 人。请减少 1 人。" in v.zh and v.event is None


def test_a_large_units_total_counts_its_athletes_without_naming_them_all():
    g = _unit_cap(max=10)
    twelve = players(12)
    [v] = judge(g, d(twelve, [{"event": "xiangqi.MI", "people": [p["ref"] for p in twelve]}]))
    assert "本代表团报了运动员 12 人，每单位最多报 10 人" in v.zh and "选手p1" not in v.zh and len(v.people) == 12
