"""The programme book (秩序册) of a Games, from the approved entries: the cover (name, venue,
dates), the schedule where the fixture gives sessions, each delegation with its officials,
staff and athletes, each event's entrants with their player numbers where drawn, and the
counts per delegation and event. As Excel (one sheet per part) or PDF; marked with the time
it was made. Made as a background job (portal/jobs)."""
from __future__ import annotations

import io
import re

from sqlalchemy import select

from ..clock import now
from ..delegations.edit import entry_people
from ..delegations.models import Delegation, DelegationStatus, Person
from ..delegations.services import export_documents
from ..extensions import db
from ..games.services import definition_of, unit_names
from ..jobs.services import games_of, job_kind
from ..pdf_fonts import chinese_font
from ..rules.engine import CHINA
from ..sheets import to_xlsx_sheets
from .entrants import players
from .models import Draw

ROLE = {"leader": "领队", "coach": "教练", "leader_coach": "领队兼教练", "head": "团长", "deputy_head": "副团长",
        "staff": "工作人员"}
GENDER = {"M": "男", "F": "女"}


def book(games) -> dict:
    """Everything the book prints, as plain rows."""
    definition = definition_of(games)
    sports = {s.code: s for s in definition.sports}
    events = [(e.code, f"{sports[e.sport].name.zh}{e.name.zh}", e) for e in definition.events]
    units = unit_names()
    numbers: dict[str, dict[int, int]] = {}
    for d in db.session.scalars(select(Draw).where(Draw.games_id == games.id, Draw.superseded.is_(False))):
        numbers[d.event_code] = {pid: n for n, pid, _name, _unit in d.numbers}
    delegations, per_event, counts = [], {code: [] for code, _l, _e in events}, []
    approved = db.session.scalars(select(Delegation).where(Delegation.games_id == games.id,
                                                           Delegation.status == DelegationStatus.APPROVED)
                                  .order_by(Delegation.unit_code, Delegation.id)).all()
    documents = export_documents(approved)
    # Each event lists its players only (entrants.py: valid, not withdrawn, not wait-listed),
    # the list the draw numbered, so that the book and the draw agree number for number.
    playing = {code: {p.delegation_id for p in players(games, code)[0]} for code, _l, _e in events}
    person_ids: dict[int, dict[str, int]] = {}
    for delegation_id, ref, pid in db.session.execute(
            select(Person.delegation_id, Person.ref, Person.id).where(Person.delegation_id.in_([d.id for d in approved]))):
        person_ids.setdefault(delegation_id, {})[ref] = pid
    for d in approved:
        doc = documents[d.id]
        unit = units.get(d.unit_code, d.unit_name or d.unit_code or "")
        people = {p["ref"]: p for p in doc["people"]}
        ids = person_ids.get(d.id, {})
        officials = [(ROLE.get(o["role"], o["role"]), people[o["person"]]["name"]) for o in doc["officials"]]
        staff = [(ROLE.get(s["role"], s["role"]), people[s["person"]]["name"]) for s in doc["staff"]]
        athletes, row = [], [unit]
        for code, _label, _event in events:
            entered = [e for e in doc["entries"] if e["event"] == code and d.id in playing[code]]
            refs = [r for e in entered for r in entry_people(e)]
            row.append(len(refs))
            for e in entered:
                for j, r in enumerate(entry_people(e)):
                    slot = (e.get("lineup") or [{}] * 99)[j] if e.get("lineup") else {}
                    per_event[code].append([numbers.get(code, {}).get(ids.get(r), ""), people[r]["name"],
                                            GENDER.get(people[r].get("gender"), ""), unit,
                                            e.get("team") or "" if e.get("lineup") is not None else "",
                                            slot.get("board", "") if slot else ""])
            for r in refs:
                if r not in athletes:
                    athletes.append(r)
        delegations.append({"unit": unit, "officials": officials, "staff": staff,
                            "athletes": [(people[r]["name"], GENDER.get(people[r].get("gender"), "")) for r in athletes]})
        counts.append(row + [len(athletes)])
    for code in per_event:
        per_event[code].sort(key=lambda r: (r[0] == "", r[0] if r[0] != "" else 0, r[3]))
    schedule = [(label, s.start.astimezone(CHINA).strftime("%m-%d %H:%M"), s.end.astimezone(CHINA).strftime("%H:%M"))
                for code, label, e in events for s in e.sessions]
    return {"games": games, "definition": definition, "events": [(c, lab) for c, lab, _e in events],
            "delegations": delegations, "per_event": per_event, "counts": counts, "schedule": schedule,
            "made": now().astimezone(CHINA).strftime("%Y-%m-%d %H:%M")}


