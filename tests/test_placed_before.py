"""Earlier placers kept out of an event ("曾获得全国业余围棋锦标赛前八名的选手不得报名参加业余组",
`placed_before`): from the engine, and on a real database from an earlier edition's results
through the register to the leader's judgement; a stranger's number and name tell nothing."""
import datetime as dt

import pytest
from builders import person
from test_rule_kinds import AT, d, games, players

from portal.rules.document import PlaceHeld
from portal.rules.proposals import propose
from portal.rules.readback import read_back

NAME = {"zh": "历届本赛事前八名", "en": "players placed in the first eight of earlier editions"}


def _rule(**extra):
    return {"kind": "placed_before", "events": ["xiangqi.MI"], "top": 8, "series": ["xq"], "name": NAME,
            "clause": "三(二)", **extra}


def _judge(definition, people, places):
    from portal.rules import check_delegation, parse_document
    parsed, _ = parse_document(d(people, [{"event": "xiangqi.MI", "people": [p["ref"] for p in people]}]))
    for p in parsed.people:
        p.places.extend(places.get(p.ref, []))
    return [v for v in check_delegation(definition, parsed, at=AT) if v.code == "GRADE_NOT_ELIGIBLE"]


def _place(place, series="xq", edition=2024, event="xiangqi.MI"):
    return PlaceHeld(series, edition, event, place, (f"{edition}年象棋赛 个人 第{place}名", f"place {place} in Individual at Xiangqi {edition}"))


def test_a_player_placed_in_the_first_eight_before_may_not_enter():
    g = games([_rule()])
    two = players(2)
    [v] = _judge(g, two, {"p1": [_place(9), _place(3, edition=2022)], "p2": [_place(9)]})
    assert v.people == ("p1",) and v.event == "xiangqi.MI"
    assert "曾获2022年象棋赛 个人 第3名（棋手档案）" in v.zh and "历届本赛事前八名不得参加象棋男子个人" in v.zh
    assert "took place 3 in Individual at Xiangqi 2022 (player register)" in v.en
    assert v.extra["clause"] == "三(二)"


def test_only_the_series_events_and_editions_the_rule_names_count():
    p = players(1)
    assert _judge(games([_rule()]), p, {"p1": [_place(1, series="other")]}) == []
    assert _judge(games([_rule()]), p, {"p1": [_place(1, event="xiangqi.T")]}) == []
    assert len(_judge(games([_rule(in_events=["xiangqi.T"])]), p, {"p1": [_place(1, event="xiangqi.T")]})) == 1
    assert _judge(games([_rule(since=2023)]), p, {"p1": [_place(1, edition=2022)]}) == []
    assert len(_judge(games([_rule(since=2023)]), p, {"p1": [_place(1, edition=2023)]})) == 1
    assert _judge(games([_rule()]), p, {}) == []  # a document judged alone knows no places


def test_the_read_back_the_regulation_text_and_a_rule_without_its_words():
    g = games([_rule()])
    assert any(x.zh == "象棋男子个人：历届本赛事前八名不得报名" for x in read_back(g) if x.section == "rules")
    [p] = [p for p in propose("三、（二）曾获得全国业余象棋锦标赛前八名的选手不得报名参加业余组。") if p.kind == "placed_before"]
    assert p.values == {"top": 8, "name": "曾获得全国业余象棋锦标赛前八名的选手"}
    from pydantic import ValidationError
    with pytest.raises(ValidationError, match="name"):
        games([{k: v for k, v in _rule().items() if k != "name"}])


