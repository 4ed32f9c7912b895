"""Results entered or imported per event, the medal and points tables, a leader's standing
(issue 11, item 5)."""
import datetime as dt
import io

import pytest
from builders import account, logged_in

# These tests post the pages' forms without their CSRF tokens (CSRF: tests/security).
pytestmark = pytest.mark.usefixtures("no_csrf")
CHINA = dt.timezone(dt.timedelta(hours=8))


def _world(app, db):
    from portal.audit.services import Actor
    from portal.games.services import find_games
    from portal.workflow.services import import_document
    games = find_games("nmsg-2009")
    import sys
    from pathlib import Path
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
    from benchmarks.national import delegation_document
    out = {}
    for i, unit in enumerate(("zhejiang", "jiangsu", "shanghai")):
        r = import_document(games, delegation_document(unit, i + 10, 30), dt.datetime(2009, 8, 1, tzinfo=CHINA),
                            Actor("t"))
        assert r.ok, r.violations
        out[unit] = r.delegation
    db.session.commit()
    account("res-org", "organiser", name="组委会")
    account("res-zj", "leader", delegation=out["zhejiang"], name="浙江领队")
    return out


def _client(app, username):
    return logged_in(app, username)


def _players(games, event):
    from portal.results.entrants import players
    listed, _left = players(games, event)
    return listed


def test_results_make_the_medal_table_and_a_leader_sees_his_standing(app, db, monkeypatch):
    from portal.audit.services import Actor
    from portal.games.services import find_games
    from portal.workflow.services import approve
    d = _world(app, db)
    games = find_games("nmsg-2009")
    for x in d.values():
        assert approve(x, Actor("组委会"), dt.datetime(2009, 8, 2, tzinfo=CHINA)).ok
    db.session.commit()
    listed = _players(games, "gomoku.MI")
    by_unit = {}
    for p in listed:
        by_unit.setdefault(p.unit, []).append(p)
    zj, js, sh = by_unit["浙江省"], by_unit["江苏省"], by_unit["上海市"]
    org = _client(app, "res-org")
    sheet = (f"名次,单位,姓名\n1,浙江省,{zj[0].name}\n2,jiangsu,{js[0].name}\n2,上海市,{sh[0].name}\n"
             f"4,zhejiang,{zj[1].name}\n")
    with app.app_context():
        r = org.post("/org/games/nmsg-2009/results/gomoku.MI", data={
            "entrants": "24", "file": (io.BytesIO(sheet.encode()), "chess.csv")},
            content_type="multipart/form-data")
    assert r.status_code == 302, r.get_data(as_text=True)[:1500]
    with app.app_context():
        page = org.get("/org/games/nmsg-2009/results").get_data(as_text=True)
    medal = page[page.find('id="medal-table"'):]
    assert medal.find("浙江省") < medal.find("江苏省") and "6.5" in page  # tie for 2nd: (8+5)/2
    with app.app_context():  # a place that a tie leaves empty is refused, nothing changes
        r = org.post("/org/games/nmsg-2009/results/gomoku.MI", data={
            "entrants": "24",
            "lines": f"名次,单位,姓名\n1, zhejiang, {zj[0].name}\n2, jiangsu, {js[0].name}\n"
                     f"2, shanghai, {sh[0].name}\n3, zhejiang, {zj[1].name}"})
    assert r.status_code == 422 and "第 3 名处应为第 4 名" in r.get_data(as_text=True)
    leader = _client(app, "res-zj")
    with app.app_context():
        page = leader.get(f"/d/{d['zhejiang'].id}/standing").get_data(as_text=True)
    assert "奖牌榜第 1 名" in page and zj[1].name in page
    with app.app_context():
        assert leader.get(f"/d/{d['jiangsu'].id}/standing").status_code in (403, 404)
