"""A committee sets up next year's championship in the screens (issue 26, 1 and 3): a copy
of the last edition with every date moved on, a draft leaders cannot see, each section
saved and checked with the field named, rules added in forms, publication, then an
amendment previewed (its words, whom it affects) and kept as a version."""
import datetime as dt
import re

from builders import account, csrf_token, doc, logged_in, person
from test_results_entry import season  # noqa: F401  (the fixture: four clubs of youth-gomoku-2015)

PASSWORD = "password-123"
EDITION_2015 = 2015  # youth-gomoku-2015 numbers its edition by its year


def _token(app, client, url):
    with app.app_context():
        page = client.get(url).get_data(as_text=True)
    return csrf_token(page)


def _get(app, client, url):
    with app.app_context():
        return client.get(url)


def _post(app, client, url, data, page=None):
    token = _token(app, client, page or url)
    with app.app_context():
        return client.post(url, data={"csrf_token": token, **data})


def _games(slug):
    from portal.extensions import db
    from portal.games.models import Games
    db.session.rollback()
    return db.session.query(Games).filter_by(slug=slug).one()


def test_next_years_championship_from_the_last_edition(app, db):
    with app.app_context():
        account("root", "admin", name="管理员")
        db.session.commit()
    admin = logged_in(app, "root")
    refused = _post(app, admin, "/org/games/new", {"slug": "Youth 2017", "name_zh": "x"})
    assert refused.status_code == 422 and "网址代码只能用小写字母" in refused.get_data(as_text=True)
    made = _post(app, admin, "/org/games/new", {"slug": "youth-gomoku-2017", "name_zh": "2017年全国少年儿童五子棋锦标赛",
                                                "name_en": "2017 National Youth Gomoku Championships",
                                                "copy_of": "youth-gomoku-2015", "years_later": "2"})
    assert made.status_code == 302 and made.headers["Location"].endswith("/org/games/youth-gomoku-2017/setup")
    with app.app_context():
        from portal.games.services import definition_of
        games = _games("youth-gomoku-2017")
        definition = definition_of(games)
        assert games.status == "draft" and definition.edition == EDITION_2015 + 2
        assert definition.dates.start == dt.date(2017, 7, 15)  # 2015-07-15 two years on
        assert definition.stages.names_closes == dt.datetime(2017, 7, 9, tzinfo=dt.timezone(dt.timedelta(hours=8)))
        age = next(r for r in definition.rules if r.kind == "age_bracket")
        assert age.born_from == dt.date(2000, 1, 1)  # the age groups move with the Games
    # A draft is not open to anyone registering or logging in.
    anonymous = app.test_client()
    assert "2017年全国少年儿童五子棋锦标赛" not in _get(app, anonymous, "/login").get_data(as_text=True)
    assert _get(app, anonymous, "/register/youth-gomoku-2017").status_code == 404

    # The administrator gives it an organiser, who sets it up.
    with app.app_context():
        account("yg-org", "organiser", games=["youth-gomoku-2017"])
        db.session.commit()
    org = logged_in(app, "yg-org")
    setup = "/org/games/youth-gomoku-2017/setup"
    page = _get(app, org, setup).get_data(as_text=True)
    assert "草稿：领队看不到" in page and 'value="2017-07-08"' in page and 'value="24:00"' in page
    # A last day before the first: refused, the field named, nothing saved.
    bad = _post(app, org, setup + "/basics", {"name_zh": "2017年全国少年儿童五子棋锦标赛", "name_en": "x",
                                             "start": "2017-07-15", "end": "2017-07-01"}, page=setup)
    assert bad.status_code == 422 and "结束日期早于开始日期" in bad.get_data(as_text=True)
    # Names now close on 10 July at 17:00, China time.
    r = _post(app, org, setup + "/stages", {"names_closes_day": "2017-07-10", "names_closes_hour": "17:00",
                                           "substitutions_closes_day": "2017-07-12", "substitutions_closes_hour": "24:00",
                                           "changes_close_day": "2017-07-12", "changes_close_hour": "24:00",
                                           "changes_need_approval": "on"}, page=setup)
    assert r.status_code == 302
    with app.app_context():
        from portal.games.services import definition_of
        stages = definition_of(_games("youth-gomoku-2017")).stages
        assert stages.names_closes == dt.datetime(2017, 7, 10, 9, tzinfo=dt.UTC)
        assert stages.declaration_closes is None
    wrong_hour = _post(app, org, setup + "/stages", {"names_closes_day": "2017-07-10", "names_closes_hour": "25:00"},
                       page=setup)
    assert wrong_hour.status_code == 422 and "报名截止的时间应为 0:00 至 24:00" in wrong_hour.get_data(as_text=True)

    # A rule in a form: at most 2 boys per unit in junior A, from clause 八(一).
    add = "/org/games/youth-gomoku-2017/setup/rules/new?kind=quota"
    form = _get(app, org, add).get_data(as_text=True)
    assert "每单位限报人数" in form and "gomoku.MJA" in form
    r = _post(app, org, add, {"op": "save", "p_events": ["gomoku.MJA"], "p_max": "2", "p_clause": "八(一)"})
    assert r.status_code == 302
    readback = _get(app, org, "/org/games/youth-gomoku-2017/regulation").get_data(as_text=True)
    assert "每单位五子棋男子少年甲组限报 2 人" in readback and "规程 八(一)" in readback
    # A rule the definition refuses: the field named as the screen names it.
    r = _post(app, org, add, {"op": "save", "p_events": ["gomoku.MJA"], "p_max": "-1"})
    text = r.get_data(as_text=True)
    assert r.status_code == 422 and "规则：最多人数" in text and "应不小于 0" in text

    # Publication opens it; from then on a change is an amendment.
    assert _post(app, org, "/org/games/youth-gomoku-2017/publish", {}, page=setup).status_code == 302
    with app.app_context():
        assert _games("youth-gomoku-2017").status == "published"
    assert _get(app, anonymous, "/register/youth-gomoku-2017").status_code == 200

    # A delegation enters two boys in junior A: within the quota of 2.
    with app.app_context():
        from builders import individual, stored
        stored("youth-gomoku-2017", doc("youth-gomoku-2017", unit="zhejiang", people=[
            person("b1", born="2004-03-01", year=2017), person("b2", born="2004-04-01", year=2017)],
            entries=[individual("gomoku.MJA", "b1", "b2")]), dt.datetime(2017, 6, 1, tzinfo=dt.UTC))
    # The amendment lowers the quota to 1: previewed first, saved only when confirmed.
    rules = _games_rules(app)
    index = next(i for i, x in enumerate(rules) if x["kind"] == "quota")
    edit = f"/org/games/youth-gomoku-2017/setup/rules/{index}"
    preview = _post(app, org, edit, {"op": "save", "p_events": ["gomoku.MJA"], "p_max": "1", "p_clause": "八(一)"})
    text = preview.get_data(as_text=True)
    assert preview.status_code == 200 and "补充通知：修改的影响" in text
    assert "每单位五子棋男子少年甲组限报 1 人" in text and "每单位五子棋男子少年甲组限报 2 人" in text
    assert "浙江" in text  # the delegation that would newly break the rule
    assert _games_rules(app)[index]["max"] == 2  # nothing saved yet
    no_number = _post(app, org, edit, {"op": "save", "p_events": ["gomoku.MJA"], "p_max": "1", "do": "confirm"})
    assert no_number.status_code == 422 and "补充通知" in no_number.get_data(as_text=True)
    done = _post(app, org, edit, {"op": "save", "p_events": ["gomoku.MJA"], "p_max": "1", "p_clause": "八(一)",
                                  "do": "confirm", "amendment": "补充通知（一）", "reason": "场地所限"})
    assert done.status_code == 302
    assert _games_rules(app)[index]["max"] == 1
    with app.app_context():
        from portal.audit.models import AuditLog
        from portal.games.models import GamesVersion
        games = _games("youth-gomoku-2017")
        versions = db.session.query(GamesVersion).filter_by(games_id=games.id).order_by(GamesVersion.number).all()
        assert [(v.number, v.amendment) for v in versions] == [(1, None), (2, "补充通知（一）")]
        row = db.session.query(AuditLog).filter_by(action="games.amend").one()
        assert row.games_slug == "youth-gomoku-2017" and "补充通知（一）" in row.reason
        assert "每单位五子棋男子少年甲组限报 1 人" in row.after["added"]
    page = _get(app, org, setup).get_data(as_text=True)
    assert "补充通知（一）" in page and "场地所限" in page
    # The leader of the delegation reads it on his dashboard, his entry judged by the new rule.
    with app.app_context():
        from portal.delegations.models import Delegation
        delegation = db.session.query(Delegation).filter_by(unit_code="zhejiang", games_id=_games("youth-gomoku-2017").id).one()
        account("zj-2017", "leader", delegation=delegation)
        db.session.commit()
        delegation_id = delegation.id
    leader = logged_in(app, "zj-2017")
    dashboard = _get(app, leader, f"/d/{delegation_id}").get_data(as_text=True)
    assert "组委会发布的补充通知" in dashboard and "补充通知（一）" in dashboard and "场地所限" in dashboard
    assert "QUOTA_EXCEEDED" in dashboard