def _contact_text(c) -> str:
    parts = [c.name, f"电话 {c.phone}" if c.phone else None, f"邮箱 {c.email}" if c.email else None,
             f"地址 {c.address}" if c.address else None]
    return "；".join(p for p in parts if p)


def sheet_name(label: str, used: set) -> str:
    """An event's name as an Excel sheet name: at most 31 characters, none of []:*?/\\,
    unique in the workbook."""
    base = re.sub(r"[\[\]:*?/\\]", " ", label).strip()[:31] or "sheet"
    name, n = base, 2
    while name.lower() in used:
        suffix = f" ({n})"
        name, n = base[:31 - len(suffix)] + suffix, n + 1
    used.add(name.lower())
    return name


def to_excel(b: dict) -> bytes:
    """The book's tables as a workbook, in the book's language (Chinese, as its PDF)."""
    tables = [("封面", ["项目", "内容"], [
        ["比赛", b["games"].name_zh], ["地点", b["definition"].venue.zh if b["definition"].venue else ""],
        ["日期", f"{b['definition'].dates.start} 至 {b['definition'].dates.end}"], ["生成时间", b["made"]]]
        + [[c.role.zh, _contact_text(c)] for c in b["definition"].contacts])]
    if b["schedule"]:
        tables.append(("日程", ["项目", "开始", "结束"], [list(r) for r in b["schedule"]]))
    rows = []
    for d in b["delegations"]:
        rows += [[d["unit"], role, name, ""] for role, name in d["officials"] + d["staff"]]
        rows += [[d["unit"], "运动员", name, gender] for name, gender in d["athletes"]]
    tables.append(("代表团", ["单位", "身份", "姓名", "性别"], rows))
    used = set()
    for code, label in b["events"]:
        if b["per_event"][code]:
            tables.append((sheet_name(label, used), ["序号", "姓名", "性别", "单位", "队", "台次"], b["per_event"][code]))
    tables.append(("统计", ["单位"] + [label for _c, label in b["events"]] + ["运动员"], b["counts"]))
    return to_xlsx_sheets(tables)


