"""Rules that together leave an event nobody can enter: each reads right alone (a minimum
above the quota, a team larger than the quota, age groups that do not overlap, an event kept
to units the Games do not take); the set-up page names the event beside the rules. An age
group whose dates are the wrong way round is refused outright."""
import pytest
from builders import account, logged_in
from pydantic import ValidationError
from test_rule_kinds import games
from test_setup_screens import _get, _post

from portal.rules.event_traps import event_traps


def test_a_minimum_above_the_quota_and_a_team_larger_than_it():
    found = event_traps(games([{"kind": "quota", "events": ["xiangqi.MI", "bridge.MT"], "max": 3},
                               {"kind": "entry_minimum", "events": ["xiangqi.MI"], "min": 4},
                               {"kind": "team_size", "events": ["bridge.MT"], "min": 4, "max": 6}]))
    assert found == [
        ("桥牌男子团体：每队至少 4 人，而每单位最多只能报 3 人，组不成一支队。",
         "Bridge Men's teams: a team needs at least 4 players, but a unit may enter at most 3; no unit can field a team."),
        ("象棋男子个人：报名的单位至少须报 4 人，而每单位最多只能报 3 人，没有单位能报这个项目。",
         "Xiangqi Men's individual: a unit entering it must enter at least 4, but may enter at most 3; no unit can enter it.")]


def test_a_named_unit_allowed_more_keeps_the_event_open():
    assert event_traps(games([{"kind": "quota", "events": ["xiangqi.MI"], "max": 3, "max_by_unit": {"dalian": 4}},
                              {"kind": "entry_minimum", "events": ["xiangqi.MI"], "min": 4}])) == []


def test_age_groups_that_do_not_overlap_and_one_the_wrong_way_round():
    [(zh, _en)] = event_traps(games([{"kind": "age_bracket", "events": ["xiangqi.MI"], "born_from": "2010-01-01"},
                                     {"kind": "age_bracket", "events": ["xiangqi.MI"], "born_to": "2005-12-31"}]))
    assert zh.startswith("象棋男子个人：几条年龄规则合起来要求出生日期不早于 2010-01-01 又不晚于 2005-12-31")
    with pytest.raises(ValidationError, match="wrong way round"):
        games([{"kind": "age_bracket", "events": ["xiangqi.MI"], "born_from": "2010-01-01", "born_to": "2005-12-31"}])


def test_an_event_kept_to_units_the_games_do_not_take():
    rules = [{"kind": "event_units", "events": ["xiangqi.WI"], "unit_kinds": ["university"]}]
    [(zh, _en)] = event_traps(games(rules))  # the Games take provinces, cities and industry bodies
    assert zh == "象棋女子个人只限某些单位报名，但这些单位都不在本届比赛的参赛单位之列，没有人能报。"
    assert event_traps(games(rules, participation={"unit_kinds": ["province", "university"]})) == []


def test_the_set_up_page_names_the_shut_event_beside_the_rules(app, db):
    with app.app_context():
        account("root", "admin", name="管理员")
        db.session.commit()
    admin = logged_in(app, "root")
    assert _post(app, admin, "/org/games/new", {"slug": "gomoku-2099", "name_zh": "2099年五子棋锦标赛",
                                                "name_en": "2099 Gomoku", "copy_of": "youth-gomoku-2015",
                                                "years_later": "84"}).status_code == 302
    setup = "/org/games/gomoku-2099/setup"
    assert 'id="shut-events"' not in _get(app, admin, setup).get_data(as_text=True)
    for data in ({"op": "save", "p_events": ["gomoku.MJA"], "p_max": "2", "p_clause": "八(一)"},):
        assert _post(app, admin, setup + "/rules/new?kind=quota", data).status_code == 302
    assert _post(app, admin, setup + "/rules/new?kind=entry_minimum",
                 {"op": "save", "p_events": ["gomoku.MJA"], "p_per": "event", "p_min": "3"}).status_code == 302
    page = _get(app, admin, setup).get_data(as_text=True)
    rules = page.split('id="rules"', 1)[1]
    assert "五子棋男子少年甲组：报名的单位至少须报 3 人，而每单位最多只能报 2 人" in rules.split('<ol class="readback-lines">')[0]
    assert 'href="#shut-events"' in page and "设置中有 1 处需要核对" in page


def test_an_event_played_only_with_more_units_or_entrants_than_may_ever_enter_it():
    """Four invited units, "报名单位不足5个的项目取消": it can never be played; nor an event of
    at most 2 a unit that needs 10 entrants among four units. With provinces at large (no
    count the regulation gives) or enough units, nothing is said."""
    invited = {"invited": ["beijing", "tianjin", "hebei", "shanxi"]}
    rules = [{"kind": "event_minimum", "events": ["bridge.MT"], "min": 5, "count": "units"},
             {"kind": "event_minimum", "events": ["xiangqi.MI"], "min": 10, "says": {"zh": "与女子个人合并", "en": "is merged"}},
             {"kind": "quota", "events": ["xiangqi.MI"], "max": 2}]
    assert event_traps(games(rules, participation=invited)) == [
        ("桥牌男子团体：报名单位不足 5 个的项目不设比赛，而能报这个项目的单位只有 4 个，这个项目开不成。",
         "Bridge Men's teams: an event with fewer than 5 units entering is not played, but only 4 units may enter it; "
         "it can never be played."),
        ("象棋男子个人：报名不足 10 人的项目与女子个人合并，而 4 个单位每单位最多报 2 人，至多 8 人，这个项目开不成。",
         "Xiangqi Men's individual: an event with fewer than 10 entrants is merged, but 4 units of at most 2 each make "
         "8 at most; it can never be played.")]
    assert event_traps(games(rules)) == []  # provinces, cities and industry bodies: no count to compare
    kept = [{"kind": "event_units", "events": ["bridge.MT"], "units": ["beijing", "tianjin"]},
            {"kind": "event_minimum", "events": ["bridge.MT"], "min": 3, "count": "units"}]
    [(zh, _en)] = event_traps(games(kept))
    assert zh.startswith("桥牌男子团体：报名单位不足 3 个的项目不设比赛，而能报这个项目的单位只有 2 个")
    assert event_traps(games([{**rules[0], "min": 4}, {**rules[1], "min": 8}, rules[2]], participation=invited)) == []


def test_a_team_larger_than_the_units_whole_quota():
    """"每单位运动员总数不超过3人" bounds every event: a team of at least 4 cannot be fielded;
    a total that counts other events only leaves the team alone."""
    rules = [{"kind": "quota", "per": "unit", "max": 3}, {"kind": "team_size", "events": ["bridge.MT"], "min": 4, "max": 6}]
    [(zh, _en)] = event_traps(games(rules))
    assert zh == "桥牌男子团体：每队至少 4 人，而每单位最多只能报 3 人，组不成一支队。"
    assert event_traps(games([{**rules[0], "events": ["xiangqi.MI", "xiangqi.WI"]}, rules[1]])) == []