def _games_rules(app):
    with app.app_context():
        return list(_games("youth-gomoku-2017").definition["rules"])


def test_a_blank_games_needs_its_dates_and_the_staff_of_another_games_cannot_touch_it(app, db):
    with app.app_context():
        account("root2", "admin", name="管理员")
        account("other-org", "organiser", games=["nmsg-2019"])
        db.session.commit()
    admin = logged_in(app, "root2")
    r = _post(app, admin, "/org/games/new", {"slug": "hz-chess-2027", "name_zh": "杭州市国际象棋锦标赛"})
    assert r.status_code == 422 and "请填写比赛的开始和结束日期" in r.get_data(as_text=True)
    r = _post(app, admin, "/org/games/new", {"slug": "hz-chess-2027", "name_zh": "杭州市国际象棋锦标赛",
                                             "start": "2027-05-01", "end": "2027-05-03"})
    assert r.status_code == 302
    other = logged_in(app, "other-org")
    assert _get(app, other, "/org/games/hz-chess-2027/setup").status_code == 404
    # Publishing with no events is refused: leaders would have nothing to enter.
    r = _post(app, admin, "/org/games/hz-chess-2027/publish", {}, page="/org/games/hz-chess-2027/setup")
    assert r.status_code == 302
    with app.app_context():
        assert _games("hz-chess-2027").status == "draft"
        from builders import stored
        early = stored("hz-chess-2027", doc("hz-chess-2027", unit="zhejiang"), dt.datetime(2027, 1, 5, tzinfo=dt.UTC))
        account("hz-leader", "leader", delegation=early)
        db.session.commit()
        early_id = early.id
    # A leader whose account was made early finds nothing until the Games are published.
    leader = logged_in(app, "hz-leader")
    assert _get(app, leader, f"/d/{early_id}").status_code == 404
    assert "比赛尚未发布" in _get(app, leader, "/").get_data(as_text=True)