def to_pdf(b: dict) -> bytes:
    from reportlab.lib import colors
    from reportlab.lib.pagesizes import A4
    from reportlab.lib.styles import ParagraphStyle
    from reportlab.lib.units import mm
    from reportlab.platypus import PageBreak, Paragraph, SimpleDocTemplate, Spacer, Table, TableStyle
    font = chinese_font()
    title = ParagraphStyle("t", fontName=font, fontSize=26, leading=34, alignment=1)
    h1 = ParagraphStyle("h1", fontName=font, fontSize=16, leading=22, spaceBefore=6, spaceAfter=6)
    h2 = ParagraphStyle("h2", fontName=font, fontSize=12, leading=16, spaceBefore=8, spaceAfter=3)
    body = ParagraphStyle("b", fontName=font, fontSize=9.5, leading=13)
    grid = TableStyle([("FONT", (0, 0), (-1, -1), font, 8.5), ("GRID", (0, 0), (-1, -1), 0.3, colors.grey),
                       ("BACKGROUND", (0, 0), (-1, 0), colors.HexColor("#eeeeee")), ("VALIGN", (0, 0), (-1, -1), "TOP")])
    g, definition = b["games"], b["definition"]
    story = [Spacer(1, 60 * mm), Paragraph(g.name_zh, title), Spacer(1, 8 * mm),
             Paragraph("秩 序 册", title), Spacer(1, 30 * mm),
             Paragraph(f"{definition.venue.zh if definition.venue else ''}　{definition.dates.start} 至 {definition.dates.end}",
                       ParagraphStyle("c", parent=body, alignment=1, fontSize=12)),
             Spacer(1, 4 * mm), Paragraph(f"生成时间 {b['made']}（北京时间）", ParagraphStyle("m", parent=body, alignment=1)),
             PageBreak()]
    if definition.contacts:
        story += [Paragraph("组委会联系方式", h1),
                  Table([["事项", "联系人及方式"]] + [[c.role.zh, Paragraph(_contact_text(c), body)]
                                                   for c in definition.contacts],
                        style=grid, colWidths=[40 * mm, 130 * mm]), Spacer(1, 8 * mm)]
    if b["schedule"]:
        story += [Paragraph("竞赛日程", h1), Table([["项目", "开始", "结束"]] + [list(r) for r in b["schedule"]],
                                               style=grid, repeatRows=1), PageBreak()]
    elif definition.contacts:
        story.append(PageBreak())
    story.append(Paragraph("参赛代表团名单", h1))
    for d in b["delegations"]:
        story.append(Paragraph(d["unit"], h2))
        for role, name in d["officials"] + d["staff"]:
            story.append(Paragraph(f"{role}：{name}", body))
        if d["athletes"]:
            story.append(Paragraph("运动员：" + "、".join(f"{n}（{gd}）" if gd else n for n, gd in d["athletes"]), body))
    story += [PageBreak(), Paragraph("各项目参赛名单", h1)]
    for code, label in b["events"]:
        rows = b["per_event"][code]
        if not rows:
            continue
        story += [Paragraph(f"{label}（{len(rows)}）", h2),
                  Table([["序号", "姓名", "性别", "单位", "队", "台次"]] + rows, style=grid, repeatRows=1,
                        colWidths=[14 * mm, 32 * mm, 12 * mm, 50 * mm, 16 * mm, 14 * mm])]
    story += [PageBreak(), Paragraph("报名人数统计", h1)]
    header = ["单位"] + [label for _c, label in b["events"]] + ["运动员"]
    used = [i for i in range(1, len(header) - 1) if any(r[i] for r in b["counts"])]
    # The page holds the unit's column and eight events: wider tables are cut into parts of
    # eight events each (the athletes' total with the last), headings wrapped, never off the page.
    head = ParagraphStyle("th", parent=body, fontSize=7.5, leading=9)
    per_part = 8
    parts = [used[i:i + per_part] for i in range(0, len(used), per_part)] or [[]]
    for k, part in enumerate(parts):
        cols = [0] + part + ([len(header) - 1] if k == len(parts) - 1 else [])
        widths = [40 * mm] + [(180 - 40) * mm / max(len(cols) - 1, 1)] * (len(cols) - 1)
        story += [Table([[Paragraph(str(header[i]), head) for i in cols]] + [[r[i] for i in cols] for r in b["counts"]],
                        style=grid, repeatRows=1, colWidths=widths), Spacer(1, 5 * mm)]
    out = io.BytesIO()

    def footer(canvas, doc):
        canvas.setFont(font, 8)
        canvas.drawRightString(A4[0] - 15 * mm, 10 * mm, f"{g.name_zh} 秩序册 · 第 {doc.page} 页 · 生成于 {b['made']}")
    SimpleDocTemplate(out, pagesize=A4, initialFontName=font, leftMargin=15 * mm, rightMargin=15 * mm, topMargin=15 * mm,
                      bottomMargin=18 * mm, title=f"{g.name_zh} 秩序册").build(story, onFirstPage=footer,
                                                                            onLaterPages=footer)
    return out.getvalue()


@job_kind("programme_book")
def programme_book(job, progress):
    games = games_of(job)
    progress(0, 3, force=True)
    b = book(games)
    progress(1, 3, force=True)
    if job.params.get("fmt") == "xlsx":
        content, ext, mime = to_excel(b), "xlsx", "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"
    else:
        content, ext, mime = to_pdf(b), "pdf", "application/pdf"
    progress(3, 3, force=True)
    return content, f"{games.slug}-programme.{ext}", mime