def test_last_editions_places_keep_the_player_out_on_a_real_database(app, db, tmp_path):
    from test_player_register import _doc, _games

    from portal.audit.services import Actor
    from portal.delegations.judged import stored_violations
    from portal.delegations.services import export_document
    from portal.results.services import Line, enter_results
    from portal.workflow.services import approve, import_document
    at = dt.datetime(2026, 5, 1, 10, tzinfo=dt.timezone(dt.timedelta(hours=8)))
    last = _games(tmp_path, "xq-2025", "xq", rules=[])  # awards nothing: its places are kept all the same
    this = _games(tmp_path, "xq-2026", "xq", rules=[_rule(top=1, name={"zh": "上届冠军", "en": "last edition's champion"})])
    this.edition, last.edition = 2026, 2025
    db.session.commit()
    champion, second = person("a", "M", "1990-01-01", name="甲"), person("b", "M", "1991-01-01", name="乙")
    out = import_document(last, _doc("xq-2025", [champion, second]), at, Actor("t"))
    assert out.ok, out.violations
    assert approve(out.delegation, Actor("组委会"), at).ok
    db.session.commit()
    assert enter_results(last, "xiangqi.MI", [Line(1, place=1, name="甲"), Line(2, place=2, name="乙")], Actor("裁判长")).ok
    db.session.commit()

    # The champion's own unit: the import is refused for him, and him alone.
    refused = import_document(this, _doc("xq-2026", [champion, second]), at, Actor("t"))
    [v] = [v for v in refused.violations if v.code == "GRADE_NOT_ELIGIBLE"]
    assert not refused.ok and v.people == ("a",)
    assert "甲 曾获xq-2025赛 象棋个人 第1名（棋手档案）；上届冠军不得参加象棋个人" in v.zh
    assert "took place 1 in Xiangqi Individual at xq-2025 Games (player register)" in v.en
    entered = import_document(this, _doc("xq-2026", [second]), at, Actor("t"))
    assert entered.ok and approve(entered.delegation, Actor("组委会"), at).ok
    db.session.commit()
    from builders import account, logged_in
    account("xq-leader", "leader", delegation=entered.delegation)
    db.session.commit()
    page = logged_in(app, "xq-leader").get(f"/d/{entered.delegation.id}/people/b").get_data(as_text=True)
    assert "xq-2025赛 象棋个人 第2名" in page[page.index('id="register-known"'):][:800]
    # Another unit typing the champion's number and name learns nothing: he never played for it.
    assert import_document(this, _doc("xq-2026", [champion], unit="jiangsu"), at, Actor("t")).ok
    db.session.rollback()
    # A Games never reads its own results, nor a later edition's.
    first = _games(tmp_path, "xq-2024", "xq", rules=[_rule(top=1, name={"zh": "上届冠军", "en": "champions"})])
    first.edition = 2024
    db.session.commit()
    assert import_document(first, _doc("xq-2024", [champion]), at, Actor("t")).ok
    db.session.commit()
    assert enter_results(this, "xiangqi.MI", [Line(1, place=1, name="乙")], Actor("裁判长")).ok
    db.session.commit()
    mine = entered.delegation
    assert not [v for v in stored_violations(mine, export_document(mine), at, reveal=False) if v.code == "GRADE_NOT_ELIGIBLE"]


def test_the_committee_takes_the_proposal_into_the_rule_form_and_saves_it(app, db):
    from builders import account, logged_in
    from test_setup_screens import _games, _get, _post
    with app.app_context():
        account("root", "admin", name="管理员")
        db.session.commit()
    admin = logged_in(app, "root")
    assert _post(app, admin, "/org/games/new", {"slug": "gomoku-2017", "name_zh": "2017年五子棋锦标赛",
                                                "name_en": "2017 Gomoku", "copy_of": "youth-gomoku-2015",
                                                "years_later": "2"}).status_code == 302
    setup = "/org/games/gomoku-2017/setup"
    text = "三、参赛资格\n（二）历届本赛事前三名获得者不得参加少年组。\n"
    assert _post(app, admin, setup + "/regulation-text", {"text": text}, page=setup).status_code == 302
    page = _get(app, admin, setup + "/proposals").get_data(as_text=True)
    assert "历届本赛事前三名获得者不得参加（请选择项目和往届赛事）" in page and "规程 三(二)" in page
    link = next(x for x in page.split('"') if "kind=placed_before" in x).replace("&amp;", "&")
    form = _get(app, admin, link).get_data(as_text=True)
    assert "往届赛事（系列）" in form and 'value="3"' in form and "历届本赛事前三名获得者" in form
    rules = setup + "/rules/new?kind=placed_before"
    # No earlier Games named: refused on the form, naming the field, nothing saved.
    r = _post(app, admin, rules, {"op": "save", "p_events": ["gomoku.MJA"], "p_top": "3",
                                  "p_name_zh": "历届本赛事前三名获得者", "p_name_en": "earlier top three"})
    assert r.status_code == 422 and "往届赛事（系列）：至少填写一项" in r.get_data(as_text=True)
    r = _post(app, admin, rules, {"op": "save", "p_events": ["gomoku.MJA"], "p_top": "3", "p_series": "youth-gomoku",
                                  "p_name_zh": "历届本赛事前三名获得者", "p_name_en": "earlier top three", "p_clause": "三(二)"})
    assert r.status_code == 302, r.get_data(as_text=True)[:2000]
    readback = _get(app, admin, "/org/games/gomoku-2017/regulation").get_data(as_text=True)
    assert "五子棋男子少年甲组：历届本赛事前三名获得者不得报名" in readback
    assert "已与设置一致" in _get(app, admin, setup + "/proposals").get_data(as_text=True)
    with app.app_context():
        from portal.games.services import definition_of
        from portal.rules.definition import PlacedBeforeRule
        assert [(r.top, r.series) for r in definition_of(_games("gomoku-2017")).rules_of(PlacedBeforeRule)] == \
            [(3, ["youth-gomoku"])]


