"""The player across Games (issue 36, 1 and 3), on a real database: the results of a qualifier
make its first players that final's list of qualified players and earn grades by place; a
rating list imported as a federation publishes it is read by a rating band; a grade
corrected by the organiser, with its reason, is what the next check reads; nothing of the
register reaches a document judged alone, or a person whose name does not match."""
from __future__ import annotations

import datetime as dt
import io

import pytest
import yaml
from builders import person, saved_to_people_page

CHINA = dt.timezone(dt.timedelta(hours=8))
AT = dt.datetime(2026, 5, 1, 10, tzinfo=CHINA)


def _games(tmp_path, slug, series, rules=(), awards=(), **extra):
    from portal.games.services import load_games
    data = {"slug": slug, "series": series, "edition": 1, "name": {"zh": f"{slug}赛", "en": f"{slug} Games"},
            "dates": {"start": "2026-07-01", "end": "2026-07-05"},
            "participation": {"unit_kinds": ["province"]},
            "sports": [{"code": "xiangqi", "name": {"zh": "象棋", "en": "Xiangqi"}}],
            "events": [{"code": "xiangqi.MI", "sport": "xiangqi", "gender": "X", "kind": "individual",
                        "name": {"zh": "个人", "en": "Individual"}}],
            "rules": list(rules), "awards": list(awards), **extra}
    path = tmp_path / f"{slug}.yaml"
    path.write_text(yaml.safe_dump(data, allow_unicode=True), encoding="utf-8")
    return load_games(str(path))


def _doc(slug, people, unit="zhejiang"):
    return {"format": "delegation/1", "games": slug, "unit": unit, "declarations": [], "people": people,
            "entries": [{"event": "xiangqi.MI", "people": [p["ref"] for p in people]}],
            "officials": [], "staff": [], "companions": []}


@pytest.fixture
def players():
    return [person("a", "M", name="甲"), person("b", "F", name="乙"), person("c", "M", name="丙")]


@pytest.fixture
def qualifier(db, tmp_path, players):
    """The qualifier's results: 甲 1st, 乙 2nd, 丙 3rd; the first two qualify for the final's
    series, the first place earns 象棋大师 and the 1st-3rd federation points."""
    from portal.audit.services import Actor
    from portal.results.services import Line, enter_results
    from portal.workflow.services import approve, import_document
    games = _games(tmp_path, "qual-2026", "qual", awards=[
        {"kind": "qualifies", "top": 2, "to": "final", "clause": "七"},
        {"kind": "grade_by_place", "system": "cxa", "grades": {1: "象棋大师"}, "awarded_by": "中国象棋协会"},
        {"kind": "federation_points", "points": "master", "name": {"zh": "大师分", "en": "master points"},
         "table": ["30", "20", "10"]}])
    final = _games(tmp_path, "final-2026", "final",
                   rules=[{"kind": "qualified", "events": ["xiangqi.MI"], "by": ["qual-2026"], "clause": "三(一)",
                           "name": {"zh": "预选赛", "en": "the qualifier"}},
                          {"kind": "grade", "events": ["xiangqi.MI"], "system": "cxa", "below": "象棋特级大师"}])
    out = import_document(games, _doc("qual-2026", players), AT, Actor("t"))
    assert out.ok, out.violations
    assert approve(out.delegation, Actor("组委会"), AT + dt.timedelta(hours=1)).ok
    db.session.commit()
    assert enter_results(games, "xiangqi.MI", [Line(1, place=1, name="甲"), Line(2, place=2, name="乙"),
                                               Line(3, place=3, name="丙")], Actor("裁判长")).ok
    yield games, final
    for g in (final, games):
        db.session.delete(g)
    db.session.commit()


def test_the_first_two_of_the_qualifier_may_enter_the_final_and_the_third_is_refused_with_the_clause(qualifier, players):
    from portal.delegations.services import check_document
    final_doc = _doc("final-2026", players)
    rep, status = check_document(final_doc, AT)
    refused = [v for v in rep["violations"] if v["code"] == "NOT_QUALIFIED"]
    assert [v["people"] for v in refused] == [["c"]] and status == 1
    assert "不在预选赛的晋级名单中" in refused[0]["message"]["zh"]


