"""Rule kinds that the four regulations did not need (issue 22), each tried on wording of
real Chinese mind-sports regulations: a bridge event of a national mind sports Games, a
national xiangqi championship for university staff, an invitational regional tournament.
The Games here are written as fixtures are; the engine is the pure one."""
from __future__ import annotations

import datetime as dt

import pytest
from builders import account, doc, individual, person
from conftest import codes

from portal.rules import GamesDefinition, check_delegation, parse_document
from portal.rules.definition import UnitInfo

CHINA = dt.timezone(dt.timedelta(hours=8))
AT = dt.datetime(2026, 6, 1, tzinfo=CHINA)
UNITS = {"zhejiang": UnitInfo(code="zhejiang", kind="province", name={"zh": "浙江省", "en": "Zhejiang"}),
         "dalian": UnitInfo(code="dalian", kind="city", name={"zh": "大连市", "en": "Dalian"}),
         "huochetou": UnitInfo(code="huochetou", kind="industry", name={"zh": "火车头体协", "en": "Locomotive"})}


def games(rules, events=None, participation=None, **extra) -> GamesDefinition:
    data = {"slug": "test-games", "series": "test", "edition": 1, "name": {"zh": "测试赛", "en": "Test Games"},
            "dates": {"start": "2026-08-20", "end": "2026-08-25"},
            "participation": participation or {"unit_kinds": ["province", "city", "industry"]},
            "sports": [{"code": "bridge", "name": {"zh": "桥牌", "en": "Bridge"}},
                       {"code": "xiangqi", "name": {"zh": "象棋", "en": "Xiangqi"}}],
            "events": events or [
                {"code": "bridge.MT", "sport": "bridge", "gender": "M", "kind": "team", "name": {"zh": "男子团体", "en": "Men's teams"}},
                {"code": "bridge.OP", "sport": "bridge", "gender": "X", "kind": "team", "name": {"zh": "公开双人", "en": "Open pairs"}},
                {"code": "xiangqi.MI", "sport": "xiangqi", "gender": "M", "kind": "individual", "name": {"zh": "男子个人", "en": "Men's individual"}},
                {"code": "xiangqi.WI", "sport": "xiangqi", "gender": "F", "kind": "individual", "name": {"zh": "女子个人", "en": "Women's individual"}},
                {"code": "xiangqi.T", "sport": "xiangqi", "gender": "X", "kind": "team", "name": {"zh": "团体", "en": "Teams"}}],
            "rules": rules, **extra}
    return GamesDefinition.model_validate(data)


def judge(definition, document, at=AT):
    parsed, problems = parse_document(document)
    assert parsed is not None, problems
    return [v for v in check_delegation(definition, parsed, at=at, unit=UNITS.get(parsed.unit_code))
            if v.code != "SCHEMA_INVALID" or "games" not in (v.path or "")]


def team_of(event, refs, label="A"):
    return {"event": event, "team": label, "lineup": [{"person": r} for r in refs]}


def players(n, gender="M", born="1980-01-01", prefix="p"):
    return [person(f"{prefix}{i}", gender, born) for i in range(1, n + 1)]


def d(people, entries, unit="zhejiang", **kw):
    out = doc("test-games", unit=unit, people=people, entries=entries, declarations=[], **kw)
    return out


def test_a_mens_team_of_four_to_six_players_women_may_play():
    """桥牌: 男子团体赛每队由4至6名运动员组成（女运动员可参加男子团体赛）。"""
    g = games([{"kind": "team_size", "events": ["bridge.MT"], "min": 4, "max": 6},
               {"kind": "cross_gender", "gender": "F", "events": ["bridge.MT", "xiangqi.MI"]}])
    four = players(3) + players(1, "F", prefix="w")
    assert codes(judge(g, d(four, [team_of("bridge.MT", [p["ref"] for p in four])]))) == []
    three = players(3)
    [v] = judge(g, d(three, [team_of("bridge.MT", ["p1", "p2", "p3"])]))
    assert v.code == "TEAM_SIZE" and "4 至 6 人" in v.zh and "4 to 6 players" in v.en and "台" not in v.zh
    seven = players(7)
    assert codes(judge(g, d(seven, [team_of("bridge.MT", [p["ref"] for p in seven])]))) == ["TEAM_SIZE"]