def test_invited_units_are_typed_by_name_and_an_unknown_one_is_named(app, db):
    with app.app_context():
        account("root4", "admin", name="管理员")
        db.session.commit()
    admin = logged_in(app, "root4")
    assert _post(app, admin, "/org/games/new", {"slug": "inv-2027", "name_zh": "邀请赛", "start": "2027-05-01",
                                                "end": "2027-05-02"}).status_code == 302
    setup = "/org/games/inv-2027/setup"
    r = _post(app, admin, setup + "/participation", {"invited": "浙江、jiangsu", "capacity": "40"}, page=setup)
    assert r.status_code == 302
    with app.app_context():
        games = _games("inv-2027")
        assert games.definition["participation"]["invited"] == ["zhejiang", "jiangsu"]
        assert games.definition["capacity"] == 40
    r = _post(app, admin, setup + "/participation", {"invited": "浙江、火星棋院"}, page=setup)
    assert r.status_code == 422 and "火星棋院" in r.get_data(as_text=True)
    assert 'value="浙江省、江苏省"' in _get(app, admin, setup).get_data(as_text=True)


def test_a_delegation_is_judged_by_the_version_in_force_at_each_instant(app, db, monkeypatch, cli):
    """An amendment applies from its confirmation: four men entered under the old quota of 4
    break the new quota of 3 from then on, and not as things stood before it (the check at
    a past instant, the workspace then and now)."""
    import json

    from builders import individual, stored

    from portal.audit.services import Actor
    from portal.delegations.services import check_document
    from portal.games.services import definition_in_force, find_games
    from portal.setup.services import save_definition
    china = dt.timezone(dt.timedelta(hours=8))
    before, confirmed, after = (dt.datetime(2019, 8, d, 10, tzinfo=china) for d in (5, 10, 15))
    men = [person(f"m{i}", born=f"199{i}-05-05", year=2019) for i in range(1, 5)]
    document = doc("nmsg-2019", people=men, entries=[individual("chess.MI", *[p["ref"] for p in men])])
    d = stored("nmsg-2019", document, dt.datetime(2019, 8, 1, tzinfo=china))
    account("zj-v", "leader", delegation=d)
    db.session.commit()
    games = find_games("nmsg-2019")
    data = json.loads(json.dumps(games.definition))
    quota = next(r for r in data["rules"] if r["kind"] == "quota" and r.get("events") == ["chess.MI"])
    quota["max"] = 3
    assert save_definition(games, data, Actor("组委会"), amendment="补充通知（二）", reason="场地所限", at=confirmed).ok
    db.session.commit()

    def codes(at):
        report, _status = check_document(document, at, stored=False)
        return {v["code"] for v in report["violations"]}
    assert "QUOTA_EXCEEDED" not in codes(before)
    assert "QUOTA_EXCEEDED" in codes(after)
    assert definition_in_force(find_games("nmsg-2019"), before)[0] == 1
    assert definition_in_force(find_games("nmsg-2019"), after)[0] is None  # the definition as it stands
    # The `check` command at a past instant reads the version of then, too.
    path = app.instance_path + "/four-men.json"
    with open(path, "w", encoding="utf-8") as f:
        json.dump(document, f, ensure_ascii=False)
    then = cli.invoke(args=["check", path, "--at", before.isoformat()])
    now = cli.invoke(args=["check", path, "--at", after.isoformat()])
    assert "QUOTA_EXCEEDED" not in then.output and "QUOTA_EXCEEDED" in now.output
    # Each version is read and compared, in words.
    account("v-org", "organiser", games=["nmsg-2019"])
    account("v-other", "organiser", games=["youth-gomoku-2015"])
    db.session.commit()
    org = logged_in(app, "v-org")
    setup = _get(app, org, "/org/games/nmsg-2019/setup").get_data(as_text=True)
    assert 'href="/org/games/nmsg-2019/versions/2"' in setup and "补充通知（二）" in setup
    page = _get(app, org, "/org/games/nmsg-2019/versions/2").get_data(as_text=True)
    assert "自 2019-08-10 10:00（北京时间）起施行" in page and "现行版本" in page and "场地所限" in page
    assert "<del>每单位国际象棋男子个人限报 4 人</del>" in page and "<ins>每单位国际象棋男子个人限报 3 人</ins>" in page
    first = _get(app, org, "/org/games/nmsg-2019/versions/1").get_data(as_text=True)
    assert "已被后来的补充通知取代" in first and "每单位国际象棋男子个人限报 4 人" in first and "None" not in first
    assert _get(app, org, "/org/games/nmsg-2019/versions/3").status_code == 404
    assert _get(app, logged_in(app, "v-other"), "/org/games/nmsg-2019/versions/2").status_code == 404
    # The workspace, as the clock stands (the remembered judgement follows the version).
    leader = logged_in(app, "zj-v")
    for at, shown in ((before, False), (after, True), (before, False)):
        monkeypatch.setitem(app.config, "FIXED_NOW", at)
        assert ("QUOTA_EXCEEDED" in _get(app, leader, f"/d/{d.id}/entries").get_data(as_text=True)) is shown, at


