"""Exports for the competition: per-event entry lists (Excel and CSV) for the pairing
programs, delegation rosters, a summary of entries per unit and event.

No cell may be read as a formula: every sheet is written by portal/sheets.py."""
from __future__ import annotations

from sqlalchemy import select



from ..delegations.models import Delegation
from ..delegations.edit import entry_people
from ..delegations.services import export_document
from ..extensions import db
from ..games.models import Games, Unit
from ..games.services import definition_of

def _unit_label(d: Delegation, units: dict) -> str:
    if d.unit_code:
        return units.get(d.unit_code, d.unit_code)
    return d.unit_name or ""


def delegations_of(games: Games, include_drafts: bool = False) -> list[Delegation]:
    q = select(Delegation).where(Delegation.games_id == games.id, Delegation.status != "withdrawn")
    if not include_drafts:
        q = q.where(Delegation.status.in_(("submitted", "approved")))
    return db.session.scalars(q.order_by(Delegation.unit_code, Delegation.id)).all()


def entry_rows(games: Games, event: str, include_drafts: bool = False) -> tuple[list[str], list[list]]:
    """Who plays `event`. Where an entry counts only once its fee arrived (youth-gomoku-2015:
    "未收到报名材料和报名费均视为报名无效，不予编排"), unpaid delegations are left out."""
    from ..money.services import entry_valid
    definition = definition_of(games)
    show_rating = any(r.kind == "rating_exception" for r in definition.rules) or event.startswith("chess.")
    units = dict(db.session.execute(select(Unit.code, Unit.name_zh)).all())
    header = ["单位 unit", "单位代码 unit code", "姓名 name", "性别 gender", "出生日期 birth date", "队 team",
              "台次 board", "替补 reserve"] + (["等级分 FIDE rating"] if show_rating else [])
    rows = []
    for d in delegations_of(games, include_drafts):
        if entry_valid(d) is False:
            continue
        doc = export_document(d)
        people = {p["ref"]: p for p in doc["people"]}
        for e in doc["entries"]:
            if e["event"] != event:
                continue
            slots = e.get("lineup") if e.get("lineup") is not None else [{"person": r} for r in e.get("people") or []]
            for s in slots:
                p = people[s["person"]]
                row = [_unit_label(d, units), d.unit_code or "", p["name"], p.get("gender") or "",
                       p.get("birth_date") or "", e.get("team") or "" if e.get("lineup") is not None else "",
                       s.get("board") or "", "是" if s.get("reserve") else ""]
                if show_rating:
                    row.append((p.get("fide_rating") or {}).get("value") or "")
                rows.append(row)
    return header, rows


def roster_rows(games: Games, include_drafts: bool = True) -> tuple[list[str], list[list]]:
    from ..privacy import mask_id
    units = dict(db.session.execute(select(Unit.code, Unit.name_zh)).all())
    header = ["单位 unit", "姓名 name", "性别 gender", "出生日期 birth date", "证件号码 ID (masked)", "身份 roles", "状态 status"]
    rows = []
    for d in delegations_of(games, include_drafts):
        doc = export_document(d)
        from ..delegations.edit import roles_of
        for p in doc["people"]:
            rows.append([_unit_label(d, units), p["name"], p.get("gender") or "", p.get("birth_date") or "",
                         mask_id(p.get("id_number")), "、".join(roles_of(doc, p["ref"])), d.status])
    return header, rows


def summary_rows(games: Games, include_drafts: bool = True) -> tuple[list[str], list[list]]:
    definition = definition_of(games)
    units = dict(db.session.execute(select(Unit.code, Unit.name_zh)).all())
    codes = [e.code for e in definition.events]
    header = ["单位 unit", "状态 status"] + codes + ["运动员 athletes"]
    rows = []
    totals = [0] * len(codes)
    for d in delegations_of(games, include_drafts):
        doc = export_document(d)
        counts = []
        athletes = set()
        for i, code in enumerate(codes):
            refs = set()
            for e in doc["entries"]:
                if e["event"] == code:
                    refs.update(entry_people(e))
            counts.append(len(refs))
            totals[i] += len(refs)
            athletes |= refs
        rows.append([_unit_label(d, units), d.status] + counts + [len(athletes)])
    rows.append(["合计 total", ""] + totals + [sum(r[-1] for r in rows)])
    return header, rows