def test_a_pair_of_two_any_gender():
    """公开双人赛每对2人，男女不限。"""
    g = games([{"kind": "team_size", "events": ["bridge.OP"], "min": 2, "max": 2}])
    pair = players(1) + players(1, "F", prefix="w")
    assert judge(g, d(pair, [team_of("bridge.OP", ["p1", "w1"])])) == []
    [v] = judge(g, d(players(3), [team_of("bridge.OP", ["p1", "p2", "p3"])]))
    assert v.code == "TEAM_SIZE" and "2 人" in v.zh and "2 players" in v.en


def test_women_may_enter_mens_events_men_may_not_enter_womens():
    """象棋: 女子棋手可报名参加男子组比赛，男子棋手不得报名参加女子组比赛。"""
    g = games([{"kind": "cross_gender", "gender": "F", "events": ["xiangqi.MI"]}])
    w = players(1, "F", prefix="w")
    assert judge(g, d(w, [individual("xiangqi.MI", "w1")])) == []
    [v] = judge(g, d(players(1), [individual("xiangqi.WI", "p1")]))
    assert v.code == "GENDER_NOT_ALLOWED"
    assert g.events[2].gender == "M"  # the event keeps its label


def test_youth_events_for_provinces_only_and_an_invitation_list():
    """青少年组限各省、自治区、直辖市报名; 特邀：浙江省、大连市及赞助单位火车头体协。"""
    g = games([{"kind": "event_units", "events": ["xiangqi.T"], "unit_kinds": ["province"]}])
    team = team_of("xiangqi.T", ["p1", "p2", "p3"])
    assert judge(g, d(players(3), [team])) == []
    [v] = judge(g, d(players(3), [team], unit="dalian"))
    assert v.code == "UNIT_NOT_ELIGIBLE" and "大连市" in v.zh and "省、自治区、直辖市" in v.zh
    invited = games([], participation={"invited": ["zhejiang", "huochetou"],
                                       "invited_name": {"zh": "特邀单位", "en": "invited units"}})
    assert judge(invited, d(players(1), [individual("xiangqi.MI", "p1")], unit="huochetou")) == []
    [v] = judge(invited, d(players(1), [individual("xiangqi.MI", "p1")], unit="dalian"))
    assert v.code == "UNIT_NOT_ELIGIBLE" and "大连市不在测试赛的特邀单位名单中" in v.zh and "dalian" not in v.zh


def test_at_least_four_athletes_per_team():
    """每队至少报运动员4名。"""
    g = games([{"kind": "entry_minimum", "events": ["xiangqi.T"], "per": "team", "min": 4}])
    [v] = judge(g, d(players(3), [team_of("xiangqi.T", ["p1", "p2", "p3"])]))
    assert v.code == "ENTRY_MINIMUM" and "至少须有运动员 4 人" in v.zh and "at least 4 players" in v.en
    assert judge(g, d(players(4), [team_of("xiangqi.T", ["p1", "p2", "p3", "p4"])])) == []


def test_the_team_event_is_compulsory():
    """各单位必须报名参加团体赛。"""
    g = games([{"kind": "compulsory", "events": ["xiangqi.T"]}])
    [v] = judge(g, d(players(1), [individual("xiangqi.MI", "p1")]))
    assert v.code == "ENTRY_REQUIRES" and "必报项目" in v.zh
    assert judge(g, d(players(3), [team_of("xiangqi.T", ["p1", "p2", "p3"])])) == []


def test_three_more_individual_players_only_alongside_a_team():
    """个人赛每单位可报2人；报名团体赛的单位，个人赛可增报3人。"""
    g = games([{"kind": "quota", "events": ["xiangqi.MI"], "max": 5},
               {"kind": "entry_requires", "events": ["xiangqi.MI"], "requires": ["xiangqi.T"], "beyond": 2}])
    three = players(3)
    [v] = judge(g, d(three, [individual("xiangqi.MI", "p1", "p2", "p3")]))
    assert v.code == "ENTRY_REQUIRES" and "超过 2 人" in v.zh
    five = players(5)
    ok = d(five, [individual("xiangqi.MI", "p1", "p2", "p3", "p4", "p5"), team_of("xiangqi.T", ["p1", "p2", "p3"])])
    assert judge(g, ok) == []


