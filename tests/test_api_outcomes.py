"""The REST API's entries per event, draws, results and money (issue 24, 3): every role's
token sees what it sees on the pages (a leader his own delegation's lines only, staff their
Games only, an accountant the money and not the players); results written by a pairing
program go through the results page's own service, every bad line answered at once."""
from __future__ import annotations

import json

from builders import account
from test_api import _call, _token_for
from test_results_entry import season  # noqa: F401  (the fixture: four clubs of youth-gomoku-2015)

SLUG = "youth-gomoku-2015"
MJA = f"/api/v1/games/{SLUG}/events/gomoku.MJA"


def _tokens(app, db, clubs, scope="read"):
    account("nk-leader", "leader", delegation=clubs["南开"])
    account("yg-acc", "accountant", games=[SLUG])
    account("other-org", "organiser", games=["nmsg-2019"])
    db.session.commit()
    return {name: _token_for(app, name, scope) for name in ("yg-org", "nk-leader", "yg-acc", "other-org")}


def test_entries_draw_and_results_for_every_role(app, db, season):  # noqa: F811
    from portal.audit.services import Actor
    from portal.results.draws import make_draw
    games, clubs = season
    tokens = _tokens(app, db, clubs)
    # Before the draw: the players, and those left out with the reason.
    org = _call(app, "GET", f"{MJA}/entries", tokens["yg-org"]).get_json()
    assert sorted(p["name"] for p in org["players"]) == ["丙", "乙", "戊", "甲"]
    why = {x["name"]: x["why"]["zh"] for x in org["left_out"]}
    assert "不予编排" in why["丁"] and "等待" in why["辰"]
    assert all(p["number"] is None for p in org["players"])
    assert {p["unit"]["zh"] for p in org["players"]} == {"南开", "和平"}
    assert "id_number" not in json.dumps(org) and "birth_date" not in json.dumps(org)
    own = _call(app, "GET", f"{MJA}/entries", tokens["nk-leader"]).get_json()
    assert sorted(p["name"] for p in own["players"]) == ["丙", "甲"] and own["left_out"] == []
    assert _call(app, "GET", f"{MJA}/entries", tokens["yg-acc"]).status_code == 403
    assert _call(app, "GET", f"{MJA}/entries", tokens["other-org"]).status_code == 404
    assert _call(app, "GET", f"/api/v1/games/{SLUG}/events/nope/entries", tokens["yg-org"]).status_code == 404
    team = _call(app, "GET", f"/api/v1/games/{SLUG}/events/gomoku.TJA/entries", tokens["yg-org"]).get_json()
    assert sorted(sorted(p["members"]) for p in team["players"]) == [["丑", "丙", "甲"], ["乙", "寅", "戊"]]
    # The draw.
    assert _call(app, "GET", f"{MJA}/draw", tokens["yg-org"]).get_json()["code"] == "no_draw"
    with app.app_context():
        from portal.games.services import find_games
        assert make_draw(find_games(SLUG), "gomoku.MJA", Actor("组委会"), seed="api-test").ok
    drawn = _call(app, "GET", f"{MJA}/draw", tokens["yg-org"]).get_json()
    assert sorted(n["number"] for n in drawn["numbers"]) == [1, 2, 3, 4]
    for name in ("nk-leader", "yg-acc"):
        assert _call(app, "GET", f"{MJA}/draw", tokens[name]).status_code == 403
    numbered = {p["name"]: p["number"] for p in _call(app, "GET", f"{MJA}/entries", tokens["yg-org"]).get_json()["players"]}
    assert sorted(numbered.values()) == [1, 2, 3, 4]
    # Results: read back as the regulation scores them; a leader sees his own lines.
    writer = _token_for(app, "yg-org", "write")
    lines = [{"place": 1, "number": numbered["乙"], "score": "6.5", "tie_breaks": {"buchholz": "30"}},
             {"place": 2, "name": "甲", "score": "6"}, {"place": 3, "name": "戊", "unit": "和平", "score": "5.5"},
             {"place": 4, "player": next(p["key"] for p in org["players"] if p["name"] == "丙"), "score": "2"}]
    saved = _call(app, "PUT", f"{MJA}/results", writer, json={"results": lines})
    assert saved.status_code == 200, saved.get_data(as_text=True)
    got = saved.get_json()
    assert [(r["place"], r["name"], r["score"]) for r in got["results"]] == [(1, "乙", "6.5"), (2, "甲", "6"),
                                                                            (3, "戊", "5.5"), (4, "丙", "2")]
    assert got["entrants"] == 4
    mine = _call(app, "GET", f"{MJA}/results", tokens["nk-leader"]).get_json()["results"]
    assert sorted(r["name"] for r in mine) == ["丙", "甲"]
    assert _call(app, "GET", f"{MJA}/results", tokens["yg-acc"]).status_code == 403
    assert _call(app, "GET", f"{MJA}/results", tokens["other-org"]).status_code == 404


