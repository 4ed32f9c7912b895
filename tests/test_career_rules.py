"""The player across Games in the rules (issue 36, 2, 5 and 6): grade, title and rating,
residence and nationality, the unit's own staff and graduates, qualification by an earlier
competition, required officials, quotas by named unit and the entry window's opening. Each
test quotes the wording of a real regulation that needs the kind; the engine is the pure one."""
from __future__ import annotations

import datetime as dt

import pytest
from builders import person
from test_rule_kinds import AT, d, games, judge, team_of

from portal.rules import GamesDefinition
from portal.rules.grades import BUILTIN_SYSTEMS, in_region, key
from portal.rules.readback import read_back

SPORTS = [{"code": "go", "name": {"zh": "围棋", "en": "Go"}}, {"code": "xiangqi", "name": {"zh": "象棋", "en": "Xiangqi"}}]
GO = [{"code": "go.G1", "sport": "go", "gender": "X", "kind": "individual", "name": {"zh": "段位组", "en": "Dan group"}},
      {"code": "go.G2", "sport": "go", "gender": "X", "kind": "individual", "name": {"zh": "级位组", "en": "Kyu group"}},
      {"code": "xiangqi.MI", "sport": "xiangqi", "gender": "M", "kind": "individual", "name": {"zh": "男子个人", "en": "Men's individual"}},
      {"code": "xiangqi.T", "sport": "xiangqi", "gender": "X", "kind": "team", "name": {"zh": "团体", "en": "Teams"}}]


def coded(violations, code):
    return [v for v in violations if v.code == code]


def test_grades_are_read_as_people_write_them():
    go = BUILTIN_SYSTEMS["cwa"]
    assert go.rank("业余五段") == go.rank("5段") == go.rank("业余5段") > go.rank("1级") > go.rank("二十五级")
    assert go.rank("初段") == go.rank("业余1段")
    assert key("业余二十一级") == "21级"
    assert BUILTIN_SYSTEMS["cxa"].rank("大师") == BUILTIN_SYSTEMS["cxa"].rank("象棋大师")
    assert go.rank("九段") is None  # no amateur 9 dan
    assert in_region("620102", ["620000"]) and in_region("500101", ["500000"]) and not in_region("510101", ["500000"])


def test_a_grade_group_from_1_kyu_to_5_dan_by_the_grade_held_on_a_day():
    """围棋段级位赛：段位组限业余1级至5段棋手报名，段位以2026年6月30日前中国围棋协会确认的为准。"""
    definition = games([{"kind": "grade", "events": ["go.G1"], "system": "cwa", "lowest": "1级", "highest": "5段",
                         "held_on": "2026-06-30", "clause": "四(二)"}], events=GO, sports=SPORTS)
    people = [
        person("a", grades=[{"system": "cwa", "grade": "业余3段", "awarded_on": "2025-08-01"}]),
        person("b", grades=[{"system": "cwa", "grade": "业余6段", "awarded_on": "2024-08-01"}]),
        # promoted after the day: his 6 dan does not count, his 4 dan does
        person("c", grades=[{"system": "cwa", "grade": "4段", "awarded_on": "2024-01-01"},
                            {"system": "cwa", "grade": "6段", "awarded_on": "2026-07-15"}]),
        person("e", grades=[{"system": "cwa", "grade": "2级", "awarded_on": "2025-01-01"}]),
        person("f"),  # no grade
        person("g", grades=[{"system": "cwa", "grade": "五品", "awarded_on": "2025-01-01"}]),
    ]
    found = coded(judge(definition, d(people, [{"event": "go.G1", "people": ["a", "b", "c", "e", "f", "g"]}])),
                  "GRADE_NOT_ELIGIBLE")
    by = {v.people[0]: v for v in found}
    assert set(by) == {"b", "e", "f", "g"}
    assert "选手b 持有业余6段（2024年8月1日授予），围棋段位组只限1级至业余5段的选手（以2026年6月30日前获得的为准）" in by["b"].zh
    assert "holds amateur 6 dan" in by["b"].en and "1 kyu to amateur 5 dan" in by["b"].en and "None" not in by["b"].en
    assert "没有中国围棋协会业余段级位的记录" in by["f"].zh
    assert "“五品”不是" in by["g"].zh
    assert by["b"].extra["clause"] == "四(二)"


