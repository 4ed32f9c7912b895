"""The regulations at their edges (issue 9), each test from the regulation's own words."""
from __future__ import annotations

import datetime as dt

from builders import doc, id_for, individual, person, team
from conftest import codes

CHINA = dt.timezone(dt.timedelta(hours=8))
AUG = dt.datetime(2009, 8, 1, tzinfo=CHINA)
MAY = dt.datetime(2009, 5, 1, tzinfo=CHINA)


def gp(ref, gender="M"):
    return person(ref, gender, "1990-01-01", year=2009, docs=("insurance_proof",))


def test_declared_numbers_bind_the_names_stage(judge):
    """nmsg-2009 总则十(一)–(二): 第一次报名：2009年5月31日截止。各参赛单位须将参加的具体项目
    (包括小项)及参赛人数报……第二次报名：2009年8月31日截止……运动员名单。
    Declaring 1 for gomoku.MI and naming 4 after 31 May is DECLARATION_EXCEEDED; naming
    fewer than declared is DECLARATION_UNFILLED, a warning."""
    four = [gp(f"m{i}") for i in range(4)]
    over = doc("nmsg-2009", people=four, entries=[individual("gomoku.MI", "m0", "m1", "m2", "m3")],
               declarations=[{"event": "gomoku.MI", "count": 1}])
    [v] = judge(over, at=AUG)
    assert v.code == "DECLARATION_EXCEEDED" and v.is_error and v.event == "gomoku.MI" and "1" in v.zh
    assert judge(over, at=MAY) == []  # before the deadline the declaration may still change
    under = doc("nmsg-2009", people=four[:2], entries=[individual("gomoku.MI", "m0", "m1")],
                declarations=[{"event": "gomoku.MI", "count": 3}])
    [v] = judge(under, at=AUG)
    assert v.code == "DECLARATION_UNFILLED" and not v.is_error
    exact = doc("nmsg-2009", people=four[:2], entries=[individual("gomoku.MI", "m0", "m1")],
                declarations=[{"event": "gomoku.MI", "count": 2}])
    assert judge(exact, at=AUG) == []


def test_an_official_without_a_sport_counts_against_every_sport(judge):
    """nmsg-2009 五子棋规程 四(一)1: 每单位可报领队1人，教练1人。In a Games of six sports the
    allowance is per sport: a leader who names no sport is an error (he must say which),
    and he counts against the gomoku allowance, so three extra leaders cannot slip by."""
    people = [gp("m0"), gp("l1"), gp("l2"), gp("l3"), gp("l4")]
    officials = [{"person": "l1", "role": "leader", "sport": "gomoku"}] + \
                [{"person": f"l{i}", "role": "leader", "sport": None} for i in (2, 3, 4)]
    d = doc("nmsg-2009", people=people, entries=[individual("gomoku.MI", "m0")], officials=officials)
    found = [v for v in judge(d, at=AUG) if v.code == "OFFICIALS_LIMIT"]
    assert len(found) == 2
    assert any(set(v.people) == {"l2", "l3", "l4"} and "大项" in v.zh for v in found)
    ok = doc("nmsg-2009", people=people[:3], entries=[individual("gomoku.MI", "m0")],
             officials=[{"person": "l1", "role": "leader", "sport": "gomoku"},
                        {"person": "l2", "role": "coach", "sport": "gomoku"}])
    assert codes(judge(ok, at=AUG), errors_only=True) == []


