"""Exports for the competition: per-event entry lists (Excel and CSV) for the pairing
programs, delegation rosters, a summary of entries per unit and event.

No cell may be read as a formula: every sheet is written by portal/sheets.py."""
from __future__ import annotations

from sqlalchemy import distinct, func, select

from ..delegations.models import Companion, Delegation, DelegationStatus, Entry, EntryMember, Official, Person, StaffMember
from ..extensions import db
from ..games.models import Games
from ..games.services import definition_of, unit_names
from ..money.services import entries_valid
from ..privacy import mask_id

GENDER = {"M": "男", "F": "女"}  # people read the lists; the header says 性别 gender


def _unit_label(d: Delegation, units: dict) -> str:
    if d.unit_code:
        return units.get(d.unit_code, d.unit_code)
    return d.unit_name or ""


def delegations_of(games: Games, include_drafts: bool = False) -> list[Delegation]:
    q = select(Delegation).where(Delegation.games_id == games.id, Delegation.status != DelegationStatus.WITHDRAWN)
    if not include_drafts:
        q = q.where(Delegation.status.in_(("submitted", "approved")))
    return db.session.scalars(q.order_by(Delegation.unit_code, Delegation.id)).all()


def _listed(games: Games, include_drafts: bool):
    """The delegation ids an export lists (a subquery): not withdrawn; drafts only if asked."""
    q = select(Delegation.id).where(Delegation.games_id == games.id, Delegation.status != DelegationStatus.WITHDRAWN)
    if not include_drafts:
        q = q.where(Delegation.status.in_(("submitted", "approved")))
    return q


def entry_rows(games: Games, event: str, include_drafts: bool = False) -> tuple[list[str], list[list]]:
    """Who plays `event`, from one query. Where an entry counts only once its fee arrived
    (youth-gomoku-2015: "未收到报名材料和报名费均视为报名无效，不予编排"), unpaid delegations
    are left out."""
    definition = definition_of(games)
    show_rating = any(r.kind == "rating_exception" for r in definition.rules) or event.startswith("chess.")
    units = unit_names()
    header = ["单位 unit", "单位代码 unit code", "姓名 name", "性别 gender", "出生日期 birth date", "队 team",
              "台次 board", "替补 reserve"] + (["等级分 FIDE rating"] if show_rating else [])
    listed = _listed(games, include_drafts)
    invalid = set()
    if definition.money.entry_valid_when_paid:
        invalid = {did for did, valid in entries_valid(games, list(delegations_of(games, include_drafts))).items()
                   if valid is False}
    q = (select(Delegation.id, Delegation.unit_code, Delegation.unit_name, Entry.team, Entry.is_lineup,
                EntryMember.board, EntryMember.reserve, Person.name, Person.gender, Person.birth_date,
                Person.fide_rating)
         .join(Entry, EntryMember.entry_id == Entry.id).join(Person, EntryMember.person_id == Person.id)
         .join(Delegation, Entry.delegation_id == Delegation.id)
         .where(Entry.event_code == event, Delegation.id.in_(listed))
         .order_by(Delegation.unit_code, Delegation.id, Entry.position, EntryMember.position))
    def rows():  # read as the export is written (yield_per: the driver fetches in batches)
        for (did, code, uname, team, is_lineup, board, reserve, name, gender, born, rating) in \
                db.session.execute(q.execution_options(yield_per=1000)):
            if did in invalid:
                continue
            row = [units.get(code, code) if code else (uname or ""), code or "", name, GENDER.get(gender, ""),
                   born.isoformat() if born else "", (team or "") if is_lineup else "", board or "",
                   "是" if reserve else ""]
            if show_rating:
                row.append(rating or "")
            yield row
    return header, rows()