def test_one_leader_or_coach_per_six_athletes():
    """每6名运动员可报领队或教练1名。"""
    g = games([{"kind": "officials_ratio", "roles": ["leader", "coach"], "per_athletes": 6, "rounding": "down"}])
    seven = players(7)
    officials = [person("o1", "M", "1970-01-01"), person("o2", "F", "1971-01-01")]
    document = d(seven + officials, [individual("xiangqi.MI", *[p["ref"] for p in seven])],
                 officials=[{"person": "o1", "role": "leader"}, {"person": "o2", "role": "coach"}])
    [v] = judge(g, document)
    assert v.code == "OFFICIALS_LIMIT" and "每 6 名运动员可报 1 人" in v.zh and "at most 1" in v.en
    twelve = players(12)
    document = d(twelve + officials, [individual("xiangqi.MI", *[p["ref"] for p in twelve])],
                 officials=[{"person": "o1", "role": "leader"}, {"person": "o2", "role": "coach"}])
    assert judge(g, document) == []


def test_entrants_over_70_come_with_a_family_member():
    """年满70周岁的参赛者须有家属陪同。"""
    g = games([{"kind": "companion_required", "min_age": 70}])
    old = person("p1", "M", "1955-03-01")
    [v] = judge(g, d([old], [individual("xiangqi.MI", "p1")]))
    assert v.code == "COMPANION_REQUIRED" and "71 岁" in v.zh
    son = person("c1", "M", "1985-01-01")
    document = d([old, son], [individual("xiangqi.MI", "p1")], companions=[{"person": "c1", "accompanies": "p1"}])
    assert judge(g, document) == []
    young = person("p2", "M", "1957-09-01")  # 68 on the first day
    assert judge(g, d([young], [individual("xiangqi.MI", "p2")])) == []


def test_a_new_kind_needs_its_parameters_and_names_its_events():
    from pydantic import ValidationError
    with pytest.raises(ValidationError):
        games([{"kind": "team_size", "events": ["bridge.MT"]}])  # neither min nor max
    with pytest.raises(ValidationError):
        games([{"kind": "entry_requires", "events": ["xiangqi.MI"], "requires": ["xiangqi.NOPE"]}])
    with pytest.raises(ValidationError):
        games([{"kind": "team_size", "events": ["bridge.MT"], "min": 4, "boards": 4}])  # a key no kind reads


def test_a_bad_fixture_is_refused_in_words_every_problem_with_its_path(tmp_path):
    import yaml

    from portal.config import FIXTURES
    from portal.games.services import FixtureError, read_fixture
    data = yaml.safe_load((FIXTURES / "games" / "nmsg-2019.yaml").read_text(encoding="utf-8"))
    data["rules"].append({"kind": "quotas", "events": ["chess.MI"], "max": 1})
    data["rules"][3]["maxx"] = 3
    data["awards"][0]["by_entrants"][0]["places"] = "six"
    bad = tmp_path / "next-year.yaml"
    bad.write_text(yaml.safe_dump(data, allow_unicode=True), encoding="utf-8")
    with pytest.raises(FixtureError) as caught:
        read_fixture(bad)
    text = str(caught.value)
    assert "rules[3].maxx: 没有这一项" in text and "unknown key 'maxx'" in text
    assert "rules[18]: 未知的种类“quotas”" in text and "awards[0].by_entrants[0].places: 应为整数" in text
    assert "Input tag" not in text and "does not match" not in text  # never pydantic's own words
    assert str(bad) in text


def test_deadline_passed_names_the_stage_the_games_has():
    """A Games that takes names at once has one entry stage, not a "second" one."""
    from portal.delegations.stage import deadline_passed
    from portal.rules.definition import Stages
    from portal.rules.stages import DECLARATION, NAMES
    closes = dt.datetime(2026, 8, 1, tzinfo=CHINA)
    one = Stages(names_closes=closes)
    v = deadline_passed(NAMES, closes, one)
    assert v.zh.startswith("报名已于") and "第二次" not in v.zh and v.en.startswith("The entries stage")
    two = Stages(declaration_closes=closes - dt.timedelta(days=60), names_closes=closes)
    assert deadline_passed(NAMES, closes, two).zh.startswith("第二次报名")
    assert deadline_passed(DECLARATION, closes, two).zh.startswith("第一次报名")


def test_english_counts_read_as_english():
    """"1 man", not "1 men"; no "at most 0 reserve(s)"."""
    g = games([{"kind": "team_makeup", "events": ["xiangqi.T"], "starters": {"M": 2, "F": 1}, "max_reserves": 0}])
    three = players(3)
    document = d(three + [person("r1", "M", "1980-01-01")],
                 [{"event": "xiangqi.T", "team": "A", "lineup": [{"person": "p1"}, {"person": "p2"}, {"person": "p3"},
                                                                  {"person": "r1", "reserve": True}]}])
    texts = " ".join(v.en for v in judge(g, document))
    assert "1 woman" in texts and "(s)" not in texts and "at most 0" not in texts and "takes no reserves" in texts


