"""Spreadsheets as leaders and accountants save them (issue 25, 18 and 19): the entry form
re-saved by LibreOffice itself (headless, Debian's libreoffice-calc-nogui) as .xlsx, .xls
and .ods reads back unchanged, and one edit shows as exactly that edit; a bank's .xls
export is read like its .xlsx."""
import csv
import io
import shutil
import subprocess

import pytest
from openpyxl import Workbook, load_workbook
from test_bank_layouts import LAYOUTS
from test_excel import sample

from portal.delegations import diff
from portal.delegations.excel import read_workbook, write_workbook
from portal.money.bank import read_statement


def _libreoffice(tmp_path, files: dict[str, bytes], to: str) -> dict[str, bytes]:
    """The files converted by LibreOffice (one run for all), by their names."""
    soffice = shutil.which("soffice")
    assert soffice, "LibreOffice (soffice) is part of the test stack: .ci/run installs libreoffice-calc-nogui"
    src, out = tmp_path / "in", tmp_path / "out"
    src.mkdir()
    out.mkdir()
    for name, data in files.items():
        (src / name).write_bytes(data)
    subprocess.run([soffice, f"-env:UserInstallation=file://{tmp_path / 'profile'}", "--headless", "--norestore",
                    "--convert-to", to, "--outdir", str(out), *[str(src / n) for n in files]],
                   check=True, capture_output=True, timeout=180)
    return {p.name: p.read_bytes() for p in out.iterdir()}


@pytest.fixture(scope="module")
def resaved(tmp_path_factory, definitions):
    """The entry form, and the same with one name changed, re-saved as .xls, .ods and .xlsx."""
    definition = definitions["nmsg-2019"]
    stored = sample()  # its identity numbers are new at each call: one delegation for all
    original = write_workbook(definition, stored)
    wb = load_workbook(io.BytesIO(original))
    sheet = wb["人员"]
    header = [c.value for c in sheet[1]]
    col = next(i for i, label in enumerate(header, start=1) if label and "姓名" in str(label))
    sheet.cell(row=2, column=col).value = "改过的名字"
    edited = io.BytesIO()
    wb.save(edited)
    # An English reader's form too: its sheets and headers are English (issue 40, 1).
    files = {"form.xlsx": original, "edited.xlsx": edited.getvalue(), "english.xlsx": write_workbook(definition, stored, en=True)}
    out = {}
    for fmt, ext in (("xls:MS Excel 97", "xls"), ("ods", "ods"), ("xlsx:Calc MS Excel 2007 XML", "xlsx")):
        converted = _libreoffice(tmp_path_factory.mktemp(ext), files, fmt)
        out[ext] = (converted[f"form.{ext}"], converted[f"edited.{ext}"], converted[f"english.{ext}"])
    return definition, stored, out


@pytest.mark.parametrize("ext", ["xls", "ods", "xlsx"])
def test_the_entry_form_resaved_by_libreoffice_reads_back_unchanged(resaved, ext):
    definition, stored, files = resaved
    back = read_workbook(files[ext][0], definition, stored)
    assert diff.changes(stored, back, {}, en=False, show_id=lambda n: n) == []
    english = read_workbook(files[ext][2], definition, stored)
    assert diff.changes(stored, english, {}, en=True, show_id=lambda n: n) == []


@pytest.mark.parametrize("ext", ["xls", "ods", "xlsx"])
def test_one_edit_in_libreoffice_shows_as_exactly_that_edit(resaved, ext):
    definition, stored, files = resaved
    changes = diff.changes(stored, read_workbook(files[ext][1], definition, stored), {}, en=False, show_id=lambda n: n)
    assert len(changes) == 1 and "改过的名字" in str(changes[0]), changes


def test_a_bank_statement_saved_as_xls_reads_like_its_csv(tmp_path):
    encoding, text = LAYOUTS["ccb"]
    wb = Workbook()
    for row in csv.reader(io.StringIO(text)):
        wb.active.append(row)
    xlsx = io.BytesIO()
    wb.save(xlsx)
    xls = _libreoffice(tmp_path, {"ccb.xlsx": xlsx.getvalue()}, "xls:MS Excel 97")["ccb.xls"]
    assert xls[:4] == b"\xd0\xcf\x11\xe0"  # a real .xls, as CCB exports it
    lines = read_statement(xls, "ccb.xls").lines
    assert len(lines) == 1 and lines.iloc[0]["payer"] == "河西棋院" and lines.iloc[0]["amount"] == "1200.00"