def test_results_stored_before_the_register_kept_places_are_carried_by_command(app, db, tmp_path, cli):
    from sqlalchemy import delete, func, select
    from test_player_register import _doc, _games

    from portal.audit.services import Actor
    from portal.register.models import PlayerPlace
    from portal.results.services import Line, enter_results
    from portal.workflow.services import approve, import_document
    at = dt.datetime(2026, 5, 1, 10, tzinfo=dt.timezone(dt.timedelta(hours=8)))
    last = _games(tmp_path, "xq-2025", "xq", rules=[])
    last.edition = 2025
    db.session.commit()
    people = [person("a", "M", "1990-01-01", name="甲"), person("b", "M", "1991-01-01", name="乙")]
    out = import_document(last, _doc("xq-2025", people), at, Actor("t"))
    assert out.ok and approve(out.delegation, Actor("组委会"), at).ok
    db.session.commit()
    assert enter_results(last, "xiangqi.MI", [Line(1, place=1, name="甲"), Line(2, place=2, name="乙")], Actor("裁判长")).ok
    db.session.execute(delete(PlayerPlace))  # as stored before migration 0048
    db.session.commit()
    result = cli.invoke(args=["results", "carry", "xq-2025"])
    assert result.exit_code == 0, result.output
    assert "1 个项目的成绩，2 人次的名次已记入棋手档案" in result.output
    assert sorted(db.session.execute(select(PlayerPlace.place, PlayerPlace.event_name_zh)).all()) == \
        [(1, "象棋个人"), (2, "象棋个人")]
    assert cli.invoke(args=["results", "carry", "xq-2025"]).exit_code == 0  # again: replaced, not doubled
    assert db.session.scalar(select(func.count(PlayerPlace.id))) == 2
    unknown = cli.invoke(args=["results", "carry", "nope"])
    assert unknown.exit_code == 2 and "nope" in unknown.output


def test_storing_results_makes_every_placed_player_in_a_fixed_number_of_register_statements(app, db, tmp_path):
    """Every placed player becomes the register's: read, locked and made at once, whatever the field."""
    import sqlalchemy as sa
    from test_player_register import _doc, _games

    from portal.audit.services import Actor
    from portal.extensions import db as portal_db
    from portal.register.models import PlayerPlace
    from portal.results.services import Line, enter_results
    from portal.workflow.services import approve, import_document
    at = dt.datetime(2026, 5, 1, 10, tzinfo=dt.timezone(dt.timedelta(hours=8)))

    def register_statements(slug, n):
        g = _games(tmp_path, slug, "many")
        db.session.commit()
        people = [person(f"m{i}", "M", f"19{70 + i}-01-01", name=f"棋手{i}") for i in range(n)]
        out = import_document(g, _doc(slug, people), at, Actor("t"))
        assert out.ok and approve(out.delegation, Actor("组委会"), at).ok
        db.session.commit()
        seen = []

        def count(conn, cursor, statement, *args):
            if "register_player" in statement:
                seen.append(statement)
        sa.event.listen(portal_db.engine, "before_cursor_execute", count)
        try:
            lines = [Line(i + 1, place=i + 1, name=p["name"]) for i, p in enumerate(people)]
            assert enter_results(g, "xiangqi.MI", lines, Actor("裁判长")).ok
        finally:
            sa.event.remove(portal_db.engine, "before_cursor_execute", count)
        db.session.commit()
        assert db.session.scalar(sa.select(sa.func.count(PlayerPlace.id)).where(PlayerPlace.games_slug == slug)) == n
        return len(seen)

    a, b = register_statements("few-2026", 2), register_statements("many-2026", 6)
    assert a == b, (a, b)