def test_an_individual_registration_is_one_athlete(judge):
    """youth-gomoku-2015 十一(一): 凡爱好五子棋运动的少年儿童均可通过单位报名或个人报名的方式参赛。
    A person registering alone (unit null) is one athlete, plus companions; never a second
    athlete or an official under one registration."""
    a = person("a", "M", "2006-01-01", unit="tianjin", docs=("photo", "id_copy"))
    b = person("b", "M", "2006-02-02", unit="tianjin", docs=("photo", "id_copy"))
    parent = person("mum", "F", "1980-01-01", unit="tianjin")
    two = doc("youth-gomoku-2015", unit=None, people=[a, b], entries=[individual("gomoku.MCA", "a", "b")])
    assert "QUOTA_EXCEEDED" in codes(judge(two, at=dt.datetime(2015, 7, 1, tzinfo=CHINA)))
    with_coach = doc("youth-gomoku-2015", unit=None, people=[a, parent], entries=[individual("gomoku.MCA", "a")],
                     officials=[{"person": "mum", "role": "coach", "sport": None}])
    assert "OFFICIALS_LIMIT" in codes(judge(with_coach, at=dt.datetime(2015, 7, 1, tzinfo=CHINA)))
    with_parent = doc("youth-gomoku-2015", unit=None, people=[a, parent], entries=[individual("gomoku.MCA", "a")],
                      companions=[{"person": "mum", "accompanies": "a"}])
    assert codes(judge(with_parent, at=dt.datetime(2015, 7, 1, tzinfo=CHINA)), errors_only=True) == []


def test_a_non_refundable_fee_is_not_credited_when_an_event_is_withdrawn(db):
    """youth-gomoku-2015 十一(八): 报名后因故未参赛者，报名费不退。Withdrawing the team event
    after submission leaves the 200 team fee owed."""
    from decimal import Decimal

    from portal.audit.services import Actor
    from portal.games.services import find_games
    from portal.money.services import totals
    from portal.workflow.services import approve, import_document, withdraw
    actor = Actor("t")
    games = find_games("youth-gomoku-2015")
    k = lambda ref, g: person(ref, g, "2000-06-06", unit="tianjin", docs=("photo", "id_copy"))
    d = import_document(games, doc("youth-gomoku-2015", unit={"name": "南开少儿棋校", "kind": "school"},
                                   people=[k("b1", "M"), k("g1", "F")],
                                   entries=[individual("gomoku.MJA", "b1"), individual("gomoku.WJA", "g1"),
                                            team("gomoku.TJA", "b1", "g1")]),
                        dt.datetime(2015, 7, 1, tzinfo=CHINA), actor).delegation
    assert totals(d)["expected"] == Decimal("600.00")  # 2 athletes + 1 team group
    out = withdraw(d, "gomoku.TJA", False, actor, dt.datetime(2015, 7, 14, tzinfo=CHINA))
    assert out.ok, out
    approve(d, actor, dt.datetime(2015, 7, 14, 12, tzinfo=CHINA))
    assert totals(d)["credit"] == Decimal("0.00") and totals(d)["expected"] == Decimal("600.00")


def test_a_wait_listed_entrant_owes_no_deposit_until_promoted(db):
    """shaanxi-mind-2025 十一(三): 参赛保证金100元……报到后原路退回，若报名后放弃参赛者保证金一律
    不予退还; 报满即止. The deposit is due when a place is given, at once or on promotion; a
    wait-listed entrant who leaves owes and forfeits nothing."""
    from decimal import Decimal

    from portal.audit.services import Actor
    from portal.games.services import find_games
    from portal.money.services import totals
    from portal.workflow.services import import_document, withdraw
    actor = Actor("t")
    games = find_games("shaanxi-mind-2025")
    cap = games.definition["capacity"]
    docs_ = ("id_copy", "health_certificate", "insurance_proof", "safety_pledge")
    at = dt.datetime(2025, 9, 1, tzinfo=CHINA)
    placed = []
    for i in range(cap + 1):
        p = person("p1", "M" if i % 2 else "F", (dt.date(1970, 1, 1) + dt.timedelta(days=i)).isoformat(), docs=docs_,
                   area="610102")
        placed.append(import_document(games, doc("shaanxi-mind-2025", unit=None, people=[p],
                                                 entries=[individual("gomoku.OPEN", "p1")]), at, actor))
    first, last = placed[0], placed[-1]
    assert first.status == "submitted" and last.status == "waitlisted"
    assert totals(first.delegation)["expected"] == Decimal("100.00")
    assert totals(last.delegation)["expected"] == Decimal("0.00")
    withdraw(first.delegation, None, False, actor, dt.datetime(2025, 9, 5, tzinfo=CHINA))  # frees a place
    assert totals(last.delegation)["expected"] == Decimal("100.00")  # promoted: now due
    second_last = placed[-2].delegation
    assert totals(second_last)["expected"] == Decimal("100.00")


