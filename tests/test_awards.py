"""Awards as the regulations write them (issue 21): places by the number of entrants, exact
shares of tied points, teams scored from individual results, clubs' and age standings,
prizes. The pure engine, each test quoting its clause."""
from __future__ import annotations

import datetime as dt
from fractions import Fraction

import pytest

from portal.rules.awards import AgeStanding, GroupStanding, TeamFromIndividuals, of_kind
from portal.rules.standings import (
    Team,
    age_standing,
    group_standing,
    places_awarded,
    score_event,
    shown,
    standing_prizes,
    standings,
    team_from_individuals,
)


@pytest.mark.parametrize("entrants, places", [(30, 12), (31, 12), (29, 8), (10, 8), (9, 8), (5, 4), (2, 1)])
def test_youth_gomoku_individual_places_by_entrants(definitions, entrants, places):
    """十(一): 个人赛各组参赛人数在30人以上（含30人）的录取前12名；参赛人数29-10人录取前8名；参赛人数9人
    以下录取前N-1名。"""
    assert places_awarded(definitions["youth-gomoku-2015"], "gomoku.MJA", entrants) == places


@pytest.mark.parametrize("teams, places", [(20, 12), (19, 8), (10, 8), (9, 8), (4, 3)])
def test_youth_gomoku_team_places_by_entrants(definitions, teams, places):
    """十(一): 团体赛各组参赛队数在20个队以上（含20个队）的录取前12名；参赛队数在10-19个队的录取前8名；
    参赛队数在9个队以下的录取N-1名。"""
    assert places_awarded(definitions["youth-gomoku-2015"], "gomoku.TJA", teams) == places


def test_a_13th_place_of_30_is_ranked_but_not_awarded(definitions):
    d = definitions["youth-gomoku-2015"]
    got = score_event(d, "gomoku.MJA", 30, [(i, f"u{i}", f"p{i}") for i in range(1, 14)])
    assert [p.awarded for p in got] == [True] * 12 + [False]
    assert got[0].medal == "gold" and got[3].medal is None and got[12].medal is None


def test_shaanxi_awards_nine_in_the_open_group_with_their_prizes(definitions):
    """八1: 公开组录取个人前九名……第一名5000元，第二名3000元，第三名1000元，第四至第九名500元。"""
    d = definitions["shaanxi-mind-2025"]
    assert places_awarded(d, "gomoku.OPEN", 160) == 9
    got = score_event(d, "gomoku.OPEN", 160, [(i, "u", f"p{i}") for i in range(1, 11)])
    assert [p.prize for p in got[:4]] == [5000, 3000, 1000, 500]
    assert got[8].awarded and not got[9].awarded and got[9].prize is None
    assert all(p.points == 0 for p in got)  # 积分 for units: none in this regulation


def test_three_way_tie_shares_exact_thirds_and_equal_exact_totals_share_a_rank(definitions):
    """总则 九(四): 空出名次的分值与获得名次的分值相加后的平均数，作为并列名次的所得分值; (五)2: 总分相等，
    名次并列. Three-way ties for 1st give (13+8+5)/3 = 26/3 each: three of them make exactly 26,
    as two wins do; rounding each share first made it 26.01 against 26.00."""
    d = definitions["nmsg-2009"]
    placings = []
    for event in ("chess.MIR", "chess.WIR", "go.YI"):
        placings += score_event(d, event, 20, [(1, "X", "x"), (1, "A", "a"), (1, "B", "b")])
    placings += score_event(d, "xiangqi.MI", 20, [(1, "Y", "y")])
    placings += score_event(d, "xiangqi.WI", 20, [(1, "Y", "y2")])
    assert placings[0].points == Fraction(26, 3)
    table = {u.unit: u for u in standings(placings)}
    assert table["X"].points == table["Y"].points == 26
    assert table["X"].points_rank == table["Y"].points_rank
    assert shown(Fraction(26, 3)) == "8.67" and shown(Fraction(13, 2)) == "6.5" and shown(Fraction(26)) == "26"


def _placings(event, rows):
    """(place, key, unit, points) -> the individual placings of a youth group."""
    from portal.rules.standings import Placing
    return [Placing(event, place, unit, key, key=key, score=Fraction(points)) for place, key, unit, points in rows]