def test_results_sent_with_mistakes_are_refused_whole_with_every_line_named(app, db, season):  # noqa: F811
    from portal.results.models import EventResult
    _games, clubs = season
    tokens = _tokens(app, db, clubs)
    writer = _token_for(app, "yg-org", "write")
    bad = [{"place": 1, "name": "甲"}, {"place": 2, "name": "丁"}, {"place": 3, "name": "甲"},
           {"place": 4, "name": "无名"}, {"place": 5, "name": "乙", "score": "六分"},
           {"place": 6, "name": "戊", "tie_breaks": {"elo": "1"}}]
    answer = _call(app, "PUT", f"{MJA}/results", writer, json={"results": bad})
    assert answer.status_code == 422 and answer.mimetype == "application/problem+json"
    problems = answer.get_json()["problems"]
    text = "\n".join(problems)
    assert "第 2 行" in text and "不予编排" in text          # 丁: his fee never came
    assert "第 3 行" in text and "已在第 1 行出现" in text     # 甲 twice
    assert "第 4 行" in text and "无名" in text
    assert "第 5 行" in text and "六分" in text
    assert "第 6 行" in text and "elo" in text
    english = _call(app, "PUT", f"{MJA}/results", writer, json={"results": bad}, headers={"Accept-Language": "en"})
    text = "\n".join(english.get_json()["problems"])  # one language a client (issue 40, 1)
    assert "row 3" in text and "第 3 行" not in text and " / " not in text, text
    db.session.rollback()
    assert db.session.query(EventResult).count() == 0        # nothing stored
    # Read scope, a leader's or an accountant's token: refused before anything is read.
    assert _call(app, "PUT", f"{MJA}/results", tokens["yg-org"], json={"results": bad[:1]}).status_code == 403
    leader_writer = _token_for(app, "nk-leader", "write")
    assert _call(app, "PUT", f"{MJA}/results", leader_writer, json={"results": bad[:1]}).status_code == 403
    # A body that is not the shape: a clean 4xx naming the field.
    shapeless = _call(app, "PUT", f"{MJA}/results", writer, json={"results": [{"place": 0, "name": "甲"}]})
    assert shapeless.status_code == 422 and shapeless.mimetype == "application/problem+json"
    assert shapeless.get_json()["fields"][0]["field"] == "results.0.place"
    # ...but only to whoever may write them: the shape tells nobody else anything.
    assert _call(app, "PUT", f"{MJA}/results", None, json={"results": [{"place": 0}]}).status_code == 401
    assert _call(app, "PUT", f"{MJA}/results", leader_writer, json={"results": [{"place": 0}]}).status_code == 403
    other = _token_for(app, "other-org", "write")
    assert _call(app, "PUT", f"{MJA}/results", other, json={"results": [{"place": 0}]}).status_code == 404


def test_the_ledger_and_the_bank_lines(app, db, season):  # noqa: F811
    from portal.audit.services import Actor
    from portal.money.services import import_statement, payment_reference_of, sync_charges
    games, clubs = season
    tokens = _tokens(app, db, clubs)
    nankai, hexi = clubs["南开"], clubs["河西"]
    sync_charges(nankai, Actor("t"))
    reference = payment_reference_of(nankai)
    db.session.commit()
    sheet = ("交易日期,摘要,收入金额,支出金额,余额,对方户名,附言\n"
             f"2015-07-07,网银转入,100.00,,100.00,南开区少儿棋校,{reference} 补交\n"
             "2015-07-08,跨行转入,300.00,,400.00,张三,报名\n").encode()
    assert import_statement(games, sheet, "icbc-july.csv", Actor("财务")).ok
    ledger = _call(app, "GET", f"/api/v1/delegations/{nankai.id}/ledger", tokens["nk-leader"]).get_json()
    assert ledger["reference"] == reference and ledger["currency"]
    kinds = [line["kind"] for line in ledger["lines"]]
    assert "charge" in kinds and kinds.count("payment") == 2
    assert all(isinstance(line["amount"], str) and "." in line["amount"] for line in ledger["lines"])
    assert ledger["lines"][-1]["balance"] == ledger["totals"]["balance"]
    assert _call(app, "GET", f"/api/v1/delegations/{hexi.id}/ledger", tokens["nk-leader"]).status_code == 404
    assert _call(app, "GET", f"/api/v1/delegations/{hexi.id}/ledger", tokens["yg-acc"]).status_code == 200
    assert _call(app, "GET", f"/api/v1/delegations/{hexi.id}/ledger", tokens["other-org"]).status_code == 404
    page = _call(app, "GET", f"/api/v1/games/{SLUG}/payments?per_page=1", tokens["yg-acc"]).get_json()
    assert page["total"] == 2 and len(page["payments"]) == 1 and page["payments"][0]["unit"]["zh"] == "南开"
    open_lines = _call(app, "GET", f"/api/v1/games/{SLUG}/payments?matched=false", tokens["yg-acc"]).get_json()
    assert [(x["payer"], x["amount"], x["delegation"]) for x in open_lines["payments"]] == [("张三", "300.00", None)]
    assert _call(app, "GET", f"/api/v1/games/{SLUG}/payments", tokens["nk-leader"]).status_code == 403
    assert _call(app, "GET", f"/api/v1/games/{SLUG}/payments", tokens["other-org"]).status_code == 404
    assert _call(app, "GET", f"/api/v1/games/{SLUG}/payments?per_page=5000", tokens["yg-acc"]).status_code == 422
    assert _call(app, "GET", f"/api/v1/games/{SLUG}/payments?per_page=5000", tokens["nk-leader"]).status_code == 403
    assert _call(app, "GET", f"/api/v1/games/{SLUG}/payments?per_page=5000").status_code == 401