def _upload(app, client, url, content: str, page: str, **fields):
    import io
    token = _token(app, client, page)
    with app.app_context():
        return client.post(url, data={"csrf_token": token, "file": (io.BytesIO(content.encode("utf-8")), "特邀单位.csv"),
                                      **fields})


def test_the_invitation_list_is_uploaded_as_a_sheet(app, db):
    """Issue 26, 4: units already known are invited by name or short name, new ones join
    the list of units; a sheet with a mistake is refused whole with its row named; once
    published, the list is an amendment previewed first."""
    from portal.games.models import Unit
    with app.app_context():
        account("root5", "admin", name="管理员")
        db.session.commit()
    admin = logged_in(app, "root5")
    assert _post(app, admin, "/org/games/new", {"slug": "inv-2028", "name_zh": "邀请赛", "start": "2028-05-01",
                                                "end": "2028-05-02"}).status_code == 302
    setup = "/org/games/inv-2028/setup"
    sheet = "/org/games/inv-2028/setup/invited-sheet"
    assert "上传特邀单位名单" in _get(app, admin, setup).get_data(as_text=True)
    bad = _upload(app, admin, sheet, "单位名称,类别,所属省份\n浙江省,,\n之江棋艺学院,棋院,浙江\n", setup)
    assert bad.status_code == 422 and "第 3 行" in bad.get_data(as_text=True) and "棋院" in bad.get_data(as_text=True)
    no_kind = _upload(app, admin, sheet, "单位名称\n浙江省\n钱塘棋社\n", setup)
    assert no_kind.status_code == 422 and "钱塘棋社" in no_kind.get_data(as_text=True)
    with app.app_context():
        assert _games("inv-2028").definition["participation"]["invited"] == []  # nothing saved
        assert db.session.query(Unit).filter_by(name_zh="之江棋艺学院").count() == 0
    good = _upload(app, admin, sheet, "邀请名单\n单位名称,类别,所属省份\n浙江省,,\n江苏,,\n浙江大学,高校,浙江\n", setup)
    assert good.status_code == 302
    with app.app_context():
        new = db.session.query(Unit).filter_by(name_zh="浙江大学").one()
        # a university is found on the national list: its own students are its to send (issue 37, 2)
        assert new.kind == "university" and new.province_code and new.universities == ["4133010335"]
        assert _games("inv-2028").definition["participation"]["invited"] == ["zhejiang", "jiangsu", new.code]
    page = _get(app, admin, setup).get_data(as_text=True)
    assert "浙江省、江苏省、浙江大学" in page and "其中 1 个新加入单位名单" in page
    # Uploaded again with "keep": those already invited stay, the new one is added once.
    assert _upload(app, admin, sheet, "单位名称\n上海市\n浙江大学\n", setup, keep="on").status_code == 302
    with app.app_context():
        assert _games("inv-2028").definition["participation"]["invited"] == ["zhejiang", "jiangsu", new.code, "shanghai"]

    # A published Games: previewed as an amendment, then confirmed on the section's own form.
    setup = "/org/games/youth-gomoku-2015/setup"
    preview = _upload(app, admin, "/org/games/youth-gomoku-2015/setup/invited-sheet", "单位名称\n浙江省\n", setup)
    text = preview.get_data(as_text=True)
    assert preview.status_code == 200 and "补充通知：修改的影响" in text
    assert 'action="/org/games/youth-gomoku-2015/setup/participation"' in text
    assert 'name="invited" value="zhejiang"' in text
    with app.app_context():
        assert _games("youth-gomoku-2015").definition["participation"].get("invited") in (None, [])
    hidden = dict(re.findall(r'<input type="hidden" name="([^"]+)" value="([^"]*)">', text))
    hidden.pop("csrf_token", None)
    done = _post(app, admin, "/org/games/youth-gomoku-2015/setup/participation",
                 {**hidden, "do": "confirm", "amendment": "补充通知（三）", "reason": "增加特邀单位"}, page=setup)
    assert done.status_code == 302
    with app.app_context():
        assert _games("youth-gomoku-2015").definition["participation"]["invited"] == ["zhejiang"]


