"""nmsg-2019 (第四届全国智运会国际象棋), case by case from the regulation's text."""
import pytest
from builders import doc, individual, person, team
from conftest import codes

G = "nmsg-2019"
YOUTH_DOCS = ("id_copy",)


def reg(ref, gender="M", born="1995-05-05", **kw):
    return person(ref, gender, born, year=2019, **kw)


def test_a_clean_delegation_has_no_violation(judge):
    d = doc(G, people=[reg("p1"), reg("p2", "F")],
            entries=[individual("chess.MI", "p1"), individual("chess.WI", "p2")],
            officials=[{"person": "p1", "role": "leader_coach", "sport": "chess"}])
    assert judge(d) == []


# --- youth bracket: born 2003-11-01 to 2009-10-31 inclusive --------------------------------
@pytest.mark.parametrize("born,ok", [
    ("2003-10-31", False), ("2003-11-01", True), ("2009-10-31", True), ("2009-11-01", False)])
@pytest.mark.parametrize("event,gender", [("chess.BI", "M"), ("chess.GI", "F")])
def test_youth_age_bracket_edges(judge, born, ok, event, gender):
    d = doc(G, people=[reg("p1", gender, born, docs=YOUTH_DOCS)], entries=[individual(event, "p1")])
    assert codes(judge(d)) == ([] if ok else ["AGE_BRACKET"])


def test_youth_team_events_have_the_bracket_too(judge):
    people = [reg(f"b{i}", "M", "2003-10-31" if i == 1 else "2006-01-01", docs=YOUTH_DOCS) for i in range(1, 4)]
    d = doc(G, people=people, entries=[team("chess.BTR", ("b1", 1), ("b2", 2), ("b3", 3))])
    found = judge(d)
    assert codes(found) == ["AGE_BRACKET"]
    assert found[0].people == ("b1",) and found[0].event == "chess.BTR"


def test_adult_events_have_no_age_bracket(judge):
    d = doc(G, people=[reg("p1", "M", "1950-01-01")], entries=[individual("chess.MI", "p1")])
    assert judge(d) == []


# --- quotas ------------------------------------------------------------------------------------
@pytest.mark.parametrize("event,gender,cap,born", [
    ("chess.MI", "M", 4, "1990-01-01"), ("chess.WI", "F", 3, "1990-01-01"),
    ("chess.BI", "M", 4, "2006-01-01"), ("chess.GI", "F", 3, "2006-01-01")])
def test_individual_quota_at_and_over_the_limit(judge, event, gender, cap, born):
    people = [reg(f"p{i}", gender, born, docs=YOUTH_DOCS) for i in range(cap + 1)]
    at_cap = doc(G, people=people[:cap], entries=[individual(event, *[p["ref"] for p in people[:cap]])])
    assert judge(at_cap) == []
    over = doc(G, people=people, entries=[individual(event, *[p["ref"] for p in people])])
    found = judge(over)
    assert codes(found) == ["QUOTA_EXCEEDED"]
    assert found[0].event == event and len(found[0].people) == cap + 1
    assert f"最多报 {cap} 人" in found[0].zh


def test_declaring_more_than_the_quota_is_refused_at_the_first_stage(judge):
    import datetime as dt
    may = dt.datetime(2019, 5, 1, tzinfo=dt.timezone(dt.timedelta(hours=8)))
    d = doc(G, declarations=[{"event": "chess.WI", "count": 4}, {"event": "chess.MTR", "count": 4},
                             {"event": "chess.MTR", "count": 0}])
    assert codes(judge(d, at=may)) == ["QUOTA_EXCEEDED"]
    d = doc(G, declarations=[{"event": "chess.MTR", "count": 5}])
    assert codes(judge(d, at=may)) == ["QUOTA_EXCEEDED"]
    d = doc(G, declarations=[{"event": "chess.UT", "count": 5}, {"event": "chess.YXT", "count": 4}])
    assert judge(d, at=may) == []


# --- team make-up and boards ------------------------------------------------------------------
def men(n, born="1990-01-01", prefix="m"):
    return [reg(f"{prefix}{i}", "M", born, docs=YOUTH_DOCS) for i in range(1, n + 1)]


def women(n, born="1990-01-01", prefix="w"):
    return [reg(f"{prefix}{i}", "F", born, docs=YOUTH_DOCS) for i in range(1, n + 1)]


def test_men_team_three_boards_and_one_reserve(judge):
    d = doc(G, people=men(4), entries=[team("chess.MTR", ("m1", 1), ("m2", 2), ("m3", 3), ("m4", "R"))])
    assert judge(d) == []