def test_the_place_earns_a_title_and_points_in_the_register(qualifier, players, db):
    from sqlalchemy import select

    from portal.register.models import PlayerGrade, PlayerPoints, RegisteredPlayer
    grades = db.session.execute(select(RegisteredPlayer.name, PlayerGrade.grade, PlayerGrade.source, PlayerGrade.awarded_on)
                                .join(PlayerGrade, PlayerGrade.player_id == RegisteredPlayer.id)).all()
    assert grades == [("甲", "象棋大师", "qual-2026赛 象棋个人 第1名", dt.date(2026, 7, 5))]
    points = sorted(db.session.execute(select(PlayerPoints.place, PlayerPoints.amount)).all())
    assert [(p, str(a)) for p, a in points] == [(1, "30.00"), (2, "20.00"), (3, "10.00")]


def test_entering_the_results_again_replaces_what_they_earned(qualifier, db):
    from sqlalchemy import func, select

    from portal.audit.services import Actor
    from portal.register.models import PlayerGrade, Qualification, RegisteredPlayer
    from portal.results.services import Line, enter_results
    games, _final = qualifier
    assert enter_results(games, "xiangqi.MI", [Line(1, place=1, name="丙"), Line(2, place=2, name="乙"),
                                               Line(3, place=3, name="甲")], Actor("裁判长")).ok
    db.session.commit()
    assert db.session.scalar(select(func.count()).select_from(PlayerGrade)) == 1
    qualified = {n for (n,) in db.session.execute(select(RegisteredPlayer.name).join(
        Qualification, Qualification.player_id == RegisteredPlayer.id))}
    assert qualified == {"丙", "乙"}


def test_a_title_held_in_the_register_is_read_by_the_next_games_and_a_correction_needs_its_reason(qualifier, players, db):
    from sqlalchemy import select

    from portal.audit.models import AuditLog
    from portal.audit.services import Actor
    from portal.delegations.services import check_document
    from portal.register.models import PlayerGrade
    from portal.register.services import record_grade
    final_doc = _doc("final-2026", players)
    rep, _ = check_document(final_doc, AT)
    assert not [v for v in rep["violations"] if v["code"] == "GRADE_NOT_ELIGIBLE"]  # 象棋大师 is below 特级大师
    wrong = db.session.scalar(select(PlayerGrade))
    assert not record_grade(Actor("组委会"), players[0]["id_number"], "甲", "cxa", "象棋特级大师", dt.date(2026, 7, 5),
                            "组委会更正", replaces=wrong.id).ok  # no reason
    assert record_grade(Actor("组委会"), players[0]["id_number"], "甲", "cxa", "象棋特级大师", dt.date(2026, 7, 5),
                        "组委会更正", replaces=wrong.id, reason="中国象棋协会2026年7月批复").ok
    rep, _ = check_document(final_doc, AT)
    found = [v for v in rep["violations"] if v["code"] == "GRADE_NOT_ELIGIBLE"]
    assert [v["people"] for v in found] == [["a"]]
    assert "持有象棋特级大师（来源：棋手档案：组委会更正，2026年7月5日授予）" in found[0]["message"]["zh"]
    audit = db.session.scalars(select(AuditLog).where(AuditLog.action == "register.grade")).all()
    assert audit[-1].reason == "中国象棋协会2026年7月批复" and audit[-1].before["grade"] == "象棋大师"


def test_the_register_tells_nothing_to_a_document_judged_alone_or_to_another_name(qualifier, players):
    from portal.delegations.services import check_document
    final_doc = _doc("final-2026", players)
    rep, _ = check_document(final_doc, AT, stored=False)
    assert not [v for v in rep["violations"] if v["code"] in ("NOT_QUALIFIED", "GRADE_NOT_ELIGIBLE")]
    # 甲's identity number under another name: the register does not know him
    guess = _doc("final-2026", [dict(players[0], name="张三")])
    rep, _ = check_document(guess, AT)
    assert [v["code"] for v in rep["violations"] if v["code"] == "NOT_QUALIFIED"] == ["NOT_QUALIFIED"]