def test_an_events_sessions_are_typed_in_china_time(app, db):
    with app.app_context():
        account("root6", "admin", name="管理员")
        db.session.commit()
    admin = logged_in(app, "root6")
    assert _post(app, admin, "/org/games/new", {"slug": "ses-2027", "name_zh": "邀请赛", "start": "2027-05-10",
                                                "end": "2027-05-11"}).status_code == 302
    setup = "/org/games/ses-2027/setup"
    base = {"sport_code_0": "gomoku", "sport_zh_0": "五子棋", "sport_en_0": "Gomoku", "event_code_0": "gomoku.MI",
            "event_sport_0": "gomoku", "event_zh_0": "男子个人", "event_en_0": "Men's individual", "event_gender_0": "M",
            "event_kind_0": "individual"}
    bad = _post(app, admin, setup + "/events", {**base, "event_sessions_0": "5月10日上午"}, page=setup)
    assert bad.status_code == 422 and "男子个人的比赛时间“5月10日上午”看不懂" in bad.get_data(as_text=True)
    backwards = _post(app, admin, setup + "/events", {**base, "event_sessions_0": "2027-05-10 12:00-08:30"}, page=setup)
    assert backwards.status_code == 422 and "结束不晚于开始" in backwards.get_data(as_text=True)
    ok = _post(app, admin, setup + "/events", {**base, "event_sessions_0": "2027-05-10 08:30-12:00；2027-5-10 19:00 - 2027-05-11 01:00"},
               page=setup)
    assert ok.status_code == 302
    with app.app_context():
        from portal.games.services import definition_of
        sessions = definition_of(_games("ses-2027")).events[0].sessions
        utc = dt.UTC
        assert [(s.start, s.end) for s in sessions] == [  # the instants, whatever offset they are written with
            (dt.datetime(2027, 5, 10, 0, 30, tzinfo=utc), dt.datetime(2027, 5, 10, 4, tzinfo=utc)),
            (dt.datetime(2027, 5, 10, 11, tzinfo=utc), dt.datetime(2027, 5, 10, 17, tzinfo=utc))]
    assert 'value="2027-05-10 08:30-12:00；2027-05-10 19:00-2027-05-11 01:00"' in _get(app, admin, setup).get_data(as_text=True)