def test_not_yet_a_master_is_a_ceiling_and_the_ungraded_may_enter():
    """象棋公开赛：参赛选手须为尚未获得“象棋大师”及以上称号者。"""
    definition = games([{"kind": "grade", "events": ["xiangqi.MI"], "system": "cxa", "below": "象棋大师"}], events=GO, sports=SPORTS)
    people = [person("a"), person("b", grades=[{"system": "cxa", "grade": "一级棋士"}]),
              person("m", grades=[{"system": "cxa", "grade": "特级大师", "awarded_on": "2019-01-01"}])]
    found = coded(judge(definition, d(people, [{"event": "xiangqi.MI", "people": ["a", "b", "m"]}])), "GRADE_NOT_ELIGIBLE")
    assert [v.people for v in found] == [("m",)]
    assert "持有象棋特级大师" in found[0].zh and "尚未获得象棋大师" in found[0].zh


def test_a_rating_band_on_the_named_list_edition():
    """国际象棋等级赛：限2026年7月中国国际象棋协会等级分1800分以下（含）棋手参加，无等级分者可以报名。"""
    definition = games([{"kind": "rating", "events": ["xiangqi.MI"], "list": "cca", "max_rating": 1800,
                         "list_on": "2026-07-01", "unrated": "admitted"}], events=GO, sports=SPORTS)
    people = [person("a", ratings={"cca": {"value": 1750, "list": "2026-07-01"}}),
              person("b", ratings={"cca": {"value": 1950, "list": "2026-07-01"}}),
              person("c")]
    found = coded(judge(definition, d(people, [{"event": "xiangqi.MI", "people": ["a", "b", "c"]}])), "GRADE_NOT_ELIGIBLE")
    assert [v.people for v in found] == [("b",)]
    assert "中国国际象棋协会等级分为 1950" in found[0].zh and "1800 分及以下" in found[0].zh
    # a FIDE band reads the FIDE rating given beside the others
    fide = games([{"kind": "rating", "events": ["xiangqi.MI"], "list": "fide", "min_rating": 2000}], events=GO, sports=SPORTS)
    found = coded(judge(fide, d([person("a", fide_rating={"value": 1900, "list": "2026-06-01"})],
                                [{"event": "xiangqi.MI", "people": ["a"]}])), "GRADE_NOT_ELIGIBLE")
    assert "国际棋联等级分为 1900" in found[0].zh


def test_province_residents_since_a_day_and_chinese_nationals():
    """省运会智力运动项目：运动员须具有本省户籍，且于2025年12月31日前落户；须为中国国籍。"""
    definition = games([{"kind": "residence", "regions": ["620000"], "since_by": "2025-12-31", "clause": "五(一)"},
                        {"kind": "nationality", "nationalities": ["CHN"]}], events=GO, sports=SPORTS)
    people = [person("a", residence={"province": "620102", "since": "2010-01-01"}),
              person("b", residence={"province": "610102", "since": "2010-01-01"}),
              person("c", residence={"province": "620102", "since": "2026-03-01"}),
              person("e"),
              person("f", id_type="passport", id_number="E12345678", residence={"province": "620102", "since": "2001-01-01"},
                     nationality="JPN")]
    found = judge(definition, d(people, [{"event": "xiangqi.MI", "people": ["a", "b", "c", "e", "f"]}]))
    residence = {v.people[0]: v for v in coded(found, "RESIDENCE_NOT_ELIGIBLE")}
    assert set(residence) == {"b", "c", "e", "f"}
    assert "户籍（常住地）为陕西省" in residence["b"].zh and "甘肃省" in residence["b"].zh
    assert "2026年3月1日" in residence["c"].zh
    assert "没有填写户籍" in residence["e"].zh
    assert "国籍为JPN" in residence["f"].zh
    lines = [x.zh for x in read_back(definition) if x.section == "rules"]
    assert "运动员：限甘肃省户籍（常住）的人员，须于2025年12月31日前落户（居住）" in lines