def test_registered_by_a_date_not_only_for_a_year():
    """运动员须为2026年度注册于本单位的运动员，注册时间截至2026年2月28日。"""
    g = games([{"kind": "registration", "year": 2026, "registered_by": "2026-02-28"}])
    on_time = person("p1", year=2026)
    on_time["registration"]["date"] = "2026-02-28"
    late = person("p2", year=2026)
    late["registration"]["date"] = "2026-03-01"
    undated = person("p3", year=2026)
    found = judge(g, d([on_time, late, undated], [individual("xiangqi.MI", "p1", "p2", "p3")]))
    assert [(v.code, v.people) for v in found] == [("REGISTRATION_MISMATCH", ("p2",)), ("REGISTRATION_MISMATCH", ("p3",))]
    assert "2026-03-01" in found[0].zh and "注册日期" in found[1].zh


def test_a_document_kind_the_regulation_names_is_a_fixture_line():
    """报名时须提交加盖公章的报名表原件（sealed entry form）及本人签字的参赛承诺书。"""
    g = games([{"kind": "documents", "documents": ["sealed_entry_form", "safety_pledge"], "who": "athletes"}],
              document_kinds=[{"code": "sealed_entry_form", "name": {"zh": "加盖公章的报名表", "en": "sealed entry form"}}])
    p = person("p1", docs=("safety_pledge",))
    [v] = judge(g, d([p], [individual("xiangqi.MI", "p1")]))
    assert v.code == "DOCUMENT_MISSING" and "加盖公章的报名表" in v.zh and "sealed entry form" in v.en
    p = person("p1", docs=("safety_pledge", "sealed_entry_form"))
    assert judge(g, d([p], [individual("xiangqi.MI", "p1")])) == []
    # elsewhere the code is what it always was: unknown
    other = games([])
    [v] = judge(other, d([p], [individual("xiangqi.MI", "p1")]))
    assert v.code == "SCHEMA_INVALID" and v.path == "people[0].documents[1]"
    from pydantic import ValidationError
    with pytest.raises(ValidationError, match="document_kinds"):
        games([{"kind": "documents", "documents": ["staff_card"]}])


def test_reporting_hours_close_check_in_at_their_hour(app, db):
    """shaanxi-mind-2025 十(一): 9月19日（星期五）9：00-17：00到达智苑云舍酒店报到."""
    from portal.audit.services import Actor
    from portal.games.services import find_games
    from portal.venue.checkin import check_in
    from portal.workflow import services as svc
    games = find_games("shaanxi-mind-2025")
    entrant = person("p1", "M", "1988-08-08", unit="shaanxi", name="晚到者",
                     docs=("id_copy", "health_certificate", "insurance_proof", "safety_pledge"))
    d = svc.import_document(games, doc("shaanxi-mind-2025", unit=None, people=[entrant],
                                       entries=[individual("gomoku.OPEN", "p1")]),
                            dt.datetime(2025, 9, 1, tzinfo=CHINA), Actor("t")).delegation
    assert svc.approve(d, Actor("组委会"), dt.datetime(2025, 9, 2, tzinfo=CHINA)).ok
    db.session.commit()
    shown = ["id_copy", "health_certificate", "insurance_proof", "safety_pledge"]
    out = check_in(d, "p1", shown, Actor("组委会"), dt.datetime(2025, 9, 19, 17, 30, tzinfo=CHINA))
    assert not out.ok and "2025-09-19 17:00" in out.message[0]
    out = check_in(d, "p1", shown, Actor("组委会"), dt.datetime(2025, 9, 19, 16, 30, tzinfo=CHINA))
    assert out.ok, out.message
    from portal.games.services import definition_of
    assert definition_of(games).dates.report_closes.astimezone(CHINA).strftime("%H:%M") == "17:00"