def test_an_amendments_impact_names_moved_deadlines_and_changed_fees(app, db, season):  # noqa: F811
    """The preview of an amendment says which deadlines move and whose fees change."""
    account("yg-root", "admin", name="管理员")
    db.session.commit()
    admin = logged_in(app, "yg-root")
    setup = "/org/games/youth-gomoku-2015/setup"
    moved = _post(app, admin, setup + "/stages", {"names_closes_day": "2015-07-10", "names_closes_hour": "17:00",
                                                 "substitutions_closes_day": "2015-07-12", "substitutions_closes_hour": "24:00",
                                                 "changes_close_day": "2015-07-12", "changes_close_hour": "24:00",
                                                 "changes_need_approval": "on"}, page=setup)
    text = moved.get_data(as_text=True)
    assert moved.status_code == 200 and "日期和截止时间的变动" in text
    assert "报名（姓名）截止：<del>2015-07-08 24:00</del> → <ins>2015-07-10 17:00</ins>" in text
    fees = _games("youth-gomoku-2015").definition["money"]["fees"]
    index = next(i for i, f in enumerate(fees) if f["code"] == "entry")
    fee = f"/org/games/youth-gomoku-2015/setup/list/fees/{index}"
    assert 'name="p_amount" inputmode="decimal" value="200.00"' in _get(app, admin, fee).get_data(as_text=True)
    dearer = _post(app, admin, fee, {"op": "save", "p_code": "entry", "p_name_zh": "报名费", "p_name_en": "Entry fee",
                                     "p_amount": "250", "p_per": "athlete", "p_refundable": "never"})
    text = dearer.get_data(as_text=True)
    assert dearer.status_code == 200 and "应缴费用（元）" in text
    # 南开: three athletes and a team group, 3 × 200 + 200 before, 3 × 250 + 200 after.
    assert re.search(r"<td>南开</td>.*?<del>800\.00</del> → <ins>950\.00</ins>", text, re.S)