def test_youth_gomoku_team_score_is_the_best_boys_plus_the_best_girls_points(definitions):
    """八(六)2: 各组分别取每队成绩最好的1名男选手和1名女选手的积分相加，即为该队积分，积分高者名次列前；如果
    积分相同，则依次比较个人名次，个人名次高者成绩列前；如再相同，则男子组个人名次高者所在单位名次列前。

    Boys' junior A: 1 南开·甲 7, 2 和平·乙 6, 3 南开·丙 5.5, 4 河西·丁 5, 5 和平·戊 4.
    Girls' junior A: 1 河西·子 6.5, 2 南开·丑 6, 3 和平·寅 5.5, 4 河西·卯 3.
    南开: best boy 甲 7 (1st), best girl 丑 6 (2nd) = 13. 和平: 乙 6 + 寅 5.5 = 11.5. 河西: 丁 5 +
    子 6.5 = 11.5. 和平 and 河西 tie on 11.5: individual places, best first: 和平 (2, 3), 河西 (1, 4):
    河西's 1st is ahead. So 南开 1, 河西 2, 和平 3."""
    d = definitions["youth-gomoku-2015"]
    rule = next(a for a in of_kind(d.awards, TeamFromIndividuals) if "gomoku.TJA" in a.events)
    individual = {p.key: p for p in _placings("gomoku.MJA", [
        (1, "甲", "南开", 7), (2, "乙", "和平", 6), (3, "丙", "南开", "5.5"), (4, "丁", "河西", 5), (5, "戊", "和平", 4)])
        + _placings("gomoku.WJA", [(1, "子", "河西", "6.5"), (2, "丑", "南开", 6), (3, "寅", "和平", "5.5"), (4, "卯", "河西", 3)])}
    teams = [Team("t1", "南开", "南开队", [("甲", "M"), ("丙", "M"), ("丑", "F")]),
             Team("t2", "和平", "和平队", [("乙", "M"), ("戊", "M"), ("寅", "F")]),
             Team("t3", "河西", "河西队", [("丁", "M"), ("子", "F"), ("卯", "F")])]
    ranking = team_from_individuals(d, rule, "gomoku.TJA", teams, individual)
    assert [(r.place, r.label, r.score) for r in ranking] == [
        (1, "南开队", 13), (2, "河西队", Fraction(23, 2)), (3, "和平队", Fraction(23, 2))]


def test_youth_gomoku_team_tie_on_places_goes_to_the_boys_group(definitions):
    """八(六)2 last: equal points, equal individual places: the team whose boy placed higher."""
    d = definitions["youth-gomoku-2015"]
    rule = next(a for a in of_kind(d.awards, TeamFromIndividuals) if "gomoku.TJA" in a.events)
    individual = {p.key: p for p in _placings("gomoku.MJA", [(1, "甲", "A", 5), (2, "乙", "B", 5)])
                  + _placings("gomoku.WJA", [(1, "子", "B", 5), (2, "丑", "A", 5)])}
    teams = [Team("b", "B", "B队", [("乙", "M"), ("子", "F")]), Team("a", "A", "A队", [("甲", "M"), ("丑", "F")])]
    ranking = team_from_individuals(d, rule, "gomoku.TJA", teams, individual)
    assert [(r.place, r.label) for r in ranking] == [(1, "A队"), (2, "B队")]


def test_shaanxi_club_standing_adds_the_three_best_players_points(definitions):
    """三 and 八3: 团体赛成绩以公开组个人成绩前3名积分相加计算 (the reading written in the
    fixture); clubs with fewer than three players rank after; 录取前6名."""
    d = definitions["shaanxi-mind-2025"]
    rule = next(iter(of_kind(d.awards, GroupStanding)))
    placings = _placings("gomoku.OPEN", [(1, "a1", "x", 8), (2, "b1", "x", 7), (3, "a2", "x", "6.5"), (4, "b2", "x", 6),
                                         (5, "c1", "x", 6), (6, "a3", "x", 5), (7, "b3", "x", "5.5"), (8, "a4", "x", 5)])
    clubs = {"a1": "安康棋院", "a2": "安康棋院", "a3": "安康棋院", "a4": "安康棋院",
             "b1": "西安棋社", "b2": "西安棋社", "b3": "西安棋社", "c1": "汉中"}
    rows = group_standing(rule, placings, clubs)
    assert [(r.rank, r.who, r.score) for r in rows] == [
        (1, "安康棋院", Fraction(39, 2)), (2, "西安棋社", Fraction(37, 2)),
        (3, "汉中", 6)]
    assert [p.key for p in rows[0].counted] == ["a1", "a2", "a3"]  # a4, the fourth, does not count
    assert rule.reading is not None and "八3" in rule.reading.zh


