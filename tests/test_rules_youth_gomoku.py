"""youth-gomoku-2015 (2015全国少年儿童五子棋锦标赛)."""
import pytest
from builders import doc, individual, person, team
from conftest import codes

G = "youth-gomoku-2015"
DOCS = ("photo", "id_copy")
CLUB = {"name": "天津银联华彩棋牌俱乐部", "kind": "club"}


def kid(ref, gender, born, **kw):
    return person(ref, gender, born, unit="tianjin", docs=DOCS, **kw)


@pytest.mark.parametrize("event,gender,first,last", [
    ("gomoku.MJA", "M", "1998-01-01", "2003-12-31"), ("gomoku.WJA", "F", "1998-01-01", "2003-12-31"),
    ("gomoku.MJB", "M", "2004-01-01", "2005-12-31"), ("gomoku.WJB", "F", "2004-01-01", "2005-12-31"),
    ("gomoku.MCA", "M", "2006-01-01", "2007-12-31"), ("gomoku.WCA", "F", "2006-01-01", "2007-12-31"),
])
def test_age_groups_both_edges(judge, event, gender, first, last):
    import datetime as dt
    day = dt.timedelta(days=1)
    before = (dt.date.fromisoformat(first) - day).isoformat()
    after = (dt.date.fromisoformat(last) + day).isoformat()
    for born, ok in ((before, False), (first, True), (last, True), (after, False)):
        d = doc(G, unit=CLUB, people=[kid("p", gender, born)], entries=[individual(event, "p")])
        assert codes(judge(d)) == ([] if ok else ["AGE_BRACKET"]), born


def test_children_b_is_2008_or_later(judge):
    for born, ok in (("2007-12-31", False), ("2008-01-01", True), ("2010-06-01", True)):
        d = doc(G, unit=CLUB, people=[kid("p", "M", born)], entries=[individual("gomoku.MCB", "p")])
        assert codes(judge(d)) == ([] if ok else ["AGE_BRACKET"])


def test_no_crossing_gender_groups(judge):
    d = doc(G, unit=CLUB, people=[kid("p", "M", "2006-05-05")], entries=[individual("gomoku.WCA", "p")])
    assert codes(judge(d)) == ["GENDER_NOT_ALLOWED"]


def test_no_crossing_age_groups(judge):
    d = doc(G, unit=CLUB, people=[kid("p", "M", "2006-05-05")],
            entries=[individual("gomoku.MCA", "p"), individual("gomoku.MJB", "p")])
    assert sorted(set(codes(judge(d)))) == ["AGE_BRACKET", "DOUBLE_ENTRY"]


def test_team_of_the_units_individual_entrants_with_a_boy_and_a_girl(judge):
    people = [kid("b1", "M", "2006-01-01"), kid("b2", "M", "2007-01-01"), kid("g1", "F", "2006-03-03")]
    entries = [individual("gomoku.MCA", "b1", "b2"), individual("gomoku.WCA", "g1"),
               team("gomoku.TCA", "b1", "b2", "g1")]
    assert judge(doc(G, unit=CLUB, people=people, entries=entries)) == []


def test_team_without_a_girl(judge):
    people = [kid("b1", "M", "2006-01-01"), kid("b2", "M", "2007-01-01")]
    entries = [individual("gomoku.MCA", "b1", "b2"), team("gomoku.TCA", "b1", "b2")]
    found = judge(doc(G, unit=CLUB, people=people, entries=entries))
    assert codes(found) == ["TEAM_COMPOSITION"]
    assert "男女选手共同组成" in found[0].zh


def test_team_member_not_in_the_matching_individual_event(judge):
    people = [kid("b1", "M", "2006-01-01"), kid("g1", "F", "2006-03-03")]
    entries = [individual("gomoku.MCA", "b1"), team("gomoku.TCA", "b1", "g1")]
    found = judge(doc(G, unit=CLUB, people=people, entries=entries))
    assert codes(found) == ["TEAM_COMPOSITION"]
    assert found[0].people == ("g1",)


def test_one_team_per_unit_per_group(judge):
    people = [kid(f"b{i}", "M", "2006-01-01") for i in range(2)] + [kid(f"g{i}", "F", "2006-01-01") for i in range(2)]
    entries = [individual("gomoku.MCA", "b0", "b1"), individual("gomoku.WCA", "g0", "g1"),
               team("gomoku.TCA", "b0", "g0"), team("gomoku.TCA", "b1", "g1", label="B")]
    assert codes(judge(doc(G, unit=CLUB, people=people, entries=entries))) == ["TEAM_LIMIT"]


def test_a_player_registering_alone_cannot_enter_a_team(judge):
    people = [kid("b1", "M", "2006-01-01"), kid("g1", "F", "2006-03-03")]
    entries = [individual("gomoku.MCA", "b1"), individual("gomoku.WCA", "g1"), team("gomoku.TCA", "b1", "g1")]
    assert codes(judge(doc(G, unit=None, people=people, entries=entries))) == ["QUOTA_EXCEEDED", "UNIT_NOT_ELIGIBLE"]


@pytest.mark.parametrize("unit", [None, CLUB, {"name": "南开中学", "kind": "school"}, "tianjin", "shenzhen"])
def test_any_unit_or_an_individual_may_enter(judge, unit):
    d = doc(G, unit=unit, people=[kid("p", "M", "2006-01-01")], entries=[individual("gomoku.MCA", "p")])
    assert judge(d) == []


def test_everyone_needs_an_id_number(judge):
    parent = kid("parent", "F", "1980-01-01")
    del parent["id_number"], parent["id_type"]
    d = doc(G, unit=CLUB, people=[kid("p", "M", "2006-01-01"), parent], entries=[individual("gomoku.MCA", "p")],
            companions=[{"person": "parent", "accompanies": "p"}])
    found = judge(d)
    assert codes(found) == ["ID_NUMBER_REQUIRED"]
    assert found[0].people == ("parent",)


def test_household_register_number_is_accepted_and_checked(judge):
    p = kid("p", "M", "2008-02-02", id_type="household_register")
    assert judge(doc(G, unit=CLUB, people=[p], entries=[individual("gomoku.MCB", "p")])) == []
    p["id_number"] = p["id_number"][:-1] + ("0" if p["id_number"][-1] != "0" else "1")
    assert codes(judge(doc(G, unit=CLUB, people=[p], entries=[individual("gomoku.MCB", "p")]))) == ["ID_NUMBER_INVALID"]


def test_photo_and_id_copy_due_with_the_entry(judge):
    p = kid("p", "M", "2006-01-01")
    p["documents"] = ["photo"]
    found = judge(doc(G, unit=CLUB, people=[p], entries=[individual("gomoku.MCA", "p")]))
    assert codes(found) == ["DOCUMENT_MISSING"]
    assert found[0].severity == "error"
    assert "身份证或户口簿复印件" in found[0].zh


def test_one_leader_one_coach(judge):
    people = [kid("p", "M", "2006-01-01"), kid("l", "M", "1980-01-01"), kid("c", "M", "1980-01-01"),
              kid("c2", "F", "1981-01-01")]
    offs = [{"person": "l", "role": "leader"}, {"person": "c", "role": "coach"}]
    assert judge(doc(G, unit=CLUB, people=people[:3], entries=[individual("gomoku.MCA", "p")], officials=offs)) == []
    offs.append({"person": "c2", "role": "coach"})
    found = judge(doc(G, unit=CLUB, people=people, entries=[individual("gomoku.MCA", "p")], officials=offs))
    assert codes(found) == ["OFFICIALS_LIMIT"]