import pytest  # noqa: E402

UT_AT = dt.datetime(2019, 8, 1, tzinfo=CHINA)


@pytest.mark.parametrize("unit,accepted,refused", [
    ("qianwei", "4111010041", "4131010246"),      # 中国人民公安大学 / 复旦大学
    ("huochetou", "4151010613", "4112010059"),    # 西南交通大学 / 中国民航大学
    ("yinying", "4112010059", "4121010151"),      # 中国民航大学 / 大连海事大学
    ("meikuang", "4113011104", "4111011414"),     # 华北科技学院 / 中国石油大学（北京）
    ("shiyou", "4137010425", "4132010290"),       # 中国石油大学（华东） / 中国矿业大学
])
def test_each_industry_association_sends_the_universities_of_its_own_sector(app, db, unit, accepted, refused):
    """nmsg-2019 四(四)2: 各行业体协选派棋手参赛范围限于其行业所属部委管辖的高校. Each industry
    unit has the universities of its own sector (units.yaml explains the reading)."""
    from portal.delegations.services import judge as judge_stored
    from portal.games.services import find_games
    from portal.rules import parse_document

    def student(code):
        p = person("u1", born="1999-01-01", year=2019, unit=unit,
                   university={"code": code, "full_time": True, "graduation_date": "2021-07-01"})
        d, problems = parse_document(doc("nmsg-2019", unit=unit, people=[p], entries=[individual("chess.UT", "u1")],
                                         declarations=[{"event": "chess.UT", "count": 1}]))
        assert problems == []
        return [v for v in judge_stored(find_games("nmsg-2019"), d, UT_AT) if v.code == "UNIVERSITY_INELIGIBLE"]

    assert student(accepted) == []
    [v] = student(refused)
    assert "选派范围" in v.zh


def _youth_team_delegation(at):
    from portal.audit.services import Actor
    from portal.games.services import find_games
    from portal.workflow.services import import_document
    k = lambda ref, g, **kw: person(ref, g, "2000-06-06", unit="tianjin", docs=("photo", "id_copy"), **kw)
    document = doc("youth-gomoku-2015", unit={"name": "南开少儿棋校", "kind": "school"},
                   people=[k("b1", "M", name="张一"), k("g1", "F", name="李二")],
                   entries=[individual("gomoku.MJA", "b1"), individual("gomoku.WJA", "g1"),
                            team("gomoku.TJA", "b1", "g1")])
    out = import_document(find_games("youth-gomoku-2015"), document, at, Actor("t"))
    assert out.status == "submitted", out
    return out.delegation


def test_a_team_player_is_substituted_in_his_individual_event_and_his_team_together(db):
    """youth-gomoku-2015 十一(七): 报名后如需更换运动员须经组委会同意，每人交纳更换费50元; 四: the
    team's members play the individual event of their group. Replacing b1 (in gomoku.MJA
    and gomoku.TJA) replaces him in both, judged as the delegation would stand; one fee."""
    from decimal import Decimal

    from portal.audit.services import Actor
    from portal.delegations.services import export_document
    from portal.money.models import LedgerEntry
    from portal.workflow.models import Substitution
    from portal.workflow.services import decide_substitution, request_substitution
    d = _youth_team_delegation(dt.datetime(2015, 7, 1, tzinfo=CHINA))
    new = person("b2", "M", "2001-03-03", unit="tianjin", docs=("photo", "id_copy"), name="王三")
    out = request_substitution(d, "gomoku.MJA", "b1", new, "生病", Actor("t"), dt.datetime(2015, 7, 10, tzinfo=CHINA))
    assert out.ok, [v.zh for v in out.violations]
    sub = db.session.query(Substitution).one()
    assert decide_substitution(sub, True, Actor("组委会"), dt.datetime(2015, 7, 10, 12, tzinfo=CHINA)).ok
    after = export_document(d)
    names = {p["ref"]: p["name"] for p in after["people"]}
    for e in after["entries"]:
        refs = e.get("people") or [s["person"] for s in e.get("lineup") or []]
        assert "b1" not in refs
    tja = next(e for e in after["entries"] if e["event"] == "gomoku.TJA")
    assert "王三" in [names[s["person"]] for s in tja["lineup"]]
    fees = db.session.query(LedgerEntry).filter_by(delegation_id=d.id, kind="charge", fee_code="change").all()
    assert [f.amount for f in fees] == [Decimal("50.00")]


