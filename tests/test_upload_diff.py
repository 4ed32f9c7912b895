"""The re-upload diff can be trusted (issue 10): a real round trip (download the entry form
or document.json, edit it with openpyxl or by hand, upload) lists exactly the real changes,
field by field, by name, in the reader's language; an unchanged file says so and offers
nothing to confirm."""
import datetime as dt
import io
import json
import re

import pytest
from builders import account, doc, id_for, individual, logged_in, person
from openpyxl import load_workbook

# These tests post the pages' forms without their CSRF tokens (CSRF: tests/security).
pytestmark = pytest.mark.usefixtures("no_csrf")

CHINA = dt.timezone(dt.timedelta(hours=8))


def _setup(app, db, unit="zhejiang"):
    from portal.audit.services import Actor
    from portal.games.services import find_games
    from portal.workflow.services import new_delegation, save
    people = [person("p1", name="陈立", year=2019, unit=unit), person("p2", name="徐宁", year=2019, unit=unit),
              person("p3", name="李超", born="1996-03-03", year=2019, unit=unit)]
    out = save(new_delegation(find_games("nmsg-2019"), unit),
               doc("nmsg-2019", unit=unit, people=people, entries=[individual("chess.MI", "p1", "p2")]),
               Actor("t"), dt.datetime(2019, 5, 1, tzinfo=CHINA))
    assert out.ok, out.violations
    db.session.commit()
    account(f"{unit}-diff", "leader", delegation=out.delegation, name="l")
    return out.delegation, logged_in(app, f"{unit}-diff")


def _upload(app, client, d, name, content):
    with app.app_context():
        r = client.post(f"/d/{d.id}/upload", data={"file": (io.BytesIO(content), name)},
                        content_type="multipart/form-data")
    assert r.status_code == 200, r.get_data(as_text=True)[:500]
    page = r.get_data(as_text=True)
    rows = re.findall(r"<tr><td class=\"nowrap\">(.*?)</td><td>(.*?)</td><td class=\"change\">(.*?)</td></tr>", page)
    return page, [tuple(_unescape(x) for x in row) for row in rows]


def _unescape(s):
    return s.replace("&gt;", ">").replace("&lt;", "<").replace("&amp;", "&").replace("&#34;", '"').replace("&#39;", "'")


def _download(app, client, d, what):
    with app.app_context():
        r = client.get(f"/d/{d.id}/{what}")
    assert r.status_code == 200
    return r.get_data()


def test_the_unchanged_entry_form_says_no_change(app, db, monkeypatch):
    d, client = _setup(app, db)
    monkeypatch.setitem(app.config, "FIXED_NOW", dt.datetime(2019, 5, 20, tzinfo=CHINA))
    for what, name in (("entry-form.xlsx", "form.xlsx"), ("document.json", "doc.json")):
        page, rows = _upload(app, client, d, name, _download(app, client, d, what))
        assert rows == [] and 'id="no-changes"' in page and "没有变化" in page, (what, rows)
        assert 'id="confirm-upload"' not in page


def test_an_edited_entry_form_lists_exactly_the_changes(app, db, monkeypatch):
    d, client = _setup(app, db, "jiangsu")
    monkeypatch.setitem(app.config, "FIXED_NOW", dt.datetime(2019, 5, 20, tzinfo=CHINA))
    wb = load_workbook(io.BytesIO(_download(app, client, d, "entry-form.xlsx")))
    people = wb["人员"]
    header = [c.value for c in people[1]]
    club = header.index("俱乐部") + 1
    for row in people.iter_rows(min_row=2):
        if row[0].value == "p1":
            people.cell(row=row[0].row, column=club, value="杭州棋院")
    ind = wb["个人项目"]
    for row in ind.iter_rows(min_row=2):
        if row[0].value == "chess.MI" and row[1].value == "p2":
            row[1].value = "p3"
    out = io.BytesIO()
    wb.save(out)
    page, rows = _upload(app, client, d, "form.xlsx", out.getvalue())
    assert sorted(rows) == sorted([
        ("人员", "陈立", "俱乐部：— → 杭州棋院"),
        ("报名项目", "国际象棋 男子个人", "−徐宁 +李超"),
    ]), rows
    assert 'id="confirm-upload"' in page


def test_a_json_round_trip_names_people_added_and_removed(app, db, monkeypatch):
    d, client = _setup(app, db, "anhui")
    monkeypatch.setitem(app.config, "FIXED_NOW", dt.datetime(2019, 5, 20, tzinfo=CHINA))
    document = json.loads(_download(app, client, d, "document.json"))
    document.pop("_export", None)
    document["people"] = [p for p in document["people"] if p["ref"] != "p3"]
    document["people"].append({"ref": "p9", "name": "郑薇", "gender": "F", "birth_date": "1998-02-02",
                               "id_type": "resident_id", "id_number": id_for("1998-02-02", "F", "340100"),
                               "registration": {"unit": "anhui", "year": 2019}})
    document["people"][0]["birth_date"] = "1990-01-02"
    page, rows = _upload(app, client, d, "doc.json", json.dumps(document, ensure_ascii=False).encode())
    assert ("人员", "郑薇", "新增") in rows and ("人员", "李超", "删除") in rows, rows
    assert any(r[1] == "陈立" and r[2].startswith("出生日期：") and r[2].endswith("→ 1990-01-02") for r in rows), rows
    assert len(rows) == 3, rows