def test_staff_and_graduates_of_the_last_two_years_play_for_their_university():
    """全国高校象棋联赛：各队队员须为本校在校学生、在编教职工或毕业两年内的校友。"""
    definition = games([{"kind": "employment", "events": ["xiangqi.MI"], "kinds": ["student", "staff", "graduate"],
                         "graduated_within_years": 2}], events=GO, sports=SPORTS)
    people = [person("a", employment={"unit": "zhejiang", "kind": "staff"}),
              person("b", employment={"unit": "浙江省", "kind": "graduate", "since": "2025-06-30"}),
              person("c", employment={"unit": "zhejiang", "kind": "graduate", "since": "2020-06-30"}),
              person("e", employment={"unit": "sichuan", "kind": "staff"}),
              person("f")]
    found = {v.people[0]: v for v in coded(judge(definition, d(people, [{"event": "xiangqi.MI", "people": ["a", "b", "c", "e", "f"]}])),
                                           "UNIVERSITY_INELIGIBLE")}
    assert set(found) == {"c", "e", "f"}
    assert "已超过 2 年" in found["c"].zh and "不是本单位" in found["e"].zh


def test_a_team_of_two_to_three_of_each_gender_with_two_players_from_outside_at_most():
    """高校团体赛：每队由男女各2至3人组成，外援不超过2人。"""
    definition = games([{"kind": "team_makeup", "events": ["xiangqi.T"], "min_by_gender": {"M": 2, "F": 2},
                         "max_by_gender": {"M": 3, "F": 3}, "max_from_outside": 2}], events=GO, sports=SPORTS)
    people = [person(f"m{i}", "M", registration={"unit": "sichuan" if i < 3 else "zhejiang", "year": 2026}) for i in range(4)]
    people += [person(f"w{i}", "F") for i in range(2)]
    found = coded(judge(definition, d(people, [team_of("xiangqi.T", [p["ref"] for p in people])])), "TEAM_COMPOSITION")
    text = " ".join(v.zh for v in found)
    assert "男选手最多 3 人，现有 4 人" in text
    assert "外援）最多 2 人，现有 3 人" in text


def test_teams_and_entrants_differ_by_named_unit():
    """团体赛各单位限报1队，北京、天津各3队，河北6队；个人赛每单位限报2人，东道主4人。"""
    definition = games([{"kind": "team_makeup", "events": ["xiangqi.T"], "max_teams": 1, "max_teams_by_unit": {"zhejiang": 3}},
                        {"kind": "quota", "events": ["xiangqi.MI"], "max": 2, "max_by_unit": {"zhejiang": 4}}], events=GO, sports=SPORTS)
    people = [person(f"p{i}") for i in range(5)]
    entries = [team_of("xiangqi.T", ["p0"], "A"), team_of("xiangqi.T", ["p1"], "B"), team_of("xiangqi.T", ["p2"], "C"),
               {"event": "xiangqi.MI", "people": ["p0", "p1", "p2", "p3"]}]
    assert not coded(judge(definition, d(people, entries)), "TEAM_LIMIT")
    assert not coded(judge(definition, d(people, entries)), "QUOTA_EXCEEDED")
    entries.append(team_of("xiangqi.T", ["p3"], "D"))
    entries[3]["people"].append("p4")
    found = judge(definition, d(people, entries))
    assert "浙江省只能报 3 支队，现报了 4 支" in coded(found, "TEAM_LIMIT")[0].zh
    assert "浙江省最多报 4 人" in coded(found, "QUOTA_EXCEEDED")[0].zh
    assert coded(judge(definition, d(people[:3], [team_of("xiangqi.T", ["p0"], "A"), team_of("xiangqi.T", ["p1"], "B")],
                                     unit="dalian")), "TEAM_LIMIT")


