"""The one writer of every spreadsheet the portal makes (entry forms, exports, statements,
insurance lists). No cell may be read as a formula: a name such as =HYPERLINK(...) typed
by a leader must reach the organiser's Excel as text (OWASP, CSV/formula injection)."""
from __future__ import annotations

import csv
import io

from openpyxl import Workbook
from openpyxl.styles import Font
from openpyxl.utils import get_column_letter

RISKY = ("=", "+", "-", "@", "\t", "\r")


def csv_safe(value):
    """In CSV a value starting with = + - @ or a control character gets a leading apostrophe."""
    if isinstance(value, str) and value.startswith(RISKY):
        return "'" + value
    return value


def workbook_bytes(wb: Workbook) -> bytes:
    """Save a workbook; every cell that openpyxl took for a formula (a string starting with
    "=") is written as the text it is. The portal writes no formulas of its own."""
    for ws in wb.worksheets:
        for row in ws.iter_rows():
            for cell in row:
                if cell.data_type == "f":
                    cell.data_type = "s"
    out = io.BytesIO()
    wb.save(out)
    return out.getvalue()


def csv_chunks(header, rows, batch: int = 500, bom: bool = True):
    """The CSV as UTF-8 chunks (a BOM first, so that Excel opens it right), for a streamed
    response: rows are read from their iterator as the client takes them."""
    out = io.StringIO()
    writer = csv.writer(out)
    writer.writerow([csv_safe(h) for h in header])
    yield (("\ufeff" if bom else "") + out.getvalue()).encode("utf-8")
    out.seek(0)
    out.truncate()
    for i, row in enumerate(rows, start=1):
        writer.writerow([csv_safe(v) for v in row])
        if i % batch == 0:
            yield out.getvalue().encode("utf-8")
            out.seek(0)
            out.truncate()
    if out.getvalue():
        yield out.getvalue().encode("utf-8")


def to_xlsx(title: str, header, rows) -> bytes:
    """One table on one sheet (see to_xlsx_sheets)."""
    return to_xlsx_sheets([(title, header, rows)])


def to_xlsx_sheets(tables, on_row=None) -> bytes:
    """Tables (title, header, rows) on sheets of their own, written row by row (openpyxl's
    write-only mode keeps no cell objects around): a bold, frozen header row; every text
    cell a string, never a formula. `on_row(n)` is told the running count of rows written."""
    from openpyxl.cell import WriteOnlyCell
    wb = Workbook(write_only=True)
    bold = Font(bold=True)
    written = 0
    used = set()
    for title, header, rows in tables:
        name = _sheet_name(title, used)
        ws = wb.create_sheet(name)
        for i in range(len(header)):
            ws.column_dimensions[get_column_letter(i + 1)].width = 16
        ws.freeze_panes = "A2"

        def cell(value, font=None, ws=ws):
            c = WriteOnlyCell(ws, value=value)
            if isinstance(value, str):
                c.data_type = "s"  # "=HYPERLINK(...)" typed by a leader stays text
            if font is not None:
                c.font = font
            return c
        ws.append([cell(h, bold) for h in header])
        for row in rows:
            ws.append([cell(v) for v in row])
            written += 1
            if on_row is not None:
                on_row(written)
    out = io.BytesIO()
    wb.save(out)
    return out.getvalue()


def _sheet_name(title: str, used: set) -> str:
    """Excel's rules: at most 31 characters, none of []:*?/\\, unique in the workbook."""
    name = "".join("_" if ch in "[]:*?/\\" else ch for ch in title)[:31] or "sheet"
    base, n = name, 2
    while name.lower() in used:
        suffix = f" ({n})"
        name, n = base[:31 - len(suffix)] + suffix, n + 1
    used.add(name.lower())
    return name


def decode_text(data: bytes) -> str:
    """An uploaded text file: UTF-8 (with or without BOM), else GB18030 as Chinese Excel saves it."""
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError:
        return data.decode("gb18030", errors="replace")
