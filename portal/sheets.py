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


def csv_chunks(header, rows, batch: int = 500):
    """The CSV as UTF-8 chunks (a BOM first, so that Excel opens it right), for a streamed
    response: rows are read from their iterator as the client takes them."""
    out = io.StringIO()
    writer = csv.writer(out)
    writer.writerow([csv_safe(h) for h in header])
    yield ("\ufeff" + out.getvalue()).encode("utf-8")
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
    """One table on one sheet, written row by row (openpyxl's write-only mode keeps no
    cell objects around): a bold, frozen header row; every text cell a string, never a
    formula."""
    from openpyxl.cell import WriteOnlyCell
    wb = Workbook(write_only=True)
    ws = wb.create_sheet(title[:31])
    for i in range(len(header)):
        ws.column_dimensions[get_column_letter(i + 1)].width = 16
    ws.freeze_panes = "A2"
    bold = Font(bold=True)

    def cell(value, font=None):
        c = WriteOnlyCell(ws, value=value)
        if isinstance(value, str):
            c.data_type = "s"  # "=HYPERLINK(...)" typed by a leader stays text
        if font is not None:
            c.font = font
        return c
    ws.append([cell(h, bold) for h in header])
    for row in rows:
        ws.append([cell(v) for v in row])
    out = io.BytesIO()
    wb.save(out)
    return out.getvalue()