def test_a_rating_list_as_the_federation_publishes_it_is_read_by_a_rating_band(db, tmp_path, players):
    import openpyxl

    from portal.audit.services import Actor
    from portal.delegations.services import check_document
    from portal.register.services import import_rating_list
    games = _games(tmp_path, "rated-2026", "rated",
                   rules=[{"kind": "rating", "events": ["xiangqi.MI"], "list": "cxa", "max_rating": 2200,
                           "list_on": "2026-06-30"}])
    book = openpyxl.Workbook()
    sheet = book.active
    sheet.append(["2026年6月中国象棋协会等级分"])
    sheet.append(["序号", "姓名", "性别", "证件号码", "单位", "等级分"])
    sheet.append([1, "甲", "男", players[0]["id_number"], "浙江", 2350])
    sheet.append([2, "乙", "女", players[1]["id_number"], "浙江省", 2100])
    data = io.BytesIO()
    book.save(data)
    out = import_rating_list(Actor("组委会"), "cxa", dt.date(2026, 6, 1), "等级分.xlsx", data.getvalue())
    assert out.ok, out.message
    rep, _ = check_document(_doc("rated-2026", players), AT)
    found = {v["people"][0]: v for v in rep["violations"] if v["code"] == "GRADE_NOT_ELIGIBLE"}
    assert set(found) == {"a", "c"}  # 2350 above the band; 丙 unrated
    assert "中国象棋协会等级分为 2350" in found["a"]["message"]["zh"]
    # a bad row refuses the list and names the row; nothing is stored
    sheet.append([3, "丙", "男", "110101199001011234", "", "两千"])
    data = io.BytesIO()
    book.save(data)
    out = import_rating_list(Actor("组委会"), "cxa", dt.date(2026, 7, 1), "等级分.xlsx", data.getvalue())
    assert not out.ok and "第 5 行" in out.message[0]
    db.session.delete(games)
    db.session.commit()


def test_the_organisers_see_and_correct_the_register_and_the_leader_sees_it_on_his_person(app, qualifier, db):
    from builders import account, csrf_token, logged_in
    from sqlalchemy import select

    from portal.delegations.models import Delegation
    from portal.register.models import PlayerGrade
    games, final = qualifier
    account("reg-org", "organiser", name="组委会", games=["qual-2026"])
    delegation = db.session.scalar(select(Delegation).where(Delegation.games_id == games.id))
    account("reg-leader", "leader", delegation=delegation)
    db.session.commit()
    client = logged_in(app, "reg-org")
    page = client.get("/org/games/qual-2026/register").get_data(as_text=True)
    assert "象棋大师" in page and "qual-2026赛 象棋个人 第1名" in page and "共 3 人" in page
    assert "大师分：30" in page
    grade = db.session.scalar(select(PlayerGrade))
    sent = {"csrf_token": csrf_token(page), "person": f"{delegation.id}:a", "system": "cxa", "grade": "象棋特级大师",
            "replaces": str(grade.id)}
    answer = client.post("/org/games/qual-2026/register/grade", data=sent, follow_redirects=True).get_data(as_text=True)
    assert "更正段级位须说明理由" in answer
    answer = client.post("/org/games/qual-2026/register/grade", data=dict(sent, reason="协会批复"),
                         follow_redirects=True).get_data(as_text=True)
    assert "已记入棋手档案：甲" in answer and "象棋特级大师" in answer
    # staff of another Games do not reach this one's register
    account("other-org", "organiser", games=["final-2026"])
    db.session.commit()
    other = logged_in(app, "other-org")
    with app.app_context():  # a fresh `g` per request, as in production
        assert other.get("/org/games/qual-2026/register").status_code == 404
    leader = logged_in(app, "reg-leader")
    person = leader.get(f"/d/{delegation.id}/people/a").get_data(as_text=True)
    assert "棋手档案中的记录" in person and "象棋特级大师" in person
    assert "段级位、等级分、户籍与身份" not in person  # the qualifier's rules read no career field


