"""The delegation's statement: what it owes, what it paid, the code to quote; as data,
as Excel and as PDF (reportlab's built-in Chinese CID font, no font file needed)."""
from __future__ import annotations

import io
from decimal import Decimal

from sqlalchemy import select

from ..delegations.models import Delegation
from ..extensions import db
from ..games.services import definition_of
from ..pdf_fonts import chinese_font
from ..sheets import workbook_bytes
from .models import LedgerEntry
from .services import SIGN, account_status, entry_valid, payment_reference_of, totals

KIND_NAMES = {"charge": ("应付", "Charge"), "credit": ("冲减", "Credit"), "payment": ("已付", "Payment"),
              "refund": ("退款", "Refund"), "forfeit": ("不予退还", "Forfeit"),
              "reversal": ("撤销到账", "Payment taken back")}
STATUS_NAMES = {"paid": ("已结清", "Paid"), "partly_paid": ("部分付款", "Partly paid"), "unpaid": ("未付款", "Unpaid"),
                "refund_due": ("应退款", "Refund due"), "nothing_due": ("无应付款", "Nothing due")}


def statement(d: Delegation, violations: list | None = None, doc: dict | None = None) -> dict:
    """`violations` and `doc`: the delegation's, where the caller has judged it already
    (the workspace page), so that a big delegation is not read and judged twice."""
    # In the order of their value dates (the portal's clock), then as posted.
    entries = db.session.scalars(select(LedgerEntry).where(LedgerEntry.delegation_id == d.id)
                                 .order_by(LedgerEntry.value_date, LedgerEntry.id)).all()
    t = totals(d)
    running = Decimal("0.00")
    lines = []
    sign = SIGN
    for e in entries:
        running += sign[e.kind] * e.amount
        # Two signed columns a reader adds up: what is owed (a credit lowers it) and what was
        # paid (a payment taken back, or a refund, lowers it: shown negative).
        due = {"charge": e.amount, "credit": -e.amount}.get(e.kind)
        paid = {"payment": e.amount, "reversal": -e.amount, "refund": -e.amount}.get(e.kind)
        lines.append({"entry": e, "balance": running, "due": due, "paid": paid})
    definition = definition_of(d.games)
    full_rate = []
    if definition.money.staff_excess_full_rate:
        # 总则 七(二): staff beyond the allowance lose the preferential rate.
        from ..delegations.services import export_document, judge
        from ..rules import parse_document
        if violations is None or doc is None:
            doc = export_document(d)
            parsed, _ = parse_document(doc)
            violations = judge(d.games, parsed)
        names = {p["ref"]: p["name"] for p in doc["people"]}
        full_rate = [names.get(ref, ref) for v in violations if v.code == "STAFF_EXCESS" for ref in v.people]
    for line in lines:
        line["note_en"] = english_note(line["entry"].description, definition)
    return {"d": d, "lines": lines, "totals": t, "status": account_status(t), "reference": payment_reference_of(d),
            "payee": definition.money.payee.model_dump() if definition.money.payee else None, "valid": entry_valid(d), "currency": definition.money.currency,
            "full_rate": full_rate}


PHRASES = [("银行到账", "Bank credit"), ("退赛不予退还", "kept on withdrawal"), ("减至", "reduced to"),
           ("人·晚", "person-nights"), ("间·晚", "room-nights"), ("住宿", "Rooms"), ("超出名额", "beyond the allowance"),
           ("部分报名费", "part of the entry fee"), ("报名费", "Entry fee"), ("更换运动员", "substitution"),
           ("手续费", "change fee"), ("保证金", "deposit")]


def english_note(text: str, definition) -> str:
    """A ledger line's description (written in Chinese when it was posted) for an English
    reader: the Games' fee and room names in English, the portal's own phrases translated."""
    out = text or ""
    names = [(f.name.zh, f.name.en) for f in definition.money.fees] + [(r.name.zh, r.name.en) for r in definition.rooms]
    for zh, en in sorted(names + PHRASES, key=lambda x: -len(x[0])):
        out = out.replace(zh, en)
    out = out.replace("：", ": ").replace("（", " (").replace("）", ")").replace("，", ", ").replace(" 天", " days")
    return out