def test_a_national_games_amendment_is_judged_in_the_background(app, db, season, monkeypatch):  # noqa: F811
    """Above IN_REQUEST_PEOPLE the two judgements of every delegation are a job: the
    preview says so, the job's page leads to the impact, which carries the form to confirm."""
    import time

    from portal.jobs.models import Job
    monkeypatch.setattr("portal.setup.page.IN_REQUEST_PEOPLE", 0)
    account("yg-root2", "admin", name="管理员")
    db.session.commit()
    admin = logged_in(app, "yg-root2")
    setup = "/org/games/youth-gomoku-2015/setup"
    rules = _games("youth-gomoku-2015").definition["rules"]
    index, age = next((i, r) for i, r in enumerate(rules) if r["kind"] == "age_bracket")  # junior A
    edit = f"/org/games/youth-gomoku-2015/setup/rules/{index}"
    # Junior A from those born in 2001: the clubs' children, born in 2000, are too old.
    fields = {"op": "save", "p_events": age["events"], "p_born_from": "2001-01-01", "p_born_to": age["born_to"],
              "p_clause": age["clause"]}
    preview = _post(app, admin, edit, fields)
    text = preview.get_data(as_text=True)
    assert preview.status_code == 200 and "正在后台计算" in text
    job_id = int(re.search(r'href="/jobs/(\d+)"', text).group(1))
    for _i in range(100):
        db.session.rollback()
        if db.session.get(Job, job_id).status in ("done", "failed"):
            break
        time.sleep(0.1)
    assert db.session.get(Job, job_id).status == "done", db.session.get(Job, job_id).error
    page = _get(app, admin, f"/jobs/{job_id}").get_data(as_text=True)
    assert f'href="/org/games/youth-gomoku-2015/impact/{job_id}"' in page
    shown = _get(app, admin, f"/org/games/youth-gomoku-2015/impact/{job_id}").get_data(as_text=True)
    assert "<td>南开</td>" in shown and "AGE_BRACKET" in shown
    assert f'action="{edit}"' in shown and 'name="p_born_from" value="2001-01-01"' in shown
    # Another organiser (or the same one, for another Games) does not see it.
    account("yg-other", "organiser", games=["youth-gomoku-2015"])
    db.session.commit()
    assert _get(app, logged_in(app, "yg-other"), f"/org/games/youth-gomoku-2015/impact/{job_id}").status_code == 404
    assert _get(app, admin, f"/org/games/nmsg-2019/impact/{job_id}").status_code == 404
    hidden = re.findall(r'<input type="hidden" name="([^"]+)" value="([^"]*)">', shown)
    token = _token(app, admin, setup)
    with app.app_context():
        from werkzeug.datastructures import MultiDict
        done = admin.post(edit, data=MultiDict([(k, v) for k, v in hidden if k != "csrf_token"] + [
            ("csrf_token", token), ("do", "confirm"), ("amendment", "补充通知（一）"), ("reason", "场地所限")]))
    assert done.status_code == 302
    assert _games("youth-gomoku-2015").definition["rules"][index]["born_from"] == "2001-01-01"


