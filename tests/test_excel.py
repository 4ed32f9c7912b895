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


def _same_as(back, d):
    for p in d["people"]:
        for key in ("registration", "university", "fide_rating", "club"):
            p.setdefault(key, None)
    strip = lambda people: [{k: v for k, v in p.items() if v not in (None, [], "")} for p in people]
    key = lambda e: (e["event"], e.get("team") or "")
    assert strip(back["people"]) == strip(d["people"])
    assert sorted(back["entries"], key=key) == sorted(d["entries"], key=key)
    assert (back["officials"], back["staff"], back["declarations"]) == (d["officials"], d["staff"], d["declarations"])


def test_an_english_readers_form_is_in_english_only_and_reads_back(nmsg19):
    """One reader, one language: the sheets, headers, instructions and the words in the
    cells (yes, officials) are English; the form reads back to the same delegation."""
    import re
    d = sample()
    data = write_workbook(nmsg19, d, en=True)
    wb = load_workbook(io.BytesIO(data))
    assert wb.sheetnames == ["Instructions", "Codes", "People", "Declarations", "Individual events", "Teams",
                             "Officials and companions"]
    chinese = re.compile(r"[\u4e00-\u9fff]")
    headers = [str(c.value) for name in wb.sheetnames[2:] for c in wb[name][1]]
    words = [str(c.value) for c in wb["Instructions"]["A"] if c.value] + [
        str(row[i]) for name, i in (("Teams", 4), ("Officials and companions", 0))
        for row in wb[name].iter_rows(min_row=2, values_only=True) if row[i]]
    assert headers[:3] == ["ref", "name", "gender (M/F)"] and "yes" in words and "officials" in words
    assert [w for w in headers + words if chinese.search(w) and nmsg19.name.zh not in w] == []
    _same_as(read_workbook(data, nmsg19, d), d)
    zh = load_workbook(io.BytesIO(write_workbook(nmsg19, d)))
    assert [c.value for c in zh["人员"][1]][:3] == ["编号", "姓名", "性别 (M/F)"]
    assert not any(re.search("[a-z]{3}", str(c.value)) for c in zh["人员"][1] if "FIDE" not in str(c.value))


# The People sheet's headers as forms of earlier years had them, in both languages at once.
EARLIER_HEADERS = ["编号 ref", "姓名 name", "性别 gender (M/F)", "出生日期 birth_date", "证件类型 id_type",
                   "证件号码 id_number", "注册单位 registration unit", "注册年度 registration year",
                   "注册日期 registration date", "高校代码 university code", "全日制 full_time (是/否)",
                   "毕业日期 graduation_date", "等级分 FIDE rating", "等级分日期 rating list", "俱乐部 club",
                   "材料 documents"]


def test_a_form_of_earlier_years_with_both_languages_in_its_headers_still_reads(nmsg19):
    d = sample()
    wb = load_workbook(io.BytesIO(write_workbook(nmsg19, d)))
    people = wb["人员"]
    for i, label in enumerate(EARLIER_HEADERS, start=1):
        people.cell(row=1, column=i, value=label)
    people.delete_cols(len(EARLIER_HEADERS) + 1, 20)  # before the career columns came
    out = io.BytesIO()
    wb.save(out)
    _same_as(read_workbook(out.getvalue(), nmsg19, d), d)


def test_an_english_forms_bad_cells_are_named_by_its_own_sheets(nmsg19):
    wb = load_workbook(io.BytesIO(write_workbook(nmsg19, sample(), en=True)))
    wb["People"].cell(row=2, column=4, value="1990/02/30")
    wb["Individual events"].cell(row=2, column=2, value="nobody")
    out = io.BytesIO()
    wb.save(out)
    with pytest.raises(ExcelError) as err:
        read_workbook(out.getvalue(), nmsg19, sample())
    places = {str(w): m for w, m in err.value.problems}
    assert "People!D2" in places and "Individual events!B2" in places
    assert places["Individual events!B2"].en == "ref 'nobody' is not on the People sheet"


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