def to_xlsx(data: dict, title: str, en: bool = False) -> bytes:
    """The statement as a workbook in its reader's language (`en`: English)."""
    from openpyxl import Workbook
    from openpyxl.styles import Font
    pick = 1 if en else 0
    wb = Workbook()
    ws = wb.active
    ws.title = "Statement" if en else "对账单"
    ws.append([title])
    ws["A1"].font = Font(bold=True, size=13)
    ws.append(["Quote on transfer" if en else "付款时请注明", data["reference"]])
    ws.append([])
    ws.append(["date", "kind", "description", "due (CNY)", "paid (CNY)", "balance"] if en else
              ["日期", "类别", "说明", "应付（元）", "已付（元）", "待付余额"])
    for c in ws[4]:
        c.font = Font(bold=True)
    for line in data["lines"]:
        e = line["entry"]
        row = [e.value_date or e.created_at.date(), KIND_NAMES[e.kind][pick], line["note_en"] if en else e.description,
               line["due"], line["paid"], line["balance"]]
        ws.append(row)
        for col in (4, 5, 6):
            ws.cell(row=ws.max_row, column=col).number_format = "#,##0.00"
    t = data["totals"]
    ws.append([])
    for label, key in ((("应付合计", "expected"), "expected"), (("已付", "paid"), "payment"),
                       (("已退", "refunded"), "refund"),
                       (("余额（正数为待付，负数为应退）", "balance (positive: to pay; negative: to be refunded)"), "balance")):
        ws.append([label[pick], None, None, t[key]])
        ws.cell(row=ws.max_row, column=4).number_format = "#,##0.00"
    for col, width in zip("ABCDEF", (14, 10, 48, 16, 16, 14)):
        ws.column_dimensions[col].width = width
    return workbook_bytes(wb)


def to_pdf(data: dict, title: str) -> bytes:
    from reportlab.lib import colors
    from reportlab.lib.pagesizes import A4
    from reportlab.lib.styles import ParagraphStyle
    from reportlab.platypus import Paragraph, SimpleDocTemplate, Spacer, Table, TableStyle

    font = chinese_font()
    style = ParagraphStyle("cn", fontName=font, fontSize=10, leading=14)
    head = ParagraphStyle("cnh", parent=style, fontSize=15, leading=20)
    out = io.BytesIO()
    doc = SimpleDocTemplate(out, pagesize=A4, title=title, leftMargin=40, rightMargin=40, initialFontName=font)
    t = data["totals"]
    story = [Paragraph(title, head), Spacer(1, 6),
             Paragraph(f"付款时请在附言中注明：<b>{data['reference']}</b>", style)]
    if data["payee"]:
        p = data["payee"]
        story.append(Paragraph(f"收款户名：{p.get('name', '')}　开户行：{p.get('bank', '')}　账号：{p.get('account', '')}", style))
    story.append(Spacer(1, 10))
    rows = [["日期", "类别", "说明", "应付（元）", "已付（元）", "待付余额"]]
    def money(v):
        return f"{v:,.2f}" if v is not None else ""
    for line in data["lines"]:
        e = line["entry"]
        rows.append([str(e.value_date or e.created_at.date()), KIND_NAMES[e.kind][0],
                     Paragraph(e.description, style), money(line["due"]), money(line["paid"]), money(line["balance"])])
    rows += [["", "", "应付合计", f"{t['expected']:,.2f}", "", ""], ["", "", "已付", "", f"{t['payment']:,.2f}", ""],
             ["", "", "已退", "", f"{t['refund']:,.2f}", ""], ["", "", "余额（负数为应退）", "", "", f"{t['balance']:,.2f}"]]
    table = Table(rows, colWidths=[62, 44, 200, 70, 70, 70])
    table.setStyle(TableStyle([("FONTNAME", (0, 0), (-1, -1), font), ("FONTSIZE", (0, 0), (-1, -1), 9),
                               ("BACKGROUND", (0, 0), (-1, 0), colors.HexColor("#f0f0f0")),
                               ("ALIGN", (3, 0), (5, -1), "RIGHT"), ("GRID", (0, 0), (-1, -5), 0.25, colors.grey),
                               ("VALIGN", (0, 0), (-1, -1), "TOP")]))
    story.append(table)
    doc.build(story)
    return out.getvalue()