def test_a_joint_university_team_is_a_unit_the_fixture_defines(universities):
    """全国高校教职工象棋赛: 同一省份的几所高校可联合组队（联队）参赛，队员须为联队所含高校的教职工。"""
    sichuan = [u for u in universities.values() if u.province_code == "51" and u.ownership == "public"]
    members, outsider = [sichuan[0].code, sichuan[1].code], sichuan[2].code
    g = games([{"kind": "university", "events": ["xiangqi.MI"], "full_time": False}],
              participation={"unit_kinds": ["province", "joint"]},
              units=[{"code": "chuan-joint", "kind": "joint", "province_code": "51", "universities": members,
                      "name": {"zh": "四川高校联队", "en": "Sichuan universities' joint team"}}])
    joint = g.units[0]
    def staff(ref, code):
        return person(ref, unit="sichuan", university={"code": code, "full_time": False}) | {"ref": ref}
    document = d([staff("p1", members[1]), staff("p2", outsider)], [individual("xiangqi.MI", "p1", "p2")],
                 unit="chuan-joint")
    parsed, _ = parse_document(document)
    found = check_delegation(g, parsed, at=AT, unit=joint, universities=universities)
    assert [(v.code, v.people) for v in found] == [("UNIVERSITY_INELIGIBLE", ("p2",))]
    assert "四川高校联队" in found[0].zh


def test_a_fixture_unit_loads_with_its_games_and_may_not_take_a_national_code(app, db, tmp_path, cli):
    import yaml

    from portal.config import FIXTURES
    from portal.games.models import Unit
    data = yaml.safe_load((FIXTURES / "games" / "nmsg-2019.yaml").read_text(encoding="utf-8"))
    data["slug"] = "staff-xiangqi-2026"
    data["participation"]["unit_kinds"] = list(data["participation"]["unit_kinds"]) + ["joint"]
    data["units"] = [{"code": "chuan-joint", "kind": "joint", "province_code": "51", "universities": ["10610"],
                      "name": {"zh": "四川高校联队", "en": "Sichuan joint team"}}]
    path = tmp_path / "staff-xiangqi-2026.yaml"
    path.write_text(yaml.safe_dump(data, allow_unicode=True), encoding="utf-8")
    from portal.games.models import Games
    try:
        result = cli.invoke(args=["games", "load", str(path)])
        assert result.exit_code == 0, result.output
        row = db.session.query(Unit).filter_by(code="chuan-joint").one()
        assert row.kind == "joint" and row.name_zh == "四川高校联队"
        data["units"][0]["code"] = "zhejiang"
        path.write_text(yaml.safe_dump(data, allow_unicode=True), encoding="utf-8")
        result = cli.invoke(args=["games", "load", str(path)])
        assert result.exit_code == 2 and "全国单位名单" in result.output
        assert db.session.query(Unit).filter_by(code="zhejiang").one().kind == "province"
    finally:  # the suite's other tests see the four Games only
        db.session.rollback()
        for g in db.session.query(Games).filter_by(slug="staff-xiangqi-2026"):
            db.session.delete(g)
        db.session.query(Unit).filter_by(code="chuan-joint").delete()
        db.session.commit()


def test_a_daily_rate_within_the_allowance_and_another_beyond(app, db, tmp_path, cli):
    """食宿费每人每天80元；超出规定名额的人员每人每天160元（不享受大会优惠）。With 30 athletes or
    fewer a delegation names 1 head and 2 staff (nmsg-2009 总则 七(二)): a third staff member
    is beyond the allowance and pays the full rate, on a line of his own."""
    from decimal import Decimal

    import yaml

    from portal.audit.services import Actor
    from portal.config import FIXTURES
    from portal.games.models import Games
    from portal.games.services import find_games
    from portal.money.services import expected_fees
    from portal.workflow.services import new_delegation, save
    data = yaml.safe_load((FIXTURES / "games" / "nmsg-2009.yaml").read_text(encoding="utf-8"))
    data["slug"] = "board-rates-2026"
    data["money"]["fees"] = [{"code": "board", "name": {"zh": "食宿费", "en": "Board"}, "amount": "80",
                              "amount_beyond": "160", "per": "participant_day", "days": 5}]
    path = tmp_path / "board-rates-2026.yaml"
    path.write_text(yaml.safe_dump(data, allow_unicode=True), encoding="utf-8")
    try:
        assert cli.invoke(args=["games", "load", str(path)]).exit_code == 0
        games = find_games("board-rates-2026")
        athletes = [person(f"p{i}", year=2009) for i in range(3)]
        staff = [person(f"s{i}", "M", "1970-01-01") for i in range(4)]
        document = doc("board-rates-2026", people=athletes + staff,
                       entries=[individual("gomoku.MI", "p0", "p1", "p2")],
                       staff=[{"person": "s0", "role": "head"}, {"person": "s1", "role": "staff"},
                              {"person": "s2", "role": "staff"}, {"person": "s3", "role": "staff"}])
        out = save(new_delegation(games, "zhejiang"), document, Actor("t"), dt.datetime(2009, 5, 1, tzinfo=CHINA))
        assert out.ok, out.violations
        fees = expected_fees(out.delegation)
        assert fees["board"][:2] == (6 * 5, Decimal("80"))
        assert fees["board:beyond"][:2] == (1 * 5, Decimal("160")) and "超出名额" in fees["board:beyond"][2]
    finally:
        db.session.rollback()
        from portal.delegations.models import Delegation
        for g in db.session.query(Games).filter_by(slug="board-rates-2026"):
            for dd in db.session.query(Delegation).filter_by(games_id=g.id):
                db.session.delete(dd)
            db.session.delete(g)
        db.session.commit()