def test_only_the_qualifiers_of_the_qualifying_event_may_enter():
    """总决赛：由各赛区预选赛前8名的选手参加。"""
    definition = games([{"kind": "qualified", "events": ["xiangqi.MI"], "by": ["qual-2026"],
                         "name": {"zh": "2026年预选赛", "en": "the 2026 qualifier"}}], events=GO, sports=SPORTS)
    people = [person("a"), person("b"), person("c", id_number=None)]
    parsed_doc = d(people, [{"event": "xiangqi.MI", "people": ["a", "b", "c"]}])
    from portal.rules import check_delegation, parse_document
    parsed, _ = parse_document(parsed_doc)
    qualified = frozenset({(people[0]["id_number"], "qual-2026", "qual"), (people[1]["id_number"], "other-2026", "other")})
    found = coded(check_delegation(definition, parsed, at=AT, qualified=qualified), "NOT_QUALIFIED")
    assert [v.people for v in found] == [("b",), ("c",)]
    assert "不在2026年预选赛的晋级名单中" in found[0].zh and "没有填写证件号码" in found[1].zh


def test_each_team_names_a_leader_and_the_coach_is_staff_of_the_school():
    """每队须报领队1名；教练员须为本校在编教职工。"""
    definition = games([{"kind": "officials_required", "roles": ["leader"], "per": "team"},
                        {"kind": "officials_required", "roles": ["coach"], "count": 0, "employed_as": ["staff"]}], events=GO, sports=SPORTS)
    people = [person(f"p{i}") for i in range(4)] + [person("L"), person("C", employment={"unit": "sichuan", "kind": "staff"})]
    entries = [team_of("xiangqi.T", ["p0", "p1"], "A"), team_of("xiangqi.T", ["p2", "p3"], "B")]
    found = coded(judge(definition, d(people, entries, officials=[{"person": "L", "role": "leader"},
                                                                  {"person": "C", "role": "coach"}])), "OFFICIAL_REQUIRED")
    assert "每队须报领队 1 名：本单位报了 2 支队，须 2 名，现报了 1 名" in found[0].zh
    assert "教练 选手C 须为本单位的教职工" in found[1].zh
    lines = [x.zh for x in read_back(definition) if x.section == "rules"]
    assert "每队须报领队 1 名" in lines


def test_nothing_is_submitted_before_entries_open():
    """报名时间：2026年6月10日9:00起。"""
    definition = games([], events=GO, sports=SPORTS, stages={"entries_open": "2026-06-10T09:00:00+08:00"})
    document = d([person("a")], [{"event": "xiangqi.MI", "people": ["a"]}])
    found = coded(judge(definition, document), "ENTRY_NOT_OPEN")
    assert "2026-06-10 09:00" in found[0].zh
    assert not coded(judge(definition, document, at=dt.datetime(2026, 6, 10, 9, tzinfo=dt.timezone(dt.timedelta(hours=8)))),
                     "ENTRY_NOT_OPEN")


@pytest.mark.parametrize("rule, problem", [
    ({"kind": "grade", "events": ["xiangqi.MI"], "system": "cwa", "lowest": "10段"}, "not a grade"),
    ({"kind": "grade", "events": ["xiangqi.MI"], "system": "gomoku", "lowest": "1段"}, "grade system"),
    ({"kind": "rating", "events": ["xiangqi.MI"], "list": "elo", "min_rating": 1}, "rating list"),
    ({"kind": "residence", "regions": ["990000"]}, "administrative-division"),
])
def test_a_grade_or_region_the_portal_does_not_know_is_refused_at_load(rule, problem):
    with pytest.raises(ValueError, match=problem):
        games([rule], events=GO, sports=SPORTS)


