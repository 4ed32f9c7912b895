"""Reading the audit log for the organisers' page: one page of records filtered in SQL, the
delegations' names they mention and the kinds of record there are (a fixed number of
queries per page)."""
from __future__ import annotations

import datetime as dt
import json
from dataclasses import dataclass

from sqlalchemy import String, cast, or_, select

from ..access import scope
from ..audit.models import AuditLog
from ..delegations.models import Delegation
from ..extensions import db
from ..games.models import Games, Unit
from ..rules.engine import CHINA

AUDIT_PAGE = 100


@dataclass(frozen=True)
class AuditFilter:
    delegation_id: int | None = None
    action: str = ""  # a kind or its family: "personal_data" finds every look and export
    person: str = ""  # a name or a reference
    day_from: dt.date | None = None  # China dates
    day_to: dt.date | None = None


def _theirs():
    """The records the staff may read: those of their Games; None for administrators. An
    account's own records (staff grants, the administrators' work) are the administrators'."""
    if scope.visible_games_ids() is None:
        return None
    return or_(AuditLog.games_slug.in_([g.slug for g in scope.visible_games()] or [""]),
               AuditLog.delegation_id.in_(select(Delegation.id).where(scope.games_clause(Delegation.games_id))))


def _where(f: AuditFilter) -> list:
    where = []
    if f.delegation_id:
        where.append(AuditLog.delegation_id == f.delegation_id)
    if f.action:
        where.append(or_(AuditLog.action == f.action, AuditLog.action.startswith(f.action + ".")))
    if f.person:
        escaped = json.dumps(f.person)[1:-1]  # how the JSON columns spell a Chinese name
        like = [AuditLog.object_key.contains(f.person, autoescape=True)]
        for column in (AuditLog.before, AuditLog.after):
            like += [cast(column, String).contains(f.person, autoescape=True),
                     cast(column, String).contains(escaped, autoescape=True)]
        where.append(or_(*like))
    if f.day_from:
        where.append(AuditLog.at >= dt.datetime.combine(f.day_from, dt.time(), CHINA))
    if f.day_to:
        where.append(AuditLog.at < dt.datetime.combine(f.day_to + dt.timedelta(days=1), dt.time(), CHINA))
    return where


@dataclass
class AuditPage:
    rows: list[AuditLog]  # at most AUDIT_PAGE
    more: bool
    delegations: list  # (id, unit code, unit name, Games slug) to filter by
    names: dict[int, str]  # delegation id -> the unit's name in the reader's language
    actions: list[str]  # the kinds of the reader's own records


def audit_page(f: AuditFilter, page: int, en: bool) -> AuditPage:
    theirs = _theirs()
    q = select(AuditLog).where(*_where(f))
    if theirs is not None:
        q = q.where(theirs)
    rows = db.session.scalars(q.order_by(AuditLog.id.desc()).offset((page - 1) * AUDIT_PAGE)
                              .limit(AUDIT_PAGE + 1)).all()
    units = {u.code: (u.name_en if en else u.name_zh) for u in db.session.scalars(select(Unit))}
    delegations = db.session.execute(
        select(Delegation.id, Delegation.unit_code, Delegation.unit_name, Games.slug)
        .join(Games, Delegation.games_id == Games.id)
        .where(or_(Delegation.unit_kind.is_(None), Delegation.unit_kind != "individual"),
               scope.games_clause(Delegation.games_id))
        .order_by(Games.slug, Delegation.unit_code, Delegation.id)).all()
    names = {did: units.get(code, code) if code else (name or "") for did, code, name, _slug in delegations}
    missing = {r.delegation_id for r in rows if r.delegation_id and r.delegation_id not in names}
    if missing:  # individual registrations on this page: their names, in one query
        names.update({did: name or "" for did, name in db.session.execute(
            select(Delegation.id, Delegation.unit_name).where(Delegation.id.in_(missing)))})
    kinds = select(AuditLog.action).distinct().order_by(AuditLog.action)
    # The filter lists the kinds of their own records only: another Games' are none of theirs.
    actions = list(db.session.scalars(kinds if theirs is None else kinds.where(theirs)))
    return AuditPage(rows[:AUDIT_PAGE], len(rows) > AUDIT_PAGE, delegations, names, actions)