def test_men_team_with_two_reserves(judge):
    d = doc(G, people=men(5), entries=[team("chess.MTR", ("m1", 1), ("m2", 2), ("m3", 3), ("m4", "R"), ("m5", "R"))])
    assert codes(judge(d)) == ["TEAM_COMPOSITION"]


def test_men_team_with_four_starters(judge):
    d = doc(G, people=men(4), entries=[team("chess.MTR", ("m1", 1), ("m2", 2), ("m3", 3), ("m4", 4))])
    assert codes(judge(d)) == ["BOARD_ORDER", "TEAM_COMPOSITION"]


def test_women_team_two_boards(judge):
    ok = doc(G, people=women(3), entries=[team("chess.WTR", ("w1", 1), ("w2", 2), ("w3", "R"))])
    assert judge(ok) == []
    short = doc(G, people=women(1), entries=[team("chess.WTR", ("w1", 1))])
    assert codes(judge(short)) == ["BOARD_ORDER", "TEAM_COMPOSITION"]


def test_second_team_in_an_event_is_over_the_team_limit(judge):
    d = doc(G, people=men(6), entries=[
        team("chess.MTR", ("m1", 1), ("m2", 2), ("m3", 3)),
        team("chess.MTR", ("m4", 1), ("m5", 2), ("m6", 3), label="B")])
    assert codes(judge(d)) == ["TEAM_LIMIT"]


@pytest.mark.parametrize("slots,problem", [
    ([("m1", 1), ("m2", 1), ("m3", 3)], "repeated"),
    ([("m1", 1), ("m2", 2), ("m3", 4)], "out of range"),
    ([("m1", 1), ("m2", 2), "m3"], "missing"),
    ([("m1", 0), ("m2", 2), ("m3", 3)], "out of range"),
])
def test_board_order(judge, slots, problem):
    d = doc(G, people=men(3), entries=[team("chess.MTR", *slots)])
    found = judge(d)
    assert "BOARD_ORDER" in codes(found)
    assert all(v.team == "A" and v.event == "chess.MTR" for v in found)


def test_youth_mixed_team_exactly_two_boys_two_girls(judge):
    boys, girls = men(3, "2006-06-06", "b"), women(2, "2006-06-06", "g")
    ok = doc(G, people=boys[:2] + girls, entries=[team("chess.YXT", ("b1", 1), ("b2", 2), ("g1", 3), ("g2", 4))])
    assert judge(ok) == []
    three_boys = doc(G, people=boys + girls[:1],
                     entries=[team("chess.YXT", ("b1", 1), ("b2", 2), ("b3", 3), ("g1", 4))])
    assert codes(judge(three_boys)) == ["TEAM_COMPOSITION"]
    reserve = doc(G, people=boys + girls,
                  entries=[team("chess.YXT", ("b1", 1), ("b2", 2), ("g1", 3), ("g2", 4), ("b3", "R"))])
    assert codes(judge(reserve)) == ["TEAM_COMPOSITION"]


# --- the rating rule: women rated 2450 or more on the 2019-01-01 list --------------------------
@pytest.mark.parametrize("rating,ok", [(2449, False), (2450, True), (2600, True)])
@pytest.mark.parametrize("event", ["chess.MI", "chess.BI"])
def test_rating_rule_for_women_in_mens_events(judge, rating, ok, event):
    born = "2006-01-01" if event == "chess.BI" else "1995-01-01"
    w = reg("w1", "F", born, docs=YOUTH_DOCS, fide_rating={"value": rating, "list": "2019-01-01"})
    d = doc(G, people=[w], entries=[individual(event, "w1")])
    assert codes(judge(d)) == ([] if ok else ["GENDER_NOT_ALLOWED"])


def test_a_rating_without_its_list_date_needs_the_list(judge):
    """五(二): 国际等级分在2450以上的女棋手可参加男子项目的比赛。以2019年1月1日国际棋联公布的等级分为准。
    A rating given without its list is not taken as the 2019-01-01 list: the leader is
    asked for the rating on that list (RATING_LIST_REQUIRED names it)."""
    w = reg("w1", "F", fide_rating={"value": 2450})
    [v] = judge(doc(G, people=[w], entries=[individual("chess.MI", "w1")]))
    assert v.code == "RATING_LIST_REQUIRED" and "2019-01-01" in v.zh and "2019-01-01" in v.en
    w = reg("w1", "F", fide_rating={"value": 2450, "list": "2019-01-01"})
    assert judge(doc(G, people=[w], entries=[individual("chess.MI", "w1")])) == []
    w = reg("w1", "F", fide_rating={"value": 2449, "list": "2019-01-01"})
    assert codes(judge(doc(G, people=[w], entries=[individual("chess.MI", "w1")]))) == ["GENDER_NOT_ALLOWED"]


