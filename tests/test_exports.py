"""Exports for the competition: entry lists, rosters, summary; never a formula."""
import csv
import datetime as dt
import io

from builders import account, doc, individual, logged_in, person, team
from openpyxl import load_workbook

CHINA = dt.timezone(dt.timedelta(hours=8))


def submitted(db, unit, people, entries):
    from portal.audit.services import Actor
    from portal.games.services import find_games
    from portal.workflow.services import import_document
    out = import_document(find_games("nmsg-2019"), doc("nmsg-2019", unit=unit, people=people, entries=entries),
                          dt.datetime(2019, 5, 20, tzinfo=CHINA), Actor("t"))
    assert out.ok, out.violations
    return out.delegation


def test_entry_list_csv_and_xlsx_are_formula_safe(app, db, monkeypatch):
    evil = person("m1", "M", year=2019, name="=HYPERLINK(\"http://x\",\"点我\")")
    people = [evil, person("m2", year=2019), person("m3", year=2019, name="@SUM(1+1)"),
              person("w1", "F", year=2019, fide_rating={"value": 2470, "list": "2019-01-01"})]
    submitted(db, "zhejiang", people, [team("chess.MTR", ("m1", 1), ("w1", 2), ("m2", 3), ("m3", "R")),
                                       individual("chess.MI", "m1", "w1")])
    client = app.test_client()
    account("exp-org", "organiser", name="o")
    monkeypatch.setitem(app.config, "WTF_CSRF_ENABLED", False)
    logged_in(app, "exp-org", client=client)
    with app.app_context():
        r = client.get("/org/games/nmsg-2019/export/chess.MTR.csv")
    assert r.status_code == 200
    rows = list(csv.reader(io.StringIO(r.get_data().decode("utf-8-sig"))))
    assert rows[0][:3] == ["单位 unit", "单位代码 unit code", "姓名 name"] and "等级分 FIDE rating" in rows[0]
    names = [row[2] for row in rows[1:]]
    assert "'=HYPERLINK(\"http://x\",\"点我\")" in names and "'@SUM(1+1)" in names
    boards = {row[2]: row[6] for row in rows[1:]}
    assert boards["选手w1"] == "2"
    with app.app_context():
        x = client.get("/org/games/nmsg-2019/export/chess.MTR.xlsx")
    ws = load_workbook(io.BytesIO(x.data)).active
    cells = [c for row in ws.iter_rows() for c in row]
    assert all(c.data_type != "f" for c in cells)
    assert any(c.value == "=HYPERLINK(\"http://x\",\"点我\")" and c.data_type == "s" for c in cells)
    with app.app_context():
        summary = client.get("/org/games/nmsg-2019/export/summary.csv").get_data().decode("utf-8-sig")
    assert "chess.MTR" in summary.splitlines()[0] and "合计 total" in summary
    with app.app_context():
        roster = client.get("/org/games/nmsg-2019/export/roster.csv").get_data().decode("utf-8-sig")
    assert evil["id_number"] not in roster  # masked in the roster
