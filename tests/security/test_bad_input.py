"""No formulas, no unbounded work, no 500s (issue 8, 4)."""
from __future__ import annotations

import datetime as dt
import io
import time
import zipfile

import pytest
from builders import doc, individual, person
from openpyxl import load_workbook

from security.attack import get, login, post

CHINA = dt.timezone(dt.timedelta(hours=8))


def _formula_cells(data: bytes) -> list[str]:
    wb = load_workbook(io.BytesIO(data))
    return [f"{ws.title}!{c.coordinate}={c.value}" for ws in wb.worksheets for row in ws.iter_rows() for c in row
            if c.data_type == "f"]


def _texts(data: bytes) -> list[str]:
    wb = load_workbook(io.BytesIO(data))
    return [c.value for ws in wb.worksheets for row in ws.iter_rows() for c in row if isinstance(c.value, str)]


def test_no_workbook_the_portal_writes_holds_a_formula(app, world, db):
    """A name "+甲方选手二" and a club "=HYPERLINK(...)" typed by a leader reach every
    workbook as text."""
    from portal.audit.services import Actor
    from portal.extensions import db as _db
    from portal.workflow.services import submit
    submit(world["a"], Actor("t"), dt.datetime(2019, 5, 2, tzinfo=CHINA))
    leader, organiser, accountant = login(app, "leader_a"), login(app, "organiser"), login(app, "accountant")
    d = world["a"].id
    books = {
        "entry form": get(app, leader, f"/d/{d}/entry-form.xlsx"),
        "statement": get(app, leader, f"/d/{d}/statement.xlsx"),
        "roster": get(app, organiser, "/org/games/nmsg-2019/export/roster.xlsx?drafts=1"),
        "event list": get(app, organiser, "/org/games/nmsg-2019/export/chess.WI.xlsx?drafts=1"),
        "summary": get(app, organiser, "/org/games/nmsg-2019/export/summary.xlsx?drafts=1"),
        "reconciliation": get(app, accountant, "/money/report.xlsx?games=nmsg-2019"),
    }
    for name, r in books.items():
        assert r.status_code == 200 and r.get_data()[:2] == b"PK", name
        assert _formula_cells(r.get_data()) == [], name
    assert any(t.startswith("=HYPERLINK") for t in _texts(books["entry form"].get_data()))
    assert "+甲方选手二" in _texts(books["entry form"].get_data())
    assert "+甲方选手二" in _texts(books["event list"].get_data())
    csv = get(app, organiser, "/org/games/nmsg-2019/export/chess.WI.csv?drafts=1").get_data(as_text=True)
    assert "'+甲方选手二" in csv
    _db.session.rollback()


def test_the_insurers_list_holds_no_formula(app, db):
    from portal.sheets import to_xlsx
    data = to_xlsx("insurance", ["姓名"], [["=cmd|' /C calc'!A0"], ["@SUM(1+1)"], ["-2+3"]])
    assert _formula_cells(data) == [] and _texts(data)[1:] == ["=cmd|' /C calc'!A0", "@SUM(1+1)", "-2+3"]


@pytest.mark.parametrize("page,field", [("entries", "rows"), ("roles", "official-rows"), ("roles", "staff-rows"),
                                         ("roles", "companion-rows")])
def test_row_counts_are_bounded_and_checked(app, world, no_csrf, page, field, monkeypatch):
    client = login(app, "leader_a")
    d = world["a"]
    monkeypatch.setitem(app.config, "FIXED_NOW", dt.datetime(2019, 5, 20, tzinfo=CHINA))
    for value in ("2000000", "abc", "-1"):
        data = {"version": d.version, field: value, "event": "chess.MTR", "team": "A"}
        started = time.perf_counter()
        r = post(app, client, f"/d/{d.id}/{page}", data=data)
        assert r.status_code == 400 and time.perf_counter() - started < 2, (field, value, r.status_code)
        assert field in r.get_data(as_text=True)


