"""Places, points and medals as nmsg-2009 总则 九 says (issue 11, item 5)."""
from decimal import Decimal

import pytest

from portal.rules.standings import ResultsError, score_event, standings


def _points(placings):
    return [(p.place, p.unit, p.points, p.medal) for p in placings]


def test_six_places_score_13_8_5_3_2_1(definitions):
    d = definitions["nmsg-2009"]
    results = [(i, f"u{i}", f"p{i}") for i in range(1, 7)]
    got = score_event(d, "chess.MIR", 20, results)
    assert [p.points for p in got] == [Decimal(x) for x in (13, 8, 5, 3, 2, 1)]
    assert [p.medal for p in got][:4] == ["gold", "silver", "bronze", None]


def test_team_events_of_three_or_more_on_the_board_score_17_11_7_4_3_2(definitions):
    d = definitions["nmsg-2009"]
    got = score_event(d, "go.MT", 12, [(i, f"u{i}", f"t{i}") for i in range(1, 7)])
    assert [p.points for p in got] == [Decimal(x) for x in (17, 11, 7, 4, 3, 2)]


def test_fewer_than_six_entrants_place_three_scoring_5_3_2(definitions):
    d = definitions["nmsg-2009"]
    got = score_event(d, "chess.MIR", 5, [(1, "a", ""), (2, "b", ""), (3, "c", "")])
    assert [p.points for p in got] == [Decimal(5), Decimal(3), Decimal(2)]
    # a fourth of five is ranked (the full standings go on) but not awarded: no points, no medal
    fourth = score_event(d, "chess.MIR", 5, [(1, "a", ""), (2, "b", ""), (3, "c", ""), (4, "d", "")])[3]
    assert (fourth.awarded, fourth.points, fourth.medal) == (False, 0, None)
    with pytest.raises(ResultsError):  # a sixth place with five entrants cannot be
        score_event(d, "chess.MIR", 5, [(i, f"u{i}", "") for i in range(1, 7)])


def test_tied_places_share_the_average_of_the_places_they_fill(definitions):
    """(四): the next place is left empty; each scores the average of both places' points."""
    d = definitions["nmsg-2009"]
    got = score_event(d, "chess.MIR", 20, [(1, "a", ""), (2, "b", ""), (2, "c", ""), (4, "d", "")])
    assert _points(got) == [(1, "a", Decimal("13.00"), "gold"), (2, "b", Decimal("6.50"), "silver"),
                            (2, "c", Decimal("6.50"), "silver"), (4, "d", Decimal("3.00"), None)]
    with pytest.raises(ResultsError):  # a place 3 after a tie for 2nd cannot be
        score_event(d, "chess.MIR", 20, [(1, "a", ""), (2, "b", ""), (2, "c", ""), (3, "d", "")])


def test_medal_and_points_tables_share_ranks_on_equal_counts(definitions):
    d = definitions["nmsg-2009"]
    placings = (score_event(d, "chess.MIR", 20, [(1, "zj", ""), (2, "js", ""), (3, "sh", "")])
                + score_event(d, "chess.WIR", 20, [(1, "js", ""), (2, "zj", ""), (3, "bj", "")]))
    table = {u.unit: u for u in standings(placings)}
    assert (table["zj"].gold, table["zj"].silver) == (1, 1) and table["zj"].points == Decimal(21)
    assert table["zj"].medal_rank == table["js"].medal_rank == 1 and table["sh"].medal_rank == 3
    assert table["zj"].points_rank == table["js"].points_rank == 1


def test_a_small_games_computed_by_hand(definitions):
    """Three events of nmsg-2009, worked out on paper first (总则 九):

    chess.MIR, 20 entrants, six places, 13-8-5-3-2-1:
        1 浙江 13, 2 江苏 8, 3 上海 5, 4 浙江 3, 5 北京 2, 6 江苏 1
    go.MT (team, more than three on the board), 12 teams, 17-11-7-4-3-2, a tie for 2nd:
        1 江苏 17; 江苏 and 上海 share 2nd and 3rd: (11 + 7) / 2 = 9 each, both silver;
        4 浙江 4, 5 北京 3, 6 上海 2
    chess.WIR, 5 entrants: fewer than six, three places, 5-3-2:
        1 浙江 5, 2 北京 3, 3 上海 2

    Points: 浙江 13 + 3 + 4 + 5 = 25; 江苏 8 + 1 + 17 + 9 = 35; 上海 5 + 9 + 2 + 2 = 18;
            北京 2 + 3 + 3 = 8.
    Medals (gold, silver, bronze): 浙江 (2, 0, 0); 江苏 (1, 2, 0); 上海 (0, 1, 2); 北京 (0, 1, 0).
    (go.MT has no bronze: the tie fills 2nd and 3rd.)
    Medal table: 浙江 1 (two golds), 江苏 2 (one), 上海 3 ((0, 1, 2) is ahead of 北京's
    (0, 1, 0) on bronzes), 北京 4. Points table: 江苏 1, 浙江 2, 上海 3, 北京 4."""
    d = definitions["nmsg-2009"]
    placings = (score_event(d, "chess.MIR", 20, [(1, "浙江", ""), (2, "江苏", ""), (3, "上海", ""),
                                                 (4, "浙江", ""), (5, "北京", ""), (6, "江苏", "")])
                + score_event(d, "go.MT", 12, [(1, "江苏", "A"), (2, "江苏", "B"), (2, "上海", "A"),
                                               (4, "浙江", "A"), (5, "北京", "A"), (6, "上海", "B")])
                + score_event(d, "chess.WIR", 5, [(1, "浙江", ""), (2, "北京", ""), (3, "上海", "")]))
    table = {u.unit: u for u in standings(placings)}
    assert {u: t.points for u, t in table.items()} == {"浙江": Decimal(25), "江苏": Decimal(35),
                                                       "上海": Decimal(18), "北京": Decimal(8)}
    assert {u: (t.gold, t.silver, t.bronze) for u, t in table.items()} == {
        "浙江": (2, 0, 0), "江苏": (1, 2, 0), "上海": (0, 1, 2), "北京": (0, 1, 0)}
    assert {u: t.medal_rank for u, t in table.items()} == {"浙江": 1, "江苏": 2, "上海": 3, "北京": 4}
    assert {u: t.points_rank for u, t in table.items()} == {"江苏": 1, "浙江": 2, "上海": 3, "北京": 4}