def test_a_rating_on_another_list_needs_the_regulations_list(judge):
    """以2019年1月1日国际棋联公布的等级分为准: a 2019-06-01 rating does not count."""
    w = reg("w1", "F", fide_rating={"value": 2500, "list": "2019-06-01"})
    [v] = judge(doc(G, people=[w], entries=[individual("chess.MI", "w1")]))
    assert v.code == "RATING_LIST_REQUIRED" and "2019-06-01" in v.zh and "2019-01-01" in v.zh


def test_rated_woman_counts_toward_the_mens_quota_and_team(judge):
    w = reg("w1", "F", fide_rating={"value": 2450, "list": "2019-01-01"})
    people = men(4) + [w]
    over = doc(G, people=people, entries=[individual("chess.MI", "m1", "m2", "m3", "m4", "w1")])
    assert codes(judge(over)) == ["QUOTA_EXCEEDED"]
    in_team = doc(G, people=people, entries=[team("chess.MTR", ("m1", 1), ("w1", 2), ("m3", 3), ("m4", "R"))])
    assert judge(in_team) == []


def test_a_man_cannot_enter_a_womens_event(judge):
    d = doc(G, people=[reg("m1")], entries=[individual("chess.WI", "m1")])
    assert codes(judge(d)) == ["GENDER_NOT_ALLOWED"]


def test_no_rating_rule_for_womens_team_or_mixed_events(judge):
    w = reg("w1", "F", fide_rating={"value": 2700, "list": "2019-01-01"})
    assert judge(doc(G, people=[w], entries=[individual("chess.WI", "w1")])) == []


# --- exclusive events --------------------------------------------------------------------------
def test_youth_mixed_players_enter_no_other_event(judge):
    boys, girls = men(2, "2006-06-06", "b"), women(2, "2006-06-06", "g")
    d = doc(G, people=boys + girls, entries=[
        team("chess.YXT", ("b1", 1), ("b2", 2), ("g1", 3), ("g2", 4)), individual("chess.BI", "b1")])
    found = judge(d)
    assert codes(found) == ["DOUBLE_ENTRY"]
    assert found[0].people == ("b1",)


def test_other_players_may_double_up(judge):
    d = doc(G, people=men(3), entries=[team("chess.MTR", ("m1", 1), ("m2", 2), ("m3", 3)),
                                       individual("chess.MI", "m1", "m2")])
    assert judge(d) == []


# --- university team -----------------------------------------------------------------------------
ZJU = "4133010335"        # 浙江大学, 教育部, Zhejiang
ZJ_LOCAL = "4133010336"   # 杭州电子科技大学? (whatever: a public local one in Zhejiang)


def student(ref, gender, code=ZJU, full_time=True, graduation="2021-06-30", **kw):
    return reg(ref, gender, "1999-01-01",
               university={"code": code, "full_time": full_time, "graduation_date": graduation}, **kw)


def ut_doc(people, unit="zhejiang"):
    slots = [(p["ref"], i + 1) for i, p in enumerate(people[:3])] + [(p["ref"], "R") for p in people[3:]]
    for p in people:
        p["registration"] = {"unit": unit, "year": 2019}
    return doc(G, unit=unit, people=people, entries=[team("chess.UT", *slots)])


def test_university_team_clean(judge, universities):
    assert universities[ZJU].name == "浙江大学"
    d = ut_doc([student("u1", "M"), student("u2", "M"), student("u3", "F"),
                student("u4", "M"), student("u5", "F")])
    assert judge(d) == []


def test_university_team_reserves_one_per_gender(judge):
    d = ut_doc([student("u1", "M"), student("u2", "M"), student("u3", "F"),
                student("u4", "M"), student("u5", "M")])
    assert codes(judge(d)) == ["TEAM_COMPOSITION"]


def test_university_starters_two_men_one_woman(judge):
    d = ut_doc([student("u1", "M"), student("u2", "F"), student("u3", "F")])
    assert codes(judge(d)) == ["TEAM_COMPOSITION"]


def _pick(universities, **where):
    for code, u in universities.items():
        if all(getattr(u, k) == v for k, v in where.items()):
            return code
    raise LookupError(where)


