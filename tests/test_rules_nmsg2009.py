"""nmsg-2009 (第一届全国智运会): the general rules and gomoku's own regulation."""
import pytest
from builders import doc, individual, person, team
from conftest import codes

G = "nmsg-2009"
INS = ("insurance_proof",)


def gp(ref, gender="M", **kw):
    """A gomoku player registered to the unit for 2009, with his insurance proof."""
    return person(ref, gender, "1990-01-01", year=2009, docs=INS, **kw)


def test_gomoku_individuals_four_men_four_women(judge):
    people = [gp(f"m{i}") for i in range(5)] + [gp(f"w{i}", "F") for i in range(5)]
    ok = doc(G, people=people, entries=[individual("gomoku.MI", *[f"m{i}" for i in range(4)]),
                                        individual("gomoku.WI", *[f"w{i}" for i in range(4)])])
    assert judge(ok) == []
    over = doc(G, people=people, entries=[individual("gomoku.MI", *[f"m{i}" for i in range(5)]),
                                          individual("gomoku.WI", *[f"w{i}" for i in range(5)])])
    assert codes(judge(over)) == ["QUOTA_EXCEEDED", "QUOTA_EXCEEDED"]


def xt(*slots):
    return team("gomoku.XT", *slots)


def test_gomoku_team_three_men_and_a_woman_on_board_four(judge):
    people = [gp("m1"), gp("m2"), gp("m3"), gp("w1", "F")]
    ok = doc(G, people=people, entries=[xt(("m1", 1), ("m2", 2), ("m3", 3), ("w1", 4))])
    assert judge(ok) == []


def test_gomoku_team_woman_not_on_board_four(judge):
    people = [gp("m1"), gp("m2"), gp("m3"), gp("w1", "F")]
    d = doc(G, people=people, entries=[xt(("m1", 1), ("w1", 2), ("m3", 3), ("m2", 4))])
    found = judge(d)
    assert codes(found) == ["BOARD_ORDER", "BOARD_ORDER"]
    assert {v.people for v in found} == {("m2",), ("w1",)}
    assert all("第 4 台" in v.zh for v in found)


def test_gomoku_team_two_women(judge):
    people = [gp("m1"), gp("m2"), gp("w1", "F"), gp("w2", "F")]
    d = doc(G, people=people, entries=[xt(("m1", 1), ("m2", 2), ("w2", 3), ("w1", 4))])
    assert codes(judge(d)) == ["BOARD_ORDER", "TEAM_COMPOSITION"]


def test_gomoku_team_no_reserve_and_one_team(judge):
    people = [gp(f"m{i}") for i in range(1, 8)] + [gp("w1", "F"), gp("w2", "F")]
    reserve = doc(G, people=people, entries=[xt(("m1", 1), ("m2", 2), ("m3", 3), ("w1", 4), ("m4", "R"))])
    assert codes(judge(reserve)) == ["TEAM_COMPOSITION"]
    two = doc(G, people=people, entries=[xt(("m1", 1), ("m2", 2), ("m3", 3), ("w1", 4)),
                                         team("gomoku.XT", ("m4", 1), ("m5", 2), ("m6", 3), ("w2", 4), label="B")])
    assert codes(judge(two)) == ["TEAM_LIMIT"]


def test_individual_players_may_also_play_the_team(judge):
    people = [gp("m1"), gp("m2"), gp("m3"), gp("w1", "F")]
    d = doc(G, people=people, entries=[xt(("m1", 1), ("m2", 2), ("m3", 3), ("w1", 4)),
                                       individual("gomoku.MI", "m1", "m2"), individual("gomoku.WI", "w1")])
    assert judge(d) == []


def test_gomoku_players_must_be_registered_for_2009(judge):
    d = doc(G, people=[person("m1", "M", year=2008, docs=INS)], entries=[individual("gomoku.MI", "m1")])
    assert codes(judge(d)) == ["REGISTRATION_MISMATCH"]


def test_other_sports_carry_gender_and_nothing_more(judge):
    people = [person(f"p{i}", "M", docs=INS) for i in range(12)]
    d = doc(G, people=people, entries=[individual("go.PMI", *[f"p{i}" for i in range(12)]),
                                       team("bridge.MT", "p0", "p1", "p2", "p3")])
    assert judge(d) == []
    woman = doc(G, people=[person("w", "F", docs=INS)], entries=[individual("xiangqi.MI", "w")])
    assert codes(judge(woman)) == ["GENDER_NOT_ALLOWED"]
    mixed = doc(G, people=[person("w", "F", docs=INS), person("m", "M", docs=INS)],
                entries=[team("bridge.XP", "w", "m")])
    assert judge(mixed) == []