def test_replacing_a_submitted_athlete_before_the_deadline_is_a_change(db):
    """youth-gomoku-2015 十一(七) 报名后如需更换运动员须经组委会同意: after submission, even before
    8 Jul, removing or replacing an athlete by editing is refused (a substitution request is
    the way); other edits stay free."""
    from portal.audit.services import Actor
    from portal.delegations.services import export_document
    from portal.workflow.services import request_substitution, save
    d = _youth_team_delegation(dt.datetime(2015, 7, 1, tzinfo=CHINA))
    at = dt.datetime(2015, 7, 5, tzinfo=CHINA)
    stored = export_document(d)
    swapped = dict(stored, entries=[e for e in stored["entries"] if e["event"] == "gomoku.WJA"])
    out = save(d, swapped, Actor("t"), at)
    assert not out.ok and "张一" in out.message[0] and "更换" in out.message[0]
    fixed = dict(stored, people=[dict(p, name="张一一") if p["ref"] == "b1" else p for p in stored["people"]])
    assert save(d, fixed, Actor("t"), at).ok  # a typo is no change
    new = person("b2", "M", "2001-03-03", unit="tianjin", docs=("photo", "id_copy"), name="王三")
    assert request_substitution(d, "gomoku.MJA", "b1", new, "生病", Actor("t"), at).ok


def test_stay_windows_follow_each_persons_role():
    """nmsg-2009 总则十(三): 各代表团可于开幕式前2天报到，比赛结束后2天离会，各项目运动队在本项目
    比赛开始前2天报到，比赛结束后1天离会. The head of delegation and a gomoku team have
    different windows (no event schedule in the fixture: the Games' dates 11-13 to 11-23)."""
    import yaml

    from portal.config import FIXTURES
    from portal.rules import GamesDefinition
    from portal.rules.stay import person_window
    definition = GamesDefinition.model_validate(yaml.safe_load((FIXTURES / "games" / "nmsg-2009.yaml").read_text()))
    document = doc("nmsg-2009", people=[gp("m1"), gp("h1"), gp("c1")], entries=[individual("gomoku.MI", "m1")],
                   officials=[{"person": "c1", "role": "coach", "sport": "gomoku"}],
                   staff=[{"person": "h1", "role": "head"}])
    head = person_window(definition, document, "h1")
    player = person_window(definition, document, "m1")
    coach = person_window(definition, document, "c1")
    assert (head.first_night, head.last_night) == (dt.date(2009, 11, 11), dt.date(2009, 11, 24))
    assert (player.first_night, player.last_night) == (dt.date(2009, 11, 11), dt.date(2009, 11, 23))
    assert coach == player  # a team's coach follows his team
    assert head.allows(dt.date(2009, 11, 24)) and not player.allows(dt.date(2009, 11, 24))