@pytest.mark.parametrize("case", ["unknown", "outside", "private", "sino_foreign", "part_time",
                                  "graduates_early", "no_university", "no_graduation"])
def test_university_conditions(judge, universities, case):
    u = student("u3", "F")
    if case == "unknown":
        u["university"]["code"] = "4199999999"
    elif case == "outside":
        u["university"]["code"] = _pick(universities, province_code="11", ownership="public")
    elif case == "private":
        u["university"]["code"] = _pick(universities, province_code="33", ownership="private")
    elif case == "sino_foreign":
        u["university"]["code"] = _pick(universities, province_code="33", ownership="sino_foreign")
    elif case == "part_time":
        u["university"]["full_time"] = False
    elif case == "graduates_early":
        u["university"]["graduation_date"] = "2019-11-17"
    elif case == "no_university":
        del u["university"]
    elif case == "no_graduation":
        u["university"]["graduation_date"] = None
    found = judge(ut_doc([student("u1", "M"), student("u2", "M"), u]))
    assert codes(found) == ["UNIVERSITY_INELIGIBLE"]
    assert found[0].people == ("u3",)


def test_graduating_on_the_last_day_is_still_eligible(judge):
    d = ut_doc([student("u1", "M"), student("u2", "M"), student("u3", "F", graduation="2019-11-18")])
    assert judge(d) == []


def test_city_unit_takes_universities_of_its_city(judge, universities):
    dalian_uni = _pick(universities, city="大连市", ownership="public", governing_body="教育部")
    shenyang = _pick(universities, city="沈阳市", ownership="public")
    ok = ut_doc([student("u1", "M", dalian_uni), student("u2", "M", dalian_uni), student("u3", "F", dalian_uni)],
                unit="dalian")
    assert judge(ok) == []
    bad = ut_doc([student("u1", "M", dalian_uni), student("u2", "M", dalian_uni), student("u3", "F", shenyang)],
                 unit="dalian")
    assert codes(judge(bad)) == ["UNIVERSITY_INELIGIBLE"]


def test_industry_association_takes_universities_of_its_ministry(judge, universities):
    police = _pick(universities, governing_body="公安部")
    other = _pick(universities, governing_body="教育部")
    ok = ut_doc([student(f"u{i}", g, police) for i, g in ((1, "M"), (2, "M"), (3, "F"))], unit="qianwei")
    assert judge(ok) == []
    bad = ut_doc([student("u1", "M", police), student("u2", "M", police), student("u3", "F", other)],
                 unit="qianwei")
    assert codes(judge(bad)) == ["UNIVERSITY_INELIGIBLE"]


def test_university_players_enter_no_other_event(judge):
    d = ut_doc([student("u1", "M"), student("u2", "M"), student("u3", "F")])
    d["entries"].append(individual("chess.MI", "u1"))
    d["declarations"].append({"event": "chess.MI", "count": 1})
    assert codes(judge(d)) == ["DOUBLE_ENTRY"]


# --- officials tiers -------------------------------------------------------------------------------
def _events_doc(n_events, officials):
    """A delegation in the first n of the 10 events, with the given officials."""
    order = ["chess.MI", "chess.WI", "chess.MTR", "chess.WTR", "chess.BI", "chess.GI",
             "chess.BTR", "chess.GTR", "chess.YXT", "chess.UT"]
    people, entries = [], []
    for code in order[:n_events]:
        tag = code.split(".")[1].lower()
        youth = code in ("chess.BI", "chess.GI", "chess.BTR", "chess.GTR", "chess.YXT")
        born = "2006-01-01" if youth else "1998-01-01"
        if code in ("chess.MI", "chess.BI"):
            people.append(reg(f"{tag}1", "M", born, docs=YOUTH_DOCS))
            entries.append(individual(code, f"{tag}1"))
        elif code in ("chess.WI", "chess.GI"):
            people.append(reg(f"{tag}1", "F", born, docs=YOUTH_DOCS))
            entries.append(individual(code, f"{tag}1"))
        elif code in ("chess.MTR", "chess.BTR"):
            people += [reg(f"{tag}{i}", "M", born, docs=YOUTH_DOCS) for i in (1, 2, 3)]
            entries.append(team(code, *[(f"{tag}{i}", i) for i in (1, 2, 3)]))
        elif code in ("chess.WTR", "chess.GTR"):
            people += [reg(f"{tag}{i}", "F", born, docs=YOUTH_DOCS) for i in (1, 2)]
            entries.append(team(code, *[(f"{tag}{i}", i) for i in (1, 2)]))
        elif code == "chess.YXT":
            people += [reg(f"{tag}{i}", g, born, docs=YOUTH_DOCS) for i, g in ((1, "M"), (2, "M"), (3, "F"), (4, "F"))]
            entries.append(team(code, *[(f"{tag}{i}", i) for i in (1, 2, 3, 4)]))
        else:
            people += [student(f"{tag}{i}", g) for i, g in ((1, "M"), (2, "M"), (3, "F"))]
            entries.append(team(code, *[(f"{tag}{i}", i) for i in (1, 2, 3)]))
    for i, _role in enumerate(officials):
        people.append(reg(f"o{i}", "M", "1970-01-01"))
    offs = [{"person": f"o{i}", "role": role, "sport": "chess"} for i, role in enumerate(officials)]
    return doc(G, people=people, entries=entries, officials=offs)


