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

OLE = b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1"  # the compound file of a .xls
ODS_MIMETYPE = b"application/vnd.oasis.opendocument.spreadsheet"
MAX_BYTES = 5 * 1024 * 1024
MAX_UNPACKED = 100 * 1024 * 1024
MAX_RATIO = 100


class SpreadsheetError(Exception):
    """The file cannot be read as a spreadsheet: (zh, en)."""

    def __init__(self, zh: str, en: str):
        super().__init__(en)
        self.zh, self.en = zh, en


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


def check_archive(data: bytes) -> None:
    """Refuse a zipped spreadsheet (.xlsx, .ods) that is too big unpacked or a zip bomb."""
    try:
        archive = zipfile.ZipFile(io.BytesIO(data))
    except zipfile.BadZipFile:
        raise SpreadsheetError("文件已损坏，无法读取", "the file is damaged and cannot be read") from None
    total = 0
    for item in archive.infolist():
        total += item.file_size
        if item.compress_size and item.file_size / item.compress_size > MAX_RATIO and item.file_size > 1024 * 1024:
            raise SpreadsheetError("文件结构异常（压缩比过高），已拒绝", "suspicious compression ratio, refused")
    if total > MAX_UNPACKED:
        raise SpreadsheetError("解压后过大，已拒绝", "too large when unpacked, refused")


def sheets(data: bytes, kind: str, as_text: bool = False) -> dict:
    """Each sheet of a .xls or .ods, by name, as a pandas DataFrame without a header row."""
    import pandas as pd
    if len(data) > MAX_BYTES:
        raise SpreadsheetError(f"文件超过 {MAX_BYTES // 1024 // 1024} MB", f"larger than {MAX_BYTES // 1024 // 1024} MB")
    if kind == "ods":
        check_archive(data)
    try:
        return pd.read_excel(io.BytesIO(data), sheet_name=None, header=None, engine="calamine",
                             dtype=str if as_text else None)
    except Exception:  # a damaged or hostile file: the reader's own error is not for people
        raise SpreadsheetError("无法读取这个表格文件（可能已损坏）", "the spreadsheet cannot be read (damaged?)") from None


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
