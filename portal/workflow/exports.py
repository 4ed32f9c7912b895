"""Exports for the competition: per-event entry lists (Excel and CSV) for the pairing
programs, delegation rosters, a summary of entries per unit and event.

No cell may be read as a formula: every sheet is written by portal/sheets.py."""
from __future__ import annotations

from sqlalchemy import distinct, func, select

from ..delegations.models import Companion, Delegation, DelegationStatus, Entry, EntryMember, Official, Person, StaffMember
from ..delegations.names import ROLE_NAMES
from ..extensions import db
from ..games.models import Games
from ..games.services import definition_of, unit_names
from ..money.services import entries_valid
from ..privacy import mask_id
from ..text import Text

# Each list in its reader's language (`en`), the header and the words in the cells alike.
T = Text
GENDER = {"M": T("男", "M"), "F": T("女", "F")}
YES = T("是", "yes")
STATUS_NAMES = {"draft": T("草稿", "draft"), "submitted": T("已提交", "submitted"), "approved": T("已批准", "approved"),
                "returned": T("已退回", "returned"), "withdrawn": T("已退出", "withdrawn"),
                "waitlisted": T("候补", "wait-listed")}


def _words(texts, en: bool) -> list[str]:
    return [t.read(en) if isinstance(t, Text) else t for t in texts]


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


def entry_rows(games: Games, event: str, include_drafts: bool = False, en: bool = False) -> tuple[list[str], list[list]]:
    """Who plays `event`, from one query. Where an entry counts only once its fee arrived
    (youth-gomoku-2015: "未收到报名材料和报名费均视为报名无效，不予编排"), unpaid delegations
    are left out."""
    definition = definition_of(games)
    show_rating = any(r.kind == "rating_exception" for r in definition.rules) or event.startswith("chess.")
    units = unit_names("en" if en else "zh")
    header = _words([T("单位", "unit"), T("单位代码", "unit code"), T("姓名", "name"), T("性别", "gender"),
                     T("出生日期", "birth date"), T("队", "team"), T("台次", "board"), T("替补", "reserve")]
                    + ([T("等级分", "FIDE rating")] if show_rating else []), en)
    gender, yes = {k: v.read(en) for k, v in GENDER.items()}, YES.read(en)
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
        for (did, code, uname, team, is_lineup, board, reserve, name, gender_of, born, rating) in \
                db.session.execute(q.execution_options(yield_per=1000)):
            if did in invalid:
                continue
            row = [units.get(code, code) if code else (uname or ""), code or "", name, gender.get(gender_of, ""),
                   born.isoformat() if born else "", (team or "") if is_lineup else "", board or "",
                   yes if reserve else ""]
            if show_rating:
                row.append(rating or "")
            yield row
    return header, rows()


def roster_rows(games: Games, include_drafts: bool = True, en: bool = False) -> tuple[list[str], list[list]]:
    """Everyone of every listed delegation with his roles (events and duties by name), from five queries."""
    units = unit_names("en" if en else "zh")
    header = _words([T("单位", "unit"), T("姓名", "name"), T("性别", "gender"), T("出生日期", "birth date"),
                     T("证件号码（隐去部分）", "ID number (masked)"), T("身份", "roles"), T("状态", "status")], en)
    gender = {k: v.read(en) for k, v in GENDER.items()}
    names = {code: pair[1] if en else pair[0] for code, pair in ROLE_NAMES.items()}
    names.update({e.code: e.name.en if en else e.name.zh for e in definition_of(games).events})
    statuses = {k: v.read(en) for k, v in STATUS_NAMES.items()}
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
        for pid, name, gender_of, born, number, code, uname, status in \
                db.session.execute(q.execution_options(yield_per=1000)):
            yield [units.get(code, code) if code else (uname or ""), name, gender.get(gender_of, ""),
                   born.isoformat() if born else "", mask_id(number),
                   (", " if en else "、").join(names.get(r, r) for r in roles.get(pid, [])), statuses.get(status, status)]
    return header, rows()


def summary_rows(games: Games, include_drafts: bool = True, en: bool = False) -> tuple[list[str], list[list]]:
    """Entrants per unit and event (each a column under its code, as the lists call it), from two grouped queries."""
    definition = definition_of(games)
    units = unit_names("en" if en else "zh")
    codes = [e.code for e in definition.events]
    header = _words([T("单位", "unit"), T("状态", "status")] + codes + [T("运动员", "athletes")], en)
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
        rows.append([_unit_label(d, units), STATUS_NAMES[d.status].read(en)] + counts + [athletes.get(d.id, 0)])
    rows.append([T("合计", "total").read(en), ""] + totals + [sum(r[-1] for r in rows)])
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