@pytest.mark.parametrize("n,officials,ok", [
    (10, ["leader", "coach", "coach"], True),
    (10, ["leader", "coach", "coach", "coach"], False),
    (10, ["leader", "leader", "coach"], False),
    (9, ["leader", "coach", "coach"], False),
    (9, ["leader", "coach"], True),
    (6, ["leader", "coach"], True),
    (6, ["leader", "coach", "coach"], False),
    (5, ["leader_coach"], True),
    (5, ["leader", "coach"], False),
    (5, ["leader_coach", "leader_coach"], False),
    (1, ["leader_coach"], True),
])
def test_officials_tiers(judge, n, officials, ok):
    found = judge(_events_doc(n, officials))
    assert codes(found) == ([] if ok else ["OFFICIALS_LIMIT"]), [v.zh for v in found]


# --- registration, unit kinds, documents -----------------------------------------------------------
def test_registration_for_2019_to_this_unit(judge):
    other_unit = person("p1", "M", year=2019, unit="beijing")
    other_year = person("p2", "M", year=2018)
    none = person("p3", "M")
    d = doc(G, people=[other_unit, other_year, none], entries=[individual("chess.MI", "p1", "p2", "p3")])
    found = judge(d)
    assert codes(found) == ["REGISTRATION_MISMATCH"] * 3


@pytest.mark.parametrize("unit,ok", [("zhejiang", True), ("dalian", True), ("xpcc", True),
                                     ("qianwei", True), ("pla", False)])
def test_unit_kinds(judge, unit, ok):
    d = doc(G, unit=unit, people=[person("p1", "M", year=2019, unit=unit)],
            entries=[individual("chess.MI", "p1")])
    assert codes(judge(d)) == ([] if ok else ["UNIT_NOT_ELIGIBLE"])


def test_club_or_individual_cannot_enter_the_national_games(judge):
    assert codes(judge(doc(G, unit={"name": "某俱乐部", "kind": "club"}))) == ["UNIT_NOT_ELIGIBLE"]
    assert codes(judge(doc(G, unit=None))) == ["UNIT_NOT_ELIGIBLE"]


def test_youth_players_need_an_id_copy_with_the_entry(judge):
    d = doc(G, people=[reg("b1", "M", "2006-01-01")], entries=[individual("chess.BI", "b1")])
    found = judge(d)
    assert codes(found) == ["DOCUMENT_MISSING"]
    assert found[0].severity == "error"
    adult = doc(G, people=[reg("m1")], entries=[individual("chess.MI", "m1")])
    assert judge(adult) == []


# --- stages ----------------------------------------------------------------------------------------
def test_entries_in_undeclared_events_after_31_may(judge):
    import datetime as dt

    from conftest import CHINA
    d = doc(G, people=[reg("p1")], entries=[individual("chess.MI", "p1")], declarations=[])
    assert judge(d, at=dt.datetime(2019, 5, 31, 23, 59, 59, tzinfo=CHINA)) == []
    found = judge(d, at=dt.datetime(2019, 6, 1, 0, 0, 0, tzinfo=CHINA))
    assert codes(found) == ["EVENT_NOT_DECLARED"]
    assert judge(d, at=dt.datetime(2019, 5, 31, 15, 59, 59, tzinfo=dt.UTC)) == []
    assert codes(judge(d, at=dt.datetime(2019, 5, 31, 16, 0, 0, tzinfo=dt.UTC))) == ["EVENT_NOT_DECLARED"]


def test_unknown_event(judge):
    d = doc(G, people=[reg("p1")], entries=[individual("chess.XYZ", "p1")])
    assert "EVENT_UNKNOWN" in codes(judge(d))
