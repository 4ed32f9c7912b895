"""The Excel entry form: a round trip keeps the delegation; bad cells are named; bad or
hostile files are refused before anything is read."""
import io
import zipfile

import pytest
from builders import doc, individual, person, team
from openpyxl import load_workbook

from portal.delegations.excel import ExcelError, read_workbook, write_workbook


@pytest.fixture
def nmsg19(definitions):
    return definitions["nmsg-2019"]


def sample():
    people = [person("m1", year=2019), person("m2", year=2019), person("m3", year=2019),
              person("w1", "F", year=2019, fide_rating={"value": 2460, "list": "2019-01-01"}),
              person("u1", "M", "1999-02-02", year=2019,
                     university={"code": "4133010335", "full_time": True, "graduation_date": "2021-06-30"}),
              person("o1", "M", "1970-01-01")]
    return doc("nmsg-2019", people=people,
               entries=[team("chess.MTR", ("m1", 1), ("w1", 2), ("m2", 3), ("m3", "R")), individual("chess.MI", "m1", "w1")],
               officials=[{"person": "o1", "role": "leader_coach", "sport": "chess"}],
               staff=[{"person": "o1", "role": "head"}])


def test_round_trip(nmsg19):
    d = sample()
    back = read_workbook(write_workbook(nmsg19, d), nmsg19, d)
    for p in d["people"]:
        p.setdefault("registration", None)
        p.setdefault("university", None)
        p.setdefault("fide_rating", None)
        p.setdefault("club", None)
    strip = lambda people: [{k: v for k, v in p.items() if v not in (None, [], "")} for p in people]
    assert strip(back["people"]) == strip(d["people"])
    key = lambda e: (e["event"], e.get("team") or "")
    assert sorted(back["entries"], key=key) == sorted(d["entries"], key=key) and back["officials"] == d["officials"] and back["staff"] == d["staff"]
    assert back["declarations"] == d["declarations"]


def test_workbook_has_drop_downs_and_instructions(nmsg19):
    wb = load_workbook(io.BytesIO(write_workbook(nmsg19, sample())))
    assert wb.sheetnames[:2] == ["说明", "代码"]
    assert wb["人员"].data_validations.dataValidation
    assert "填写说明" in "".join(str(c.value) for c in wb["说明"]["A"])


def _edit(nmsg19, fn):
    wb = load_workbook(io.BytesIO(write_workbook(nmsg19, sample())))
    fn(wb)
    out = io.BytesIO()
    wb.save(out)
    return out.getvalue()


@pytest.mark.parametrize("change,where", [
    (lambda wb: wb["人员"].cell(row=2, column=4, value="1990/02/30"), "人员!D2"),
    (lambda wb: wb["人员"].cell(row=3, column=3, value="男女"), "人员!C3"),
    (lambda wb: wb["人员"].cell(row=2, column=6, value=330102199505051234), "人员!F2"),
    (lambda wb: wb["团体"].cell(row=2, column=3, value="nobody"), "团体!C2"),
    (lambda wb: wb["团体"].cell(row=3, column=4, value="second"), "团体!D3"),
    (lambda wb: wb["个人项目"].cell(row=2, column=1, value="chess.XX"), "个人项目!A2"),
    (lambda wb: wb["官员与随队"].cell(row=2, column=3, value="boss"), "官员与随队!C2"),
])
def test_bad_cells_are_named(nmsg19, change, where):
    with pytest.raises(ExcelError) as err:
        read_workbook(_edit(nmsg19, change), nmsg19, sample())
    assert any(w.startswith(where) for w, _ in err.value.problems), err.value.problems


def test_not_an_xlsx(nmsg19):
    with pytest.raises(ExcelError, match="not an Excel"):
        read_workbook(b"PK\x03\x04 but not a zip", nmsg19, sample())
    with pytest.raises(ExcelError, match="not an Excel"):
        read_workbook("姓名,性别\n".encode(), nmsg19, sample())


def test_too_large(nmsg19):
    with pytest.raises(ExcelError, match="larger than"):
        read_workbook(b"x" * (6 * 1024 * 1024), nmsg19, sample())


def test_zip_bomb(nmsg19):
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as z:
        z.writestr("xl/workbook.xml", "<workbook/>")
        z.writestr("xl/worksheets/sheet1.xml", "0" * (80 * 1024 * 1024))
    with pytest.raises(ExcelError, match="compression|unpacked"):
        read_workbook(out.getvalue(), nmsg19, sample())