def test_a_leader_gives_residence_and_grade_where_the_rules_read_them_and_they_are_stored(app, db, tmp_path, players):
    from builders import account, csrf_token, logged_in, stored

    from portal.delegations.services import check_document, export_document
    games = _games(tmp_path, "gansu-2026", "gansu",
                   rules=[{"kind": "residence", "regions": ["620000"], "clause": "四(一)"},
                          {"kind": "grade", "events": ["xiangqi.MI"], "system": "cwa", "lowest": "1级"}])
    delegation = stored("gansu-2026", _doc("gansu-2026", players[:1]), AT)
    account("gs-leader", "leader", delegation=delegation)
    db.session.commit()
    client = logged_in(app, "gs-leader")
    page = client.get(f"/d/{delegation.id}/people/a").get_data(as_text=True)
    assert "户籍（常住地）行政区划代码" in page and "段级位或称号" in page
    form = {"csrf_token": csrf_token(page), "version": str(delegation.version), "name": "甲", "id_type": "resident_id",
            "id_number": players[0]["id_number"], "gender": "M", "residence_region": "620102", "residence_since": "2010-01-01",
            "grade_system": "cwa", "grade": "业余2段", "grade_awarded_on": "2025-05-01"}
    assert saved_to_people_page(client.post(f"/d/{delegation.id}/people/a", data=form))
    db.session.expire_all()
    person = export_document(delegation)["people"][0]
    assert person["residence"] == {"province": "620102", "since": "2010-01-01"}
    assert person["grades"] == [{"system": "cwa", "grade": "业余2段", "awarded_on": "2025-05-01"}]
    rep, _ = check_document(export_document(delegation), AT)
    assert not [v for v in rep["violations"] if v["code"] in ("RESIDENCE_NOT_ELIGIBLE", "GRADE_NOT_ELIGIBLE")]
    form["residence_region"] = "6201"
    page = client.post(f"/d/{delegation.id}/people/a", data=form).get_data(as_text=True)
    assert "应为 6 位行政区划代码" in page and 'value="6201"' in page  # named beside its field, nothing typed lost
    db.session.delete(games)
    db.session.commit()


def test_the_finals_organisers_see_its_qualifiers_and_add_or_take_off_one_with_the_reason(app, qualifier, players, db):
    from builders import account, csrf_token, logged_in

    from portal.delegations.services import check_document
    account("final-org", "organiser", games=["final-2026"])
    db.session.commit()
    client = logged_in(app, "final-org")
    page = client.get("/org/games/final-2026/register").get_data(as_text=True)
    listed = page.split('id="qualified"', 1)[1].split("</div>\n{% endif %}", 1)[0]
    assert "本届晋级名单" in page and "甲" in listed and "乙" in listed and "共 2 人" in listed
    token = csrf_token(page)
    refused = client.post("/org/games/final-2026/register/qualified", follow_redirects=True,
                          data={"csrf_token": token, "name": "丙", "id_number": players[2]["id_number"], "reason": "",
                                "unit": "zhejiang"})
    assert "请说明理由" in refused.get_data(as_text=True)
    added = client.post("/org/games/final-2026/register/qualified", follow_redirects=True,
                        data={"csrf_token": token, "name": "丙", "id_number": players[2]["id_number"], "reason": "外卡",
                              "unit": "zhejiang"})
    assert "已加入晋级名单" in added.get_data(as_text=True)
    rep, _ = check_document(_doc("final-2026", players), AT)
    assert not [v for v in rep["violations"] if v["code"] == "NOT_QUALIFIED"]


def test_another_units_leader_typing_a_qualifiers_number_and_name_learns_nothing_until_the_organisers_say(
        qualifier, players, db):
    """甲 qualified for 浙江. 江苏's leader typing his identity number and name is told exactly
    what a stranger's number gets (not one bit about 甲); once the organisers give 甲 a wild
    card for 江苏 (he changed units), 江苏 may enter him."""
    from builders import id_for

    from portal.audit.services import Actor
    from portal.delegations.services import check_document
    from portal.register.services import qualify

    def told(person):
        rep, _ = check_document(_doc("final-2026", [person], unit="jiangsu"), AT)
        return [(v["code"], v["message"]["zh"]) for v in rep["violations"]]

    known = dict(players[0])
    stranger = dict(players[0], id_number=id_for("1995-05-05", "M"))
    assert stranger["id_number"] != known["id_number"]
    assert told(known) == told(stranger) and "NOT_QUALIFIED" in [c for c, _m in told(known)]
    assert qualify(Actor("组委会"), known["id_number"], "甲", "final-2026", "final-2026", "final", "转会外卡", "jiangsu").ok
    db.session.commit()
    assert "NOT_QUALIFIED" not in [c for c, _m in told(known)]