def test_fees_rooms_awards_contacts_and_the_meeting_are_set_in_forms(app, db):
    """Issue 26, 1: no YAML for the committee's staff: each fee, room type, award, contact
    and the leaders' meeting in a form read off its model, every mistake named."""
    with app.app_context():
        account("root7", "admin", name="管理员")
        db.session.commit()
    admin = logged_in(app, "root7")
    assert _post(app, admin, "/org/games/new", {"slug": "forms-2027", "name_zh": "表单赛", "copy_of": "youth-gomoku-2015",
                                                "years_later": "2"}).status_code == 302
    base = "/org/games/forms-2027/setup"
    page = _get(app, admin, base).get_data(as_text=True)
    assert "报名费 200.00 元（每名运动员）" in page and "录取名次（十(一)）" in page
    # A fee: the amount as typed ("¥250 元" reads as 250.00); a wrong amount is named.
    bad = _post(app, admin, base + "/list/fees/0", {"op": "save", "p_code": "entry", "p_name_zh": "报名费",
                                                   "p_amount": "两百", "p_per": "athlete"}, page=base)
    assert bad.status_code == 422 and "金额应为数字，如 200 或 200.00" in bad.get_data(as_text=True)
    ok = _post(app, admin, base + "/list/fees/0", {"op": "save", "p_code": "entry", "p_name_zh": "报名费",
                                                  "p_name_en": "Entry fee", "p_amount": "¥250元", "p_per": "athlete",
                                                  "p_refundable": "never"}, page=base)
    assert ok.status_code == 302
    assert _games("forms-2027").definition["money"]["fees"][0]["amount"] == "250.00"
    # A new fee, per delegation; the definition checks it whole (a code is needed).
    nameless = _post(app, admin, base + "/list/fees/new", {"op": "save", "p_name_zh": "资料费", "p_amount": "30",
                                                          "p_per": "delegation"}, page=base)
    assert nameless.status_code == 422 and "代码" in nameless.get_data(as_text=True)
    assert _post(app, admin, base + "/list/fees/new", {"op": "save", "p_code": "materials", "p_name_zh": "资料费",
                                                      "p_amount": "30", "p_per": "delegation"}, page=base).status_code == 302
    assert "资料费 30.00 元（每个代表团）" in _get(app, admin, base).get_data(as_text=True)
    # An award of a kind chosen: points by place, typed as a list of numbers.
    form = _get(app, admin, base + "/list/awards/new?kind=points").get_data(as_text=True)
    assert 'name="p_table"' in form and "计分" in form
    assert _post(app, admin, base + "/list/awards/new?kind=points", {"op": "save", "p_table": "9、7、5、3、2、1",
                                                                    "p_clause": "十(三)"}, page=base).status_code == 302
    award = _games("forms-2027").definition["awards"][-1]
    assert (award["kind"], award["table"], award["clause"]) == ("points", ["9", "7", "5", "3", "2", "1"], "十(三)")
    # The leaders' meeting at a China date and hour.
    assert _post(app, admin, base + "/settings/meeting", {"p_name_zh": "领队会议", "p_name_en": "Leaders' meeting",
                                                         "p_at_day": "2017-07-14", "p_at_hour": "19:30",
                                                         "p_confirms_names": "on", "p_leaders_must_attend": "on"},
                 page=base).status_code == 302
    meeting = _games("forms-2027").definition["leaders_meeting"]
    assert dt.datetime.fromisoformat(meeting["at"]) == dt.datetime(2017, 7, 14, 11, 30, tzinfo=dt.UTC)
    assert 'name="p_at_hour" value="19:30"' in _get(app, admin, base + "/settings/meeting").get_data(as_text=True)
    # A contact removed.
    contacts = len(_games("forms-2027").definition["contacts"])
    assert _post(app, admin, base + "/list/contacts/0", {"op": "delete"}, page=base).status_code == 302
    assert len(_games("forms-2027").definition["contacts"]) == contacts - 1
    # What has a form is not typed in the YAML box any more.
    typed = _post(app, admin, base + "/advanced", {"advanced": "money: {fees: []}"}, page=base)
    assert typed.status_code == 422 and "它在上面各部分中设置" in typed.get_data(as_text=True)


def test_every_games_exports_as_the_fixture_format_and_loads_back_identically(app, db, cli, tmp_path):
    """Issue 26, 7: the four fixtures and a Games made in the screens, exported and loaded
    back by `flask games load`, give the very same definition."""
    from portal.games.services import all_fixture_slugs, read_fixture
    with app.app_context():
        account("root8", "admin", name="管理员")
        db.session.commit()
    admin = logged_in(app, "root8")
    assert _post(app, admin, "/org/games/new", {"slug": "trip-2027", "name_zh": "往返赛", "copy_of": "nmsg-2019",
                                                "years_later": "8"}).status_code == 302
    for slug in [*all_fixture_slugs(), "trip-2027"]:
        before = _games(slug).definition
        exported = _get(app, admin, f"/org/games/{slug}/definition.yaml")
        assert exported.status_code == 200 and exported.mimetype == "application/x-yaml"
        path = tmp_path / f"{slug}.yaml"
        path.write_bytes(exported.get_data())
        assert read_fixture(path).model_dump(mode="json") == before, slug
        loaded = cli.invoke(args=["games", "load", str(path)])
        assert loaded.exit_code == 0, loaded.output
        assert _games(slug).definition == before, slug
    assert _get(app, logged_in(app, "root8"), "/org/games/trip-2027/definition.yaml").status_code == 200
