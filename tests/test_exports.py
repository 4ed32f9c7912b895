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
    assert rows[0][:3] == ["单位", "单位代码", "姓名"] and "等级分" in rows[0]  # one reader, one language
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
    assert "chess.MTR" in summary.splitlines()[0] and "合计" in summary and "total" not in summary
    assert "已提交" in summary and "submitted" not in summary  # statuses by name, not code
    with app.app_context():
        roster = client.get("/org/games/nmsg-2019/export/roster.csv").get_data().decode("utf-8-sig")
    assert evil["id_number"] not in roster  # masked in the roster
    assert "男子个人" in roster and "chess.MI" not in roster  # events by name
    # An English reader's lists are in English: headers, statuses, genders, units, events.
    with app.app_context():
        client.post("/lang", data={"lang": "en"})
        summary = client.get("/org/games/nmsg-2019/export/summary.csv").get_data().decode("utf-8-sig")
        roster = list(csv.reader(io.StringIO(
            client.get("/org/games/nmsg-2019/export/roster.csv").get_data().decode("utf-8-sig"))))
        entries = client.get("/org/games/nmsg-2019/export/chess.MTR.csv").get_data().decode("utf-8-sig")
    assert summary.splitlines()[0].startswith("unit,status,") and "total" in summary and "submitted" in summary
    assert roster[0] == ["unit", "name", "gender", "birth date", "ID number (masked)", "roles", "status"]
    assert {row[0] for row in roster[1:]} == {"Zhejiang"} and {row[2] for row in roster[1:]} == {"M", "F"}
    assert entries.splitlines()[0].startswith("unit,unit code,name,gender") and ",yes" in entries
    header_words = "".join(summary.splitlines()[0] + ",".join(roster[0]) + entries.splitlines()[0])
    assert not any("\u4e00" <= ch <= "\u9fff" for ch in header_words)