def test_a_rating_list_without_a_unit_is_read_for_no_delegation_and_the_import_says_so(db, tmp_path, players):
    from portal.audit.services import Actor
    from portal.delegations.services import check_document
    from portal.register.services import import_rating_list
    games = _games(tmp_path, "rated-2027", "rated",
                   rules=[{"kind": "rating", "events": ["xiangqi.MI"], "list": "cxa", "max_rating": 2200}])
    data = f"姓名,证件号码,等级分\n甲,{players[0]['id_number']},2350\n".encode()
    out = import_rating_list(Actor("组委会"), "cxa", dt.date(2026, 6, 1), "等级分.csv", data)
    assert out.ok and "1 名有证件号码的棋手没有可识别的“单位”" in out.message[0]
    rep, _ = check_document(_doc("rated-2027", players[:1]), AT)
    message = next(v["message"]["zh"] for v in rep["violations"] if v["code"] == "GRADE_NOT_ELIGIBLE")
    assert "2350" not in message
    db.session.delete(games)
    db.session.commit()


def test_seven_rounds_four_wins_promote_one_dan_read_from_the_wins_column_or_the_trf_games(db, tmp_path):
    """"7轮比赛胜4局及以上者晋升一段": wins, not points (a draw is half a point and no win);
    results without the wins are refused with the clause."""
    from sqlalchemy import select

    from portal.audit.services import Actor
    from portal.register.models import PlayerGrade, RegisteredPlayer
    from portal.results.services import Line, enter_results, read_trf
    from portal.workflow.services import approve, import_document
    games = _games(tmp_path, "dan-2026", "dan", awards=[
        {"kind": "promotion_by_record", "system": "cwa", "min_wins": 4, "clause": "六(二)", "awarded_by": "中国围棋协会"}])
    people = [person(r, "M", name=n, grades=[{"system": "cwa", "grade": "业余1段"}])
              for r, n in (("a", "甲"), ("b", "乙"))]
    out = import_document(games, _doc("dan-2026", people), AT, Actor("t"))
    assert out.ok, out.violations
    assert approve(out.delegation, Actor("组委会"), AT + dt.timedelta(hours=1)).ok
    db.session.commit()
    # 甲 4 wins (4 points); 乙 3 wins and 3 draws: 4.5 points, yet no promotion
    refused = enter_results(games, "xiangqi.MI", [Line(1, place=1, name="乙", score=None), Line(2, place=2, name="甲")],
                            Actor("裁判长"))
    assert any("缺少“胜局”列" in p.zh and "六(二)" in p.zh for p in refused.details["problems"])
    def trf_line(number, name, points, rank, games):
        head = f"001 {number:>4}      {name:<33} 1500 CHN             1995/05/05 {points:>4} {rank:>4}  "
        assert len(head) == 91
        return head + "".join(f"{opp:>4} {colour} {result}  " for opp, colour, result in games)
    trf = "\n".join(["012 dan",
                     trf_line(1, "乙", "4.5", 1, [(2, "w", "1"), (3, "b", "="), (4, "w", "1"), (5, "b", "="),
                                                 (6, "w", "1"), (7, "b", "="), (8, "w", "0")]),
                     trf_line(2, "甲", "4.0", 2, [(1, "b", "0"), (3, "w", "1"), (4, "b", "1"), (5, "w", "1"),
                                                 (6, "b", "+"), (7, "w", "0"), (8, "b", "0")])]) + "\n"
    lines, problems = read_trf(trf)
    assert problems == [] and [ln.tie_breaks["wins"] for ln in lines] == ["3", "4"]
    assert enter_results(games, "xiangqi.MI", lines, Actor("裁判长")).ok
    db.session.commit()
    promoted = db.session.execute(select(RegisteredPlayer.name, PlayerGrade.grade, PlayerGrade.source)
                                  .join(PlayerGrade, PlayerGrade.player_id == RegisteredPlayer.id)).all()
    assert promoted == [("甲", "业余2段", "dan-2026赛 象棋个人 胜 4 局")]