def roster_rows(games: Games, include_drafts: bool = True) -> tuple[list[str], list[list]]:
    """Everyone of every listed delegation with his roles, from five queries."""
    units = unit_names()
    header = ["单位 unit", "姓名 name", "性别 gender", "出生日期 birth date", "证件号码 ID (masked)", "身份 roles", "状态 status"]
    listed = _listed(games, include_drafts)
    roles: dict[int, list[str]] = {}
    for person_id, event in db.session.execute(
            select(EntryMember.person_id, Entry.event_code).join(Entry, EntryMember.entry_id == Entry.id)
            .where(Entry.delegation_id.in_(listed)).order_by(Entry.position, Entry.id)):
        if event not in roles.setdefault(person_id, []):
            roles[person_id].append(event)
    for model in (Official, StaffMember):
        for person_id, role in db.session.execute(select(model.person_id, model.role)
                                                  .where(model.delegation_id.in_(listed))):
            roles.setdefault(person_id, []).append(role)
    for (person_id,) in db.session.execute(select(Companion.person_id).where(Companion.delegation_id.in_(listed))):
        roles.setdefault(person_id, []).append("companion")
    q = (select(Person.id, Person.name, Person.gender, Person.birth_date, Person.id_number, Delegation.unit_code,
                Delegation.unit_name, Delegation.status)
         .join(Delegation, Person.delegation_id == Delegation.id).where(Delegation.id.in_(listed))
         .order_by(Delegation.unit_code, Delegation.id, Person.position, Person.id))
    def rows():
        for pid, name, gender, born, number, code, uname, status in \
                db.session.execute(q.execution_options(yield_per=1000)):
            yield [units.get(code, code) if code else (uname or ""), name, GENDER.get(gender, ""),
                   born.isoformat() if born else "", mask_id(number), "、".join(roles.get(pid, [])), status]
    return header, rows()


def summary_rows(games: Games, include_drafts: bool = True) -> tuple[list[str], list[list]]:
    """Entrants per unit and event, from two grouped queries."""
    definition = definition_of(games)
    units = unit_names()
    codes = [e.code for e in definition.events]
    header = ["单位 unit", "状态 status"] + codes + ["运动员 athletes"]
    listed = _listed(games, include_drafts)
    per_event: dict[tuple[int, str], int] = {}
    for did, event, n in db.session.execute(
            select(Entry.delegation_id, Entry.event_code, func.count(distinct(EntryMember.person_id)))
            .join(EntryMember, EntryMember.entry_id == Entry.id).where(Entry.delegation_id.in_(listed))
            .group_by(Entry.delegation_id, Entry.event_code)):
        per_event[(did, event)] = n
    athletes = dict(db.session.execute(
        select(Entry.delegation_id, func.count(distinct(EntryMember.person_id)))
        .join(EntryMember, EntryMember.entry_id == Entry.id).where(Entry.delegation_id.in_(listed))
        .group_by(Entry.delegation_id)).all())
    rows = []
    totals = [0] * len(codes)
    for d in delegations_of(games, include_drafts):
        counts = [per_event.get((d.id, code), 0) for code in codes]
        totals = [t + c for t, c in zip(totals, counts)]
        rows.append([_unit_label(d, units), d.status] + counts + [athletes.get(d.id, 0)])
    rows.append(["合计 total", ""] + totals + [sum(r[-1] for r in rows)])
    return header, rows


def export_size(games: Games, include_drafts: bool = True) -> int:
    """Rows of the whole-Games workbook (for its progress bar): people, entrants, units."""
    from sqlalchemy import func
    listed = _listed(games, include_drafts)
    people = db.session.scalar(select(func.count()).select_from(Person).where(Person.delegation_id.in_(listed)))
    entrants = db.session.scalar(select(func.count()).select_from(EntryMember)
                                 .join(Entry, EntryMember.entry_id == Entry.id)
                                 .where(Entry.delegation_id.in_(listed)))
    units = db.session.scalar(select(func.count()).select_from(listed.subquery()))
    return (people or 0) + (entrants or 0) + (units or 0) + 1
