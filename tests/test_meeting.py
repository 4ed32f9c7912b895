"""The leaders' meeting (issue 11, item 2): youth-gomoku-2015 十一(十) 开赛前一天晚7点30分召开领队
会议 ... 核实参赛人员名单。领队会召开的时间为报到最后期限，各单位领队必须参加。"""
import datetime as dt

from builders import account, csrf_token, logged_in
from sqlalchemy import select

CHINA = dt.timezone(dt.timedelta(hours=8))


def _delegation(db, slug="youth-gomoku-2015"):
    from builders import doc, individual, person

    from portal.audit.services import Actor
    from portal.games.services import find_games
    from portal.workflow import services as svc
    games = find_games(slug)
    people = [person("b", "M", "2006-06-06", docs=("photo", "id_copy"), name="王小明"),
              person("g", "F", "2006-07-07", docs=("photo", "id_copy"), name="李小红"),
              person("l", "M", "1980-01-01", name="张领队"), person("c", "F", "1981-01-01", name="陈教练")]
    out = svc.import_document(games, doc(slug, unit={"name": "河西棋院", "kind": "club"}, people=people,
                                         entries=[individual("gomoku.MCA", "b"), individual("gomoku.WCA", "g")],
                                         officials=[{"person": "l", "role": "leader", "sport": "gomoku"},
                                                    {"person": "c", "role": "coach", "sport": "gomoku"}]),
                              dt.datetime(2015, 7, 1, tzinfo=CHINA), Actor("t"))
    assert out.ok, out.violations
    assert svc.approve(out.delegation, Actor("组委会"), dt.datetime(2015, 7, 2, tzinfo=CHINA)).ok
    db.session.commit()
    return games, out.delegation


def test_check_in_closes_when_the_meeting_begins(app, db):
    from portal.audit.services import Actor
    from portal.venue.checkin import check_in
    _games, d = _delegation(db)
    out = check_in(d, "b", [], Actor("前台"), dt.datetime(2015, 7, 14, 19, 0, tzinfo=CHINA))
    assert out.ok, out.message
    out = check_in(d, "g", [], Actor("前台"), dt.datetime(2015, 7, 14, 19, 31, tzinfo=CHINA))
    assert not out.ok and "报到截止于领队会议召开时（2015-07-14 19:30）" in out.message[0]


def test_the_roll_call_confirms_the_names_and_the_leader_must_attend(app, db):
    from portal.audit.models import AuditLog
    from portal.audit.services import Actor
    from portal.venue.checkin import check_in
    from portal.venue.meeting import confirm, roll
    from portal.venue.models import RollCall
    games, d = _delegation(db)
    assert check_in(d, "b", [], Actor("前台"), dt.datetime(2015, 7, 14, 15, 0, tzinfo=CHINA)).ok
    out = confirm(d, "张领队", Actor("组委会"), dt.datetime(2015, 7, 13, 19, 30, tzinfo=CHINA))
    assert not out.ok and "2015-07-14 19:30" in out.message[0]  # not before the meeting's day
    out = confirm(d, "  ", Actor("组委会"), dt.datetime(2015, 7, 14, 19, 40, tzinfo=CHINA))
    assert not out.ok and "领队必须参加" in out.message[0]
    out = confirm(d, "张领队", Actor("组委会"), dt.datetime(2015, 7, 14, 19, 40, tzinfo=CHINA))
    assert out.ok, out.message
    call = db.session.scalar(select(RollCall).where(RollCall.delegation_id == d.id))
    assert call.attended_by == "张领队"
    assert call.names == [["王小明", ["五子棋男子儿童甲组"], True], ["李小红", ["五子棋女子儿童甲组"], False]]
    row = roll(games)[0]
    assert row["leaders"] == ["张领队"] and (row["entrants"], row["arrived"]) == (2, 1) and row["call"].confirmed_at
    log = db.session.scalar(select(AuditLog).where(AuditLog.action == "meeting.confirm"))
    assert log.after["attended_by"] == "张领队" and log.after["not_arrived"] == ["李小红"]


def test_a_meeting_without_an_hour_does_not_close_check_in(app, db):
    """nmsg-2009 七(五): the technical meeting on 13 Nov, its hour announced later."""
    from portal.games.services import definition_of, find_games
    from portal.venue.arrivals import checkin_closed, when
    definition = definition_of(find_games("nmsg-2009"))
    assert when(definition.leaders_meeting) == "2009-11-13"
    assert checkin_closed(definition, dt.datetime(2009, 11, 14, 9, 0, tzinfo=CHINA)) is None


def test_the_meeting_page(app, db, monkeypatch):
    games, d = _delegation(db)
    account("meet-org", "organiser", name="组委会")
    monkeypatch.setitem(app.config, "FIXED_NOW", dt.datetime(2015, 7, 14, 11, 40, tzinfo=dt.UTC))
    client = logged_in(app, "meet-org", "password-123")
    with app.app_context():
        overview = client.get(f"/org/games/{games.slug}/meeting").get_data(as_text=True)
    assert "河西棋院" in overview and "张领队" in overview and "未点名" in overview and "王小明" not in overview
    with app.app_context():
        detail = client.get(f"/org/games/{games.slug}/meeting?delegation={d.id}").get_data(as_text=True)
    assert "王小明" in detail and "李小红" in detail and 'value="张领队"' in detail
    token = csrf_token(detail)
    with app.app_context():
        r = client.post(f"/org/games/{games.slug}/meeting/{d.id}", data={"csrf_token": token, "attended_by": "张领队"})
        assert r.status_code == 302
        assert client.post(f"/org/games/{games.slug}/meeting/{d.id}", data={"attended_by": "x"}).status_code == 400
        assert client.post(f"/org/games/nmsg-2009/meeting/{d.id}",
                           data={"csrf_token": token, "attended_by": "x"}).status_code == 404
        after = client.get(f"/org/games/{games.slug}/meeting?delegation={d.id}").get_data(as_text=True)
    assert "已确认" in after and "19:40" in after