def test_the_organisers_read_a_players_whole_career_and_the_look_is_recorded(app, qualifier, db):
    from builders import account, logged_in
    from sqlalchemy import select

    from portal.audit.models import AuditLog
    from portal.delegations.models import Delegation
    games, _final = qualifier
    delegation = db.session.scalar(select(Delegation).where(Delegation.games_id == games.id))
    account("career-org", "organiser", games=["qual-2026"])
    db.session.commit()
    client = logged_in(app, "career-org")
    register = client.get("/org/games/qual-2026/register").get_data(as_text=True)
    link = f"/org/games/qual-2026/register/people/{delegation.id}/a"
    assert f'href="{link}"' in register
    page = client.get(link).get_data(as_text=True)
    assert "象棋大师" in page and "中国象棋协会" in page and "qual-2026赛 象棋个人 第1名" in page
    assert "大师分：30" in page and "象棋个人" in page and "xiangqi.MI" not in page
    assert "晋级final-2026赛（该系列各届）" in page and "浙江省" in page
    places = page[page.index('id="places"'):page.index('id="points"')]
    assert "比赛成绩" in places and "qual-2026赛" in places and "象棋个人" in places and '<td class="num">1</td>' in places
    looked = db.session.scalars(select(AuditLog).where(AuditLog.action == "personal_data.view")).all()
    assert [a.after["what"] for a in looked] == ["register"]
    assert client.get(f"/org/games/qual-2026/register/people/{delegation.id}/nobody").status_code == 404
    account("career-other", "organiser", games=["final-2026"])
    db.session.commit()
    with app.app_context():
        assert logged_in(app, "career-other").get(link).status_code == 404


def test_a_list_published_by_name_and_unit_is_read_for_that_units_player_of_that_name(db, tmp_path, players):
    """"中国象棋协会等级分" lists give 姓名, 性别, 单位, 等级分 and no identity number: the row
    is read for the person of that name in that unit's delegation (his own unit's row only);
    two namesakes of one unit are read for neither; a row whose unit is unknown is named."""
    from portal.audit.services import Actor
    from portal.delegations.services import check_document
    from portal.register.services import import_rating_list
    games = _games(tmp_path, "rated-2028", "rated",
                   rules=[{"kind": "rating", "events": ["xiangqi.MI"], "list": "cxa", "max_rating": 2200}])
    data = ("姓名,性别,单位,等级分\n甲,男,浙江,2350\n乙,女,浙江,2100\n乙,女,浙江,2450\n丙,男,江苏,2500\n"
            "丁,男,某棋院,2000\n").encode()
    out = import_rating_list(Actor("组委会"), "cxa", dt.date(2026, 6, 1), "等级分.csv", data)
    assert out.ok, out.message
    assert "其中 4 名没有证件号码，按姓名和单位对应" in out.message[0] and "第 6 行没有证件号码，单位也无法识别" in out.message[0]
    rep, _ = check_document(_doc("rated-2028", players), AT)
    told = {v["people"][0]: v["message"]["zh"] for v in rep["violations"] if v["code"] == "GRADE_NOT_ELIGIBLE"}
    assert "2350" in told["a"]  # 甲 of 浙江: his row
    assert "没有" in told["b"] and "没有" in told["c"]  # 乙: two namesakes; 丙's row is 江苏's
    db.session.delete(games)
    db.session.commit()


def test_the_register_is_read_once_a_revision_and_a_change_to_it_is_read_at_once(qualifier, db):
    """On deadline night every save judges, and every person form shows, the same people: what
    the register held of them at one revision is read once a process; a player the register
    gains (a grade recorded for a new number, in 浙江) raises the revision, and the next
    judgement, told the new revision, reads him and his grade."""
    import sqlalchemy as sa

    from portal.audit.services import Actor
    from portal.register.career import known_to_register, revision
    from portal.register.services import record_grade
    from portal.rules.document import ParsedPerson
    _games_, final = qualifier
    newcomer = person("d", "M", born="2001-02-03", name="丁")
    people = [ParsedPerson(ref="a", name="甲", id_number=None), ParsedPerson(ref="d", name="丁", id_number=newcomer["id_number"])]
    reads = []
    listen = lambda _c, _cur, statement, *_a: reads.append(statement) if "register_player" in statement else None
    sa.event.listen(db.engine, "before_cursor_execute", listen)
    try:
        def judged_at(r):
            fresh = [ParsedPerson(ref=p.ref, name=p.name, id_number=p.id_number) for p in people]
            known_to_register(fresh, final, "zhejiang", revision=r)
            return fresh[1]
        before = revision()
        assert judged_at(before).grades == [] and len(reads) == 1
        assert judged_at(before).grades == [] and len(reads) == 1  # the same revision: not read again
        assert record_grade(Actor("组委会"), newcomer["id_number"], "丁", "cxa", "象棋大师", dt.date(2026, 7, 5),
                            "组委会录入", unit="zhejiang").ok
        db.session.commit()
        after = revision()
        assert after > before
        assert [g.grade for g in judged_at(after).grades] == ["象棋大师"] and len(reads) > 1
    finally:
        sa.event.remove(db.engine, "before_cursor_execute", listen)