@pytest.mark.parametrize("body,content_type", [
    (b"[" * 100000 + b"]" * 100000, "application/json"),
    (b"{" + b'"a":{' * 500 + b"}" * 501, "application/json"),
    (b"[1, 2, 3]", "application/json"), (b"null", "application/json"), (b'"text"', "application/json"),
    (b"\xff\xfe\x00garbage", "application/json"), (b"not json at all", "text/plain"),
    (b"{" * 3, "application/json"),
])
def test_the_api_answers_json_4xx_for_any_body(app, body, content_type):
    r = post(app, app.test_client(), "/api/v1/check", data=body, content_type=content_type)
    assert 400 <= r.status_code < 500 and r.is_json, (body[:20], r.status_code)
    assert r.get_json()["violations"][0]["code"] == "SCHEMA_INVALID"


def test_an_oversize_body_is_a_json_413(app):
    r = post(app, app.test_client(), "/api/v1/check", data=b"{" + b" " * (11 * 1024 * 1024) + b"}",
             content_type="application/json")
    assert r.status_code == 413 and r.is_json


def test_unknown_api_paths_and_methods_answer_json(app):
    client = app.test_client()
    assert get(app, client, "/api/v1/check").status_code == 405 and get(app, client, "/api/v1/check").is_json
    assert get(app, client, "/api/v1/nothing").is_json


@pytest.mark.parametrize("content", [b"null", b"[1, [2, [3]]]", b'"a string"', b"[" * 5000 + b"]" * 5000,
                                     b'{"format": "delegation/1", "games": {"x": [[[]]]}}'])
def test_uploading_a_document_that_is_not_one_is_a_clean_422(app, world, no_csrf, content):
    client = login(app, "leader_a")
    d = world["a"]
    r = post(app, client, f"/d/{d.id}/upload", data={"file": (io.BytesIO(content), "doc.json")},
             content_type="multipart/form-data")
    assert r.status_code == 422, r.status_code


def _xlsx_with(parts: dict[str, bytes]) -> bytes:
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w") as z:
        for name, data in parts.items():
            z.writestr(name, data)
    return out.getvalue()


BILLION_LAUGHS = b"""<?xml version="1.0"?><!DOCTYPE lolz [<!ENTITY lol "lol">
<!ENTITY lol2 "&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;">
<!ENTITY lol3 "&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;">]>
<workbook xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main">&lol3;</workbook>"""


@pytest.mark.parametrize("name,data", [
    ("garbage.xlsx", _xlsx_with({"xl/workbook.xml": b"<<<not xml", "[Content_Types].xml": b"junk"})),
    ("laughs.xlsx", _xlsx_with({"xl/workbook.xml": BILLION_LAUGHS, "[Content_Types].xml": b"<Types/>"})),
    ("truncated.xlsx", b"PK\x03\x04" + b"\0" * 100),
    ("empty.csv", b""),
])
def test_a_damaged_or_hostile_bank_file_is_refused_cleanly(app, world, no_csrf, name, data):
    client = login(app, "accountant")
    r = post(app, client, "/money/import", data={"games": "nmsg-2019", "on_error": "all",
                                                 "file": (io.BytesIO(data), name)},
             content_type="multipart/form-data")
    assert r.status_code < 500
    assert "没有导入" in r.get_data(as_text=True) or r.status_code in (400, 422)


def test_self_registration_holds_one_place_for_one_person(app, db, no_csrf):
    """shaanxi-mind-2025 (报满即止): an accepted entrant who adds a second athlete and
    resubmits is refused: one registration, one athlete, one counted place."""
    from portal.audit.services import Actor
    from portal.games.services import find_games
    from portal.workflow.services import import_document, save
    games = find_games("shaanxi-mind-2025")
    at = dt.datetime(2025, 9, 1, tzinfo=CHINA)
    event = games.definition["events"][0]["code"]
    me = person("p1", born="2012-04-04", unit=None, area="610102", name="独自报名")
    out = import_document(games, doc("shaanxi-mind-2025", unit=None, people=[me], entries=[individual(event, "p1")]),
                          at, Actor("t"))
    assert out.status == "submitted"
    friend = person("p2", born="2012-05-05", unit=None, area="610102", name="朋友")
    two = doc("shaanxi-mind-2025", unit=None, people=[me, friend], entries=[individual(event, "p1", "p2")])
    again = save(out.delegation, two, Actor("t"), at)
    assert "QUOTA_EXCEEDED" in {v.code for v in again.violations if v.is_error}