def test_a_fixture_names_its_own_grade_ladder():
    """五子棋段级位制（试行）: a ladder the portal does not carry, as the fixture writes it."""
    definition = games([{"kind": "grade", "events": ["xiangqi.MI"], "system": "gomoku", "lowest": "1段"}], events=GO, sports=SPORTS,
                       grade_systems=[{"code": "gomoku", "name": {"zh": "中国五子棋段级位", "en": "Chinese gomoku grades"},
                                       "ladder": ["3级", "2级", "1级", "1段", "2段", "3段"]}])
    assert isinstance(definition, GamesDefinition)
    found = coded(judge(definition, d([person("a", grades=[{"system": "gomoku", "grade": "二级"}])],
                                      [{"event": "xiangqi.MI", "people": ["a"]}])), "GRADE_NOT_ELIGIBLE")
    assert "持有2级" in found[0].zh and "1段及以上" in found[0].zh


def test_the_document_refuses_bad_career_fields_by_their_path():
    from portal.rules import parse_document
    bad = d([person("a", grades=[{"system": "CWA!", "grade": "1段"}], residence={"province": "62"}, nationality="China",
                    employment={"kind": "teacher"})], [])
    _parsed, problems = parse_document(bad)
    paths = {v.path for v in problems}
    assert {"people[0].grades[0].system", "people[0].residence.province", "people[0].nationality",
            "people[0].employment.kind"} <= paths


def test_an_empty_section_means_none_and_an_unknown_kind_is_answered_with_the_kinds_in_words(tmp_path):
    from portal.games.services import FixtureError, read_fixture
    text = """slug: bad-2026
series: bad
edition: 1
name: {zh: 测试, en: Test}
dates: {start: 2026-07-01, end: 2026-07-02}
participation: {unit_kinds: [province]}
sports: [{code: go, name: {zh: 围棋, en: Go}}]
events: [{code: go.MI, sport: go, gender: X, kind: individual, name: {zh: 个人, en: Individual}}]
awards:
rules:
"""
    path = tmp_path / "bad-2026.yaml"
    path.write_text(text, encoding="utf-8")
    assert read_fixture(path).awards == [] and read_fixture(path).rules == []
    path.write_text(text.replace("rules:\n", "rules:\n  - {kind: grades_range, events: [go.MI]}\n"), encoding="utf-8")
    with pytest.raises(FixtureError) as caught:
        read_fixture(path)
    assert "grade（段级位、称号）" in str(caught.value) and "qualified (qualified by an earlier competition)" in str(caught.value)


def test_the_career_fields_go_through_the_excel_entry_form_and_back():
    from portal.delegations.excel import read_workbook, write_workbook
    definition = games([{"kind": "residence", "regions": ["620000"]}], events=GO, sports=SPORTS)
    people = [person("a", grades=[{"system": "cwa", "grade": "业余2段", "awarded_on": "2025-05-01"}],
                     residence={"province": "620102", "since": "2010-01-01"}, nationality="CHN",
                     employment={"unit": "zhejiang", "kind": "staff", "since": "2015-09-01"})]
    document = d(people, [{"event": "xiangqi.MI", "people": ["a"]}])
    back = read_workbook(write_workbook(definition, document), definition, document)
    p = back["people"][0]
    assert p["grades"] == [{"system": "cwa", "grade": "业余2段", "awarded_on": "2025-05-01"}]
    assert p["residence"] == {"province": "620102", "since": "2010-01-01"} and p["nationality"] == "CHN"
    assert p["employment"] == {"kind": "staff", "unit": "zhejiang", "since": "2015-09-01"}


def test_only_grades_obtained_in_the_province_count():
    """省运会围棋：段位以在本省（甘肃省围棋协会）获得的为准。"""
    definition = games([{"kind": "grade", "events": ["go.G1"], "system": "cwa", "lowest": "业余1段",
                         "awarded_by": ["甘肃省"]}], events=GO, sports=SPORTS)
    people = [person("a", grades=[{"system": "cwa", "grade": "业余3段", "awarded_by": "甘肃省围棋协会"}]),
              person("b", grades=[{"system": "cwa", "grade": "业余5段", "awarded_by": "北京市围棋协会"}])]
    found = coded(judge(definition, d(people, [{"event": "go.G1", "people": ["a", "b"]}])), "GRADE_NOT_ELIGIBLE")
    assert [v.people for v in found] == [("b",)] and "只计甘肃省授予的" in found[0].zh