def test_a_room_night_outside_a_persons_window_and_a_player_without_a_room(db):
    """youth-gomoku-2015 十一(九): 比赛前一天报到，提前报到者大会不予接待; 十二(三): 所有参赛选手均需
    统一在指定酒店食宿. Rooms named for people are checked per person (STAY_OUTSIDE_WINDOW);
    a player with no room is ROOM_REQUIRED until one is booked for him."""
    from portal.audit.services import Actor
    from portal.delegations.services import export_document, judge as judge_stored
    from portal.money.services import request_rooms
    from portal.rules import parse_document
    d = _youth_team_delegation(dt.datetime(2015, 7, 1, tzinfo=CHINA))

    def codes_now():
        parsed, _ = parse_document(export_document(d))
        return {v.code for v in judge_stored(d.games, parsed, dt.datetime(2015, 7, 5, tzinfo=CHINA),
                                             exclude_delegation_id=d.id)}
    assert "ROOM_REQUIRED" in codes_now()
    early = request_rooms(d, "hotel_king", dt.date(2015, 7, 13), dt.date(2015, 7, 17), 1, 1, Actor("t"), occupants=["b1"])
    assert early.ok is False  # 13 Jul is before the report day for everyone
    late = request_rooms(d, "hotel_king", dt.date(2015, 7, 14), dt.date(2015, 7, 18), 1, 1, Actor("t"), occupants=["b1"])
    assert not late.ok
    ok = request_rooms(d, "hotel_king", dt.date(2015, 7, 14), dt.date(2015, 7, 17), 1, 1, Actor("t"), occupants=["b1"])
    assert ok.ok, ok
    found = codes_now()
    assert "ROOM_REQUIRED" in found  # g1 still has none
    request_rooms(d, "hotel_king", dt.date(2015, 7, 14), dt.date(2015, 7, 17), 1, 1, Actor("t"), occupants=["g1"])
    assert "ROOM_REQUIRED" not in codes_now()


def test_a_player_booked_for_the_delegation_heads_last_night_is_outside_his_window(db):
    """nmsg-2009 总则十(三) again, through the booking check: the night of 11-24 is allowed to
    the head of delegation (2 days after the closing) and not to a gomoku player (1 day after
    his event): STAY_OUTSIDE_WINDOW names the player and his window."""
    from portal.audit.services import Actor
    from portal.games.services import definition_of, find_games
    from portal.money.services import _outside_windows
    from portal.workflow.services import new_delegation, save
    games = find_games("nmsg-2009")
    d = save(new_delegation(games, "zhejiang"),
             doc("nmsg-2009", people=[gp("m1"), gp("h1")], entries=[individual("gomoku.MI", "m1")],
                 staff=[{"person": "h1", "role": "head"}]), Actor("t"), AUG).delegation
    night = dt.date(2009, 11, 24)
    assert _outside_windows(d, definition_of(games), ["h1"], night, night) == []
    [v] = _outside_windows(d, definition_of(games), ["m1", "h1"], night, night)
    assert v.code == "STAY_OUTSIDE_WINDOW" and v.people == ("m1",) and "2009-11-23" in v.zh


def test_the_leader_is_told_that_his_team_changes_with_the_individual_event(app, db, no_csrf, monkeypatch):
    """Issue 39, 5: the substitution in gomoku.MJA replaces 张一 in the team too (四): the
    leader is told so when he asks, and the request list says it while it waits."""
    import io

    from builders import account, logged_in
    PDF = b"%PDF-1.4\n1 0 obj<<>>endobj\ntrailer<<>>\n%%EOF\n"
    d = _youth_team_delegation(dt.datetime(2015, 7, 1, tzinfo=CHINA))
    account("tie-leader", "leader", delegation=d)
    db.session.commit()
    monkeypatch.setitem(app.config, "FIXED_NOW", dt.datetime(2015, 7, 10, tzinfo=CHINA))
    client = logged_in(app, "tie-leader")
    with app.app_context():
        r = client.post(f"/d/{d.id}/substitutions", data={
            "version": str(d.version), "event": "gomoku.MJA", "out_ref": "b1", "in_ref": "", "reason": "生病",
            "new-name": "王三", "new-id_type": "resident_id", "new-id_number": id_for("2000-03-03", "M", "120101"),
            "new-gender": "M", "new-birth_date": "2000-03-03",
            "document-photo": (io.BytesIO(PDF), "photo.pdf"), "document-id_copy": (io.BytesIO(PDF), "id.pdf")},
            content_type="multipart/form-data", follow_redirects=True)
    page = r.get_data(as_text=True)
    assert "更换申请已提交" in page, page[:3000]
    assert "张一 在 " in page and "中也将一并由 王三 替换" in page and "团体" in page
    assert "同时更换：" in page