def test_all_43_events_exist(definitions):
    assert len(definitions[G].events) == 43


@pytest.mark.parametrize("unit", ["beijing", "dalian", "xpcc", "pla", "huochetou", "qianwei"])
def test_every_unit_kind_may_enter(judge, unit):
    d = doc(G, unit=unit, people=[person("p", "M", unit=unit, docs=INS)], entries=[individual("go.AMI", "p")])
    assert judge(d) == []


def test_gomoku_officials_one_leader_one_coach(judge):
    people = [gp("m1"), person("l1", "M", docs=INS), person("c1", "M", docs=INS), person("c2", "M", docs=INS)]
    ok = doc(G, people=people[:3], entries=[individual("gomoku.MI", "m1")],
             officials=[{"person": "l1", "role": "leader", "sport": "gomoku"},
                        {"person": "c1", "role": "coach", "sport": "gomoku"}])
    assert judge(ok) == []
    over = doc(G, people=people, entries=[individual("gomoku.MI", "m1")],
               officials=[{"person": "l1", "role": "leader", "sport": "gomoku"},
                          {"person": "c1", "role": "coach", "sport": "gomoku"},
                          {"person": "c2", "role": "coach", "sport": "gomoku"}])
    assert codes(judge(over)) == ["OFFICIALS_LIMIT"]


# --- delegation staff ratio (总则 七(二)) --------------------------------------------------------
def staffed(n_athletes, heads=1, deputies=0, staff=0):
    people = [person(f"a{i}", "M", docs=INS) for i in range(n_athletes)]
    roles = [("head", heads), ("deputy_head", deputies), ("staff", staff)]
    staff_list = []
    for role, n in roles:
        for i in range(n):
            people.append(person(f"{role}{i}", "M", docs=INS))
            staff_list.append({"person": f"{role}{i}", "role": role})
    # athletes spread over sports: distinct athletes of all sports count once
    half = n_athletes // 2
    entries = [individual("go.AMI", *[f"a{i}" for i in range(half)]),
               individual("xiangqi.MI", *[f"a{i}" for i in range(half, n_athletes)]),
               individual("chess.MIR", *[f"a{i}" for i in range(min(3, n_athletes))])]
    return doc(G, people=people, entries=entries, staff=staff_list)


def test_thirty_athletes_one_head_two_staff(judge):
    assert judge(staffed(30, staff=2)) == []
    found = judge(staffed(30, staff=3))
    assert codes(found) == ["STAFF_EXCESS"] and found[0].severity == "warning"
    assert found[0].people == ("staff2",)
    assert codes(judge(staffed(30, deputies=1, staff=2))) == ["STAFF_EXCESS"]


def test_thirty_one_athletes_head_deputy_and_one_staff_per_ten(judge):
    assert judge(staffed(31, deputies=1, staff=3)) == []
    found = judge(staffed(31, deputies=1, staff=4))
    assert codes(found) == ["STAFF_EXCESS"]
    assert judge(staffed(45, deputies=1, staff=4)) == []
    assert codes(judge(staffed(45, deputies=2, staff=4))) == ["STAFF_EXCESS"]


def test_staff_excess_is_a_warning_and_does_not_block(judge):
    found = judge(staffed(10, heads=2, staff=2))
    assert [v.severity for v in found] == ["warning"]


def test_insurance_proof_is_due_at_check_in(judge):
    d = doc(G, people=[person("p", "M")], entries=[individual("go.AMI", "p")])
    found = judge(d)
    assert codes(found) == ["DOCUMENT_MISSING"]
    assert found[0].severity == "warning"


def test_declaration_then_names_after_31_may(judge):
    import datetime as dt

    from conftest import CHINA
    d = doc(G, people=[gp("m1")], entries=[individual("gomoku.MI", "m1")],
            declarations=[{"event": "gomoku.WI", "count": 1}])
    # gomoku.WI was declared for one and nobody is named: a warning
    assert codes(judge(d, at=dt.datetime(2009, 8, 1, tzinfo=CHINA))) == ["DECLARATION_UNFILLED", "EVENT_NOT_DECLARED"]
    assert judge(d, at=dt.datetime(2009, 5, 1, tzinfo=CHINA)) == []
