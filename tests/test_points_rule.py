"""A band of federation points (累计大师分10分以上的棋手方可报名大师组; 大师分满30分者不得参加
业余组): the register's totals, earned by places at earlier Games, read as its grades are;
read back, proposed from the text, refused on a band nobody fits."""
import datetime as dt
from decimal import Decimal

import pytest
from builders import person
from test_rule_kinds import AT, d, games, players

from portal.rules.proposals import propose
from portal.rules.readback import read_back

NAME = {"zh": "大师分", "en": "master points"}


def _rule(**band):
    return {"kind": "points", "events": ["xiangqi.MI"], "points": "master", "name": NAME, "clause": "三(三)", **band}


def _judge(definition, held):
    from portal.rules import check_delegation, parse_document
    people = players(len(held))
    parsed, _ = parse_document(d(people, [{"event": "xiangqi.MI", "people": [p["ref"] for p in people]}]))
    for p, points in zip(parsed.people, held, strict=True):
        p.points.update(points)
    return [v for v in check_delegation(definition, parsed, at=AT) if v.code == "GRADE_NOT_ELIGIBLE"]


def test_at_least_and_fewer_than_on_the_registers_totals():
    found = _judge(games([_rule(min_points="10")]), [{"master": Decimal("10")}, {"master": Decimal("9.5")}, {}])
    assert [v.people for v in found] == [("p2",), ("p3",)]
    assert found[0].zh == "选手p2 棋手档案中大师分共 9.5 分；象棋男子个人须大师分10分以上。"
    assert "棋手档案中没有大师分" in found[1].zh and "holds no master points in the player register" in found[1].en
    found = _judge(games([_rule(below_points="30")]), [{"master": Decimal("30")}, {"other": Decimal("99")}, {}])
    assert [v.people for v in found] == [("p1",)] and "须大师分未满30分" in found[0].zh


def test_read_back_proposed_and_a_band_nobody_fits_refused():
    g = games([_rule(min_points="10", below_points="30")])
    assert "象棋男子个人：限大师分10分以上、未满30分的棋手（以棋手档案为准）" in [x.zh for x in read_back(g) if x.section == "rules"]
    [p] = [p for p in propose("（三）累计大师分10分以上的棋手方可报名大师组。") if p.kind == "points"]
    assert p.values == {"name": "大师分", "min_points": "10"}
    [p] = [p for p in propose("大师分满30分者不得参加业余组。") if p.kind == "points"]
    assert p.values == {"name": "大师分", "below_points": "30"}
    assert not [p for p in propose("积分相同时，比较对手分。") if p.kind == "points"]
    from pydantic import ValidationError
    with pytest.raises(ValidationError, match="nobody fits"):
        games([_rule(min_points="30", below_points="30")])
    with pytest.raises(ValidationError, match="the fewest points a player needs"):
        games([_rule()])


def test_points_earned_at_a_qualifier_let_its_best_enter_on_a_real_database(app, db, tmp_path):
    """The qualifier credits 30, 20 and 10 大师分 to its first three; the masters' event takes 20 or more."""
    from test_player_register import _doc, _games

    from portal.audit.services import Actor
    from portal.results.services import Line, enter_results
    from portal.workflow.services import approve, import_document
    at = dt.datetime(2026, 5, 1, 10, tzinfo=dt.timezone(dt.timedelta(hours=8)))
    three = [person("a", "M", "1990-01-01", name="甲"), person("b", "M", "1991-01-01", name="乙"),
             person("c", "M", "1992-01-01", name="丙")]
    qualifier = _games(tmp_path, "qual-2026", "qual", awards=[
        {"kind": "federation_points", "points": "master", "name": NAME, "table": ["30", "20", "10"]}])
    masters = _games(tmp_path, "masters-2026", "masters", rules=[_rule(min_points="20")])
    db.session.commit()
    out = import_document(qualifier, _doc("qual-2026", three), at, Actor("t"))
    assert out.ok and approve(out.delegation, Actor("组委会"), at).ok
    db.session.commit()
    assert enter_results(qualifier, "xiangqi.MI", [Line(i, place=i, name=p["name"]) for i, p in enumerate(three, 1)],
                         Actor("裁判长")).ok
    db.session.commit()
    refused = import_document(masters, _doc("masters-2026", three), at, Actor("t"))
    [v] = [v for v in refused.violations if v.code == "GRADE_NOT_ELIGIBLE"]
    assert v.people == ("c",) and v.zh == "丙 棋手档案中大师分共 10 分；象棋个人须大师分20分以上。"
    # Another unit typing 甲's number and name: the register does not know him there, so he holds none.
    stranger = import_document(masters, _doc("masters-2026", three[:1], unit="jiangsu"), at, Actor("t"))
    [v] = [v for v in stranger.violations if v.code == "GRADE_NOT_ELIGIBLE"]
    assert v.people == ("a",) and "棋手档案中没有大师分" in v.zh
    entered = import_document(masters, _doc("masters-2026", three[:2]), at, Actor("t"))
    assert entered.ok
    # The leader sees the total his player is judged by, on the person's page.
    from builders import account, logged_in
    account("masters-leader", "leader", delegation=entered.delegation)
    db.session.commit()
    page = logged_in(app, "masters-leader").get(f"/d/{entered.delegation.id}/people/a").get_data(as_text=True)
    known = page[page.index('id="register-known"'):]
    assert "大师分：30 分" in known[:800]
