"""The one writer of every spreadsheet the portal makes (entry forms, exports, statements,
insurance lists). No cell may be read as a formula: a name such as =HYPERLINK(...) typed
by a leader must reach the organiser's Excel as text (OWASP, CSV/formula injection)."""
from __future__ import annotations

import csv
import io

from openpyxl import Workbook
from openpyxl.styles import Font

RISKY = ("=", "+", "-", "@", "\t", "\r")


def csv_safe(value):
    """In CSV a value starting with = + - @ or a control character gets a leading apostrophe."""
    if isinstance(value, str) and value.startswith(RISKY):
        return "'" + value
    return value


def to_csv(header, rows) -> bytes:
    out = io.StringIO()
    writer = csv.writer(out)
    writer.writerow([csv_safe(h) for h in header])
    for row in rows:
        writer.writerow([csv_safe(v) for v in row])
    return ("\ufeff" + out.getvalue()).encode("utf-8")  # BOM: Excel opens UTF-8 CSV correctly


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


def to_xlsx(title: str, header, rows) -> bytes:
    """One table on one sheet: a bold, frozen header row."""
    wb = Workbook()
    ws = wb.active
    ws.title = title[:31]
    ws.append(header)
    for c in ws[1]:
        c.font = Font(bold=True)
    for r, row in enumerate(rows, start=2):
        for c, value in enumerate(row, start=1):
            ws.cell(row=r, column=c, value=value)
    for i in range(1, len(header) + 1):
        ws.column_dimensions[ws.cell(row=1, column=i).column_letter].width = 16
    ws.freeze_panes = "A2"
    return workbook_bytes(wb)
