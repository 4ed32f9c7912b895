"""Spreadsheets as people save them: .xlsx, and also .xls (what WPS and older Excel often
write) and .ods (LibreOffice), both read with calamine through pandas (python-calamine: one
maintained reader for both; pandas has deprecated xlrd). A .xls or .ods is turned into an
.xlsx in memory, cell values kept (dates as dates), so that one reader reads all three.
Below the areas: imports none."""
from __future__ import annotations

import datetime as dt
import io
import math
import zipfile

from .upload_checks import MAX_UNPACKED_SMALL, UploadRefused, check_archive, check_size

OLE = b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1"  # the compound file of a .xls
ODS_MIMETYPE = b"application/vnd.oasis.opendocument.spreadsheet"
MAX_BYTES = 5 * 1024 * 1024
MAX_SHEET_BYTES = 2 * 1024 * 1024  # a list of units, leaders or results


# The readers' refusal is the uploads' one: a caller catches either name.
SpreadsheetError = UploadRefused


def kind_of(data: bytes, filename: str = "") -> str | None:
    """"xlsx", "xls", "ods", or None for anything else (a CSV, a JSON document...)."""
    name = filename.lower()
    if data[:8] == OLE:
        return "xls"
    if data[:2] == b"PK":
        try:
            names = set(zipfile.ZipFile(io.BytesIO(data)).namelist())
        except zipfile.BadZipFile:
            return "xlsx" if name.endswith((".xlsx", ".xlsm")) else None
        if "mimetype" in names and zipfile.ZipFile(io.BytesIO(data)).read("mimetype").strip() == ODS_MIMETYPE:
            return "ods"
        return "xlsx"
    if name.endswith((".xlsx", ".xlsm", ".xls", ".ods")):
        return name.rsplit(".", 1)[1].replace("xlsm", "xlsx")
    return None


def sheets(data: bytes, kind: str, as_text: bool = False) -> dict:
    """Each sheet of a .xls or .ods, by name, as a pandas DataFrame without a header row."""
    import pandas as pd
    check_size(data, MAX_BYTES)
    if kind == "ods":
        check_archive(data)
    try:
        return pd.read_excel(io.BytesIO(data), sheet_name=None, header=None, engine="calamine",
                             dtype=str if as_text else None)
    except Exception:  # a damaged or hostile file: the reader's own error is not for people
        raise SpreadsheetError("无法读取这个表格文件（可能已损坏）", "the spreadsheet cannot be read (damaged?)",
                               unreadable=True) from None


def _cell(value):
    if value is None:
        return None
    if isinstance(value, float) and math.isnan(value):
        return None
    if hasattr(value, "to_pydatetime"):  # a pandas Timestamp
        value = value.to_pydatetime()
    if isinstance(value, dt.datetime) and value.time() == dt.time():
        return value  # openpyxl writes a date cell; the reader takes its date
    return value


def as_xlsx(data: bytes, kind: str) -> bytes:
    """A .xls or .ods as the .xlsx with the same sheets and cell values."""
    from openpyxl import Workbook
    wb = Workbook()
    wb.remove(wb.active)
    for title, frame in sheets(data, kind).items():
        ws = wb.create_sheet(str(title)[:31])
        for row in frame.itertuples(index=False, name=None):
            ws.append([_cell(v) for v in row])
            for cell in ws[ws.max_row]:
                if cell.data_type == "f":  # a text beginning with "=" stays text
                    cell.data_type = "s"
    out = io.BytesIO()
    wb.save(out)
    return out.getvalue()


def uploaded_rows(data: bytes, filename: str) -> list[list[str]] | None:
    """The first sheet of an uploaded .xlsx, .xls or .ods as text cells ("" for empty),
    after the size and archive checks; None when the file is no spreadsheet (a CSV or
    text: the caller reads it). A spreadsheet that is refused or cannot be read raises
    UploadRefused, saying why."""
    kind = kind_of(data, filename)
    if kind is None:
        return None
    check_size(data, MAX_SHEET_BYTES)
    if kind in ("xls", "ods"):
        frames = sheets(data, kind, as_text=True)
        frame = next(iter(frames.values()), None)
        if frame is None:
            return []
        return [["" if v is None or v != v else str(v) for v in row] for row in frame.itertuples(index=False, name=None)]
    check_archive(data, MAX_UNPACKED_SMALL, required="xl/workbook.xml")
    from openpyxl import load_workbook
    try:
        ws = load_workbook(io.BytesIO(data), read_only=True, data_only=True).worksheets[0]
        return [["" if v is None else str(v) for v in r] for r in ws.iter_rows(values_only=True)]
    except Exception:  # a damaged or hostile workbook: the reader's own error is not for people
        raise UploadRefused("文件无法读取：应为 .xlsx 或 .csv", "the file cannot be read: use .xlsx or .csv",
                            unreadable=True) from None