def test_identity_documents_and_unit_kinds_the_regulation_names_are_fixture_lines():
    """军人可凭军官证报名；企业职工队以企业为单位报名。"""
    g = games([{"kind": "accepted_id_types", "types": ["resident_id", "officer_card"]}],
              participation={"unit_kinds": ["province", "company"]},
              id_types=[{"code": "officer_card", "name": {"zh": "军官证", "en": "officer's card"}}],
              unit_kind_names=[{"code": "company", "name": {"zh": "企业", "en": "companies"}}],
              units=[{"code": "sinopec", "kind": "company", "name": {"zh": "中石化", "en": "Sinopec"}}])
    officer = person("p1") | {"id_type": "officer_card", "id_number": "军字第123456号"}
    found = judge(g, d([officer], [individual("xiangqi.MI", "p1")]))
    assert "SCHEMA_INVALID" not in codes(found) and "ID_TYPE_NOT_ACCEPTED" not in codes(found)
    passport = person("p2") | {"id_type": "passport", "id_number": "E1234567"}
    [v] = judge(g, d([passport], [individual("xiangqi.MI", "p2")]))
    assert v.code == "ID_TYPE_NOT_ACCEPTED" and "军官证" in v.zh
    other = games([])
    [v] = judge(other, d([officer], [individual("xiangqi.MI", "p1")]))
    assert v.code == "SCHEMA_INVALID" and v.path == "people[0].id_type"
    company = g.units[0]
    parsed, _ = parse_document(d(players(1), [individual("xiangqi.MI", "p1")], unit="sinopec"))
    assert check_delegation(g, parsed, at=AT, unit=company) == []
    parsed, _ = parse_document(d(players(1), [individual("xiangqi.MI", "p1")], unit="dalian"))
    [v] = check_delegation(g, parsed, at=AT, unit=UNITS["dalian"])
    assert v.code == "UNIT_NOT_ELIGIBLE" and "企业" in v.zh
    from pydantic import ValidationError
    with pytest.raises(ValidationError, match="unit_kind_names"):
        games([], participation={"unit_kinds": ["company"]})
    with pytest.raises(ValidationError, match="id_types"):
        games([{"kind": "accepted_id_types", "types": ["officer_card"]}])


def test_organisers_upload_units_checked_whole(app, db):
    """单位表：单位名称、类别、所属省份…… every bad row listed; nothing stored until all are
    right; a national code cannot be changed this way."""
    import io

    from builders import csrf_token, logged_in

    from portal.games.models import Unit
    account("units-org", "organiser", name="组委会")
    db.session.commit()
    client = logged_in(app, "units-org", "password-123")
    def upload(text):
        with app.app_context():
            token = csrf_token(client.get("/org/units").get_data(as_text=True))
            return client.post("/org/units", data={"csrf_token": token, "file": (io.BytesIO(text.encode()), "units.csv")},
                               content_type="multipart/form-data")
    bad = upload("单位名称,类别,所属省份,单位代码\n四川高校联队,联队（同一省份多个单位联合组队）,四川,\n"
                 "浙江省,省、自治区、直辖市,浙江,zhejiang\n某俱乐部,火星,,\n")
    page = bad.get_data(as_text=True)
    assert bad.status_code == 422 and "全国单位名单" in page and "火星" in page
    db.session.rollback()
    assert db.session.query(Unit).filter(Unit.name_zh == "四川高校联队").count() == 0
    good = upload("单位名称,类别,所属省份,高校代码\n四川高校联队,joint,四川省,\"10610,10611\"\n")
    assert good.status_code == 302
    db.session.rollback()
    row = db.session.query(Unit).filter_by(name_zh="四川高校联队").one()
    try:
        assert (row.kind, row.province_code, row.universities) == ("joint", "51", ["10610", "10611"])
        assert row.code == "sichuangaoxiaoliandui"
    finally:
        db.session.delete(row)
        db.session.commit()
