"""Rules that read the portal's history and find none, named on the set-up page: a
qualified-only event nobody can qualify for, earlier placers barred by a series without
results (or whose places were never carried), a bonus for a last edition without results."""
import datetime as dt

from builders import account, logged_in, person
from sqlalchemy import delete
from test_player_register import _doc, _games

from portal.audit.services import Actor
from portal.setup.register_traps import register_traps

AT = dt.datetime(2026, 5, 1, 10, tzinfo=dt.timezone(dt.timedelta(hours=8)))
BARRED = {"kind": "placed_before", "events": ["xiangqi.MI"], "top": 3, "series": ["xq"],
          "name": {"zh": "历届前三名", "en": "earlier top three"}}


def _traps(games):
    from portal.games.services import definition_of
    return [zh for zh, _en in register_traps(games, definition_of(games))]


def _last_edition_played(db, tmp_path):
    from portal.results.services import Line, enter_results
    from portal.workflow.services import approve, import_document
    last = _games(tmp_path, "xq-2025", "xq")
    last.edition = 2025
    db.session.commit()
    out = import_document(last, _doc("xq-2025", [person("a", "M", "1990-01-01", name="甲")]), AT, Actor("t"))
    assert out.ok and approve(out.delegation, Actor("组委会"), AT).ok
    db.session.commit()
    assert enter_results(last, "xiangqi.MI", [Line(1, place=1, name="甲")], Actor("裁判长")).ok
    db.session.commit()
    return last


def test_earlier_placers_barred_where_the_portal_has_no_earlier_results(app, db, tmp_path):
    this = _games(tmp_path, "xq-2026", "xq", rules=[BARRED])
    this.edition = 2026
    db.session.commit()
    [trap] = _traps(this)
    assert "象棋个人" in trap and "系统中还没有系列“xq”的往届比赛的成绩" in trap and "拦不住任何人" in trap
    last = _games(tmp_path, "xq-2025", "xq")
    last.edition = 2025
    db.session.commit()
    [trap] = _traps(this)
    assert "系统中还没有xq-2025赛的成绩" in trap  # the Games by name once the portal has it
    _last_edition_played(db, tmp_path)
    assert _traps(this) == []
    from portal.register.models import PlayerPlace
    db.session.execute(delete(PlayerPlace))  # results stored before the register kept places
    db.session.commit()
    [trap] = _traps(this)
    assert "xq-2025赛的成绩还没有记入棋手档案的名次" in trap and "flask results carry" in trap


def test_a_bonus_for_last_editions_place_with_no_last_edition(app, db, tmp_path):
    this = _games(tmp_path, "xq-2026", "xq", rules=[
        {"kind": "quota", "events": ["xiangqi.MI"], "max": 2, "placed_bonus": {"top": 3, "extra": 1}}])
    this.edition = 2026
    db.session.commit()
    [trap] = _traps(this)
    assert "上届名次靠前的单位可多报——上届在系统中没有成绩，目前没有单位能多报" in trap
    _last_edition_played(db, tmp_path)
    assert _traps(this) == []


def test_a_qualified_only_event_nobody_qualifies_for_is_named_on_the_set_up_page(app, db, tmp_path):
    from portal.register.services import qualify
    final = _games(tmp_path, "final-2026", "final", rules=[
        {"kind": "qualified", "events": ["xiangqi.MI"], "name": {"zh": "预选赛", "en": "the qualifier"}}])
    db.session.commit()
    [trap] = _traps(final)
    assert "象棋个人只限预选赛晋级的选手报名，但系统中没有人获得晋级资格" in trap
    # A qualifier that will qualify players for it: nothing to say before it is played.
    _games(tmp_path, "qual-2026", "qual", awards=[{"kind": "qualifies", "top": 2, "to": "final"}])
    db.session.commit()
    assert _traps(final) == []
    # Or only the organisers' list, by hand.
    lone = _games(tmp_path, "lone-2026", "lone", rules=[{"kind": "qualified", "events": ["xiangqi.MI"]}])
    db.session.commit()
    assert len(_traps(lone)) == 1
    p = person("z", "M", "1992-01-01", name="丁")
    assert qualify(Actor("组委会"), p["id_number"], p["name"], "lone-2026", "lone-2026", "lone", "组委会名单", "zhejiang").ok
    db.session.commit()
    assert _traps(lone) == []
    account("root", "admin", name="管理员")
    db.session.commit()
    page = logged_in(app, "root").get("/org/games/final-2026/setup").get_data(as_text=True)
    assert 'id="history-traps"' not in page
    page = logged_in(app, "root").get("/org/games/xq-none/setup")
    assert page.status_code == 404


def test_the_set_up_page_says_it_above_the_publish_button(app, db, tmp_path):
    _games(tmp_path, "xq-2026", "xq", rules=[BARRED]).edition = 2026
    account("root", "admin", name="管理员")
    db.session.commit()
    page = logged_in(app, "root").get("/org/games/xq-2026/setup").get_data(as_text=True)
    note = page[page.index('id="calendar-note"'):]
    assert "与系统中往届记录对不上的规则" in note[:600] and 'href="#history-traps"' in note[:600]
    traps = page[page.index('id="history-traps"'):]
    assert "这些规则要读系统中的往届记录，现在却读不到" in traps[:300] and "拦不住任何人" in traps[:1200]


def test_a_rating_band_on_a_list_never_imported(app, db, tmp_path):
    from portal.register.models import RatingList
    rule = {"kind": "rating", "events": ["xiangqi.MI"], "list": "cxa", "max_rating": 1800, "unrated": "admitted",
            "list_on": "2026-07-01"}
    games = _games(tmp_path, "rated-2026", "rated", rules=[dict(rule), {**rule, "events": ["xiangqi.MI"], "list": "fide"}])
    db.session.commit()
    [trap] = _traps(games)  # FIDE's ratings are typed by the leaders: nothing to import
    assert "象棋个人按" in trap and "还没有导入" in trap and "2026年7月1日或以前公布的" in trap
    db.session.add(RatingList(list_code="cxa", published_on=dt.date(2026, 8, 1), filename="8月.xlsx", imported_by="组委会"))
    db.session.commit()
    assert len(_traps(games)) == 1  # a later edition than the rule's is no help
    db.session.add(RatingList(list_code="cxa", published_on=dt.date(2026, 7, 1), filename="7月.xlsx", imported_by="组委会"))
    db.session.commit()
    assert _traps(games) == []


def test_points_no_competition_awards_and_nobody_holds(app, db, tmp_path):
    rule = {"kind": "points", "events": ["xiangqi.MI"], "points": "mastre", "name": {"zh": "大师分", "en": "master points"},
            "min_points": "10"}
    masters = _games(tmp_path, "masters-2026", "masters", rules=[rule])
    db.session.commit()
    [trap] = _traps(masters)
    assert "须大师分10分以上，但棋手档案中没有人有这种积分（代码“mastre”）" in trap and "没有人能报这个项目" in trap
    _games(tmp_path, "qual-2026", "qual", awards=[
        {"kind": "federation_points", "points": "mastre", "name": {"zh": "大师分", "en": "m"}, "table": ["30"]}])
    db.session.commit()
    assert _traps(masters) == []  # a competition that awards them: they will come


def test_flask_games_load_warns_of_them_too(app, db, tmp_path, cli):
    _games(tmp_path, "xq-2026", "xq", rules=[BARRED])
    db.session.commit()
    result = cli.invoke(args=["games", "load", str(tmp_path / "xq-2026.yaml")])
    assert result.exit_code == 0, result.output
    assert "warning: xq-2026: " in result.output and "拦不住任何人" in result.output