def test_shaanxi_youth_standing_is_16_and_under_on_the_first_day_with_its_prizes(definitions):
    """三: 青少年组按照个人赛中16岁（含）以下选手成绩另行计算排序; 八2: 奖励个人前六名 500-300-200-100-100-100."""
    d = definitions["shaanxi-mind-2025"]
    rule = next(iter(of_kind(d.awards, AgeStanding)))
    placings = _placings("gomoku.OPEN", [(i, f"k{i}", "x", 10 - i) for i in range(1, 11)])
    born = {"k1": dt.date(1990, 1, 1), "k2": dt.date(2009, 9, 20), "k3": dt.date(2009, 9, 21),
            "k4": dt.date(2010, 5, 5), "k5": dt.date(2012, 1, 1), "k6": dt.date(2013, 1, 1), "k7": dt.date(2014, 1, 1),
            "k8": dt.date(2015, 1, 1), "k9": dt.date(2016, 1, 1), "k10": dt.date(1980, 1, 1)}
    rows = age_standing(rule, placings, born)
    # k2 turned 16 on 20 September 2025 (16, counted); k1 and k10 are adults
    assert [r.who for r in rows] == ["k2", "k3", "k4", "k5", "k6", "k7", "k8", "k9"]
    standing_prizes(d, rule.code, rows)
    assert [r.prize for r in rows] == [500, 300, 200, 100, 100, 100, None, None]
    assert [r.awarded for r in rows] == [True] * 6 + [False] * 2


def test_where_a_regulation_gives_no_points_there_is_no_points_table(definitions):
    from portal.rules.standings import has_points
    assert not has_points(definitions["youth-gomoku-2015"]) and not has_points(definitions["shaanxi-mind-2025"])
    assert has_points(definitions["nmsg-2009"])


def test_a_fixture_key_no_kind_reads_is_refused(definitions):
    import yaml
    from pydantic import ValidationError

    from portal.config import FIXTURES
    from portal.rules import GamesDefinition
    data = yaml.safe_load((FIXTURES / "games" / "shaanxi-mind-2025.yaml").read_text(encoding="utf-8"))
    data["awards"][0]["medals_for"] = "top 3"
    with pytest.raises(ValidationError):
        GamesDefinition.model_validate(data)
    data["awards"] = {"open_places": 9}  # the old untyped form
    with pytest.raises(ValidationError):
        GamesDefinition.model_validate(data)


def test_a_team_computed_from_individuals_needs_its_members_events(definitions):
    import yaml
    from pydantic import ValidationError

    from portal.config import FIXTURES
    from portal.rules import GamesDefinition
    data = yaml.safe_load((FIXTURES / "games" / "nmsg-2009.yaml").read_text(encoding="utf-8"))
    data["awards"].append({"kind": "team_from_individuals", "events": ["go.MT"], "best": {"M": 1}})
    with pytest.raises(ValidationError, match="members_entered_in"):
        GamesDefinition.model_validate(data)


def test_every_award_names_its_clause_on_the_event(definitions):
    from portal.rules.standings import clauses_for
    assert clauses_for(definitions["youth-gomoku-2015"], "gomoku.TJA") == ["十(一)", "十(二)1", "八(六)2"]
    assert clauses_for(definitions["youth-gomoku-2015"], "gomoku.MJA") == ["十(一)", "十(二)1"]
    assert "总则 九(三)(四)" in clauses_for(definitions["nmsg-2009"], "go.MT")
