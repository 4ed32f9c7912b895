"""The audit log for the organising committee: who changed or looked at what, when, in
sentences, filtered by delegation, action, person and China dates."""
from __future__ import annotations

import datetime as dt
import json

from flask import render_template, request
from sqlalchemy import String, cast, or_, select

from ..access import scope
from ..access.guards import roles
from ..audit.models import AuditLog
from ..audit.sentences import action_label, details, sentence
from ..delegations.models import Delegation
from ..extensions import db
from ..games.models import Games, Unit
from ..ids import db_id
from ..roles import ORGANISERS
from ..rules.engine import CHINA
from ..web import is_en
from .blueprint import bp

ORG = ORGANISERS


AUDIT_PAGE = 100


@bp.get("/org/audit")
@roles(*ORG)
def audit():
    """The audit log, newest first, in sentences; filtered in SQL by delegation, action (or
    its family: "personal_data" finds every look and export), person (name or reference)
    and China dates."""
    q = select(AuditLog)
    visible = scope.visible_games()
    theirs = None
    if scope.visible_games_ids() is not None:
        # The staff of some Games read those Games' records only; an account's own records
        # (staff grants, the administrators' work) are the administrators'.
        theirs = or_(AuditLog.games_slug.in_([g.slug for g in visible] or [""]),
                     AuditLog.delegation_id.in_(select(Delegation.id).where(scope.games_clause(Delegation.games_id))))
        q = q.where(theirs)
    delegation_id = request.args.get("delegation", type=db_id)
    action = (request.args.get("action") or "").strip()[:60]
    person = (request.args.get("person") or "").strip()[:100]
    day_from, day_to = _china_day(request.args.get("from")), _china_day(request.args.get("to"))
    page = max(1, min(request.args.get("page", 1, type=int) or 1, 10_000))
    if delegation_id:
        q = q.where(AuditLog.delegation_id == delegation_id)
    if action:
        q = q.where(or_(AuditLog.action == action, AuditLog.action.startswith(action + ".")))
    if person:
        escaped = json.dumps(person)[1:-1]  # how the JSON columns spell a Chinese name
        like = [AuditLog.object_key.contains(person, autoescape=True)]
        for column in (AuditLog.before, AuditLog.after):
            like += [cast(column, String).contains(person, autoescape=True),
                     cast(column, String).contains(escaped, autoescape=True)]
        q = q.where(or_(*like))
    if day_from:
        q = q.where(AuditLog.at >= dt.datetime.combine(day_from, dt.time(), CHINA))
    if day_to:
        q = q.where(AuditLog.at < dt.datetime.combine(day_to + dt.timedelta(days=1), dt.time(), CHINA))
    rows = db.session.scalars(q.order_by(AuditLog.id.desc()).offset((page - 1) * AUDIT_PAGE)
                              .limit(AUDIT_PAGE + 1)).all()
    en = is_en()
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
    lines = [{"row": r, "text": sentence(r.action, r.actor, names.get(r.delegation_id, ""), r.object_key, en),
              "details": details(r.action, r.before, r.after, r.reason, en)} for r in rows[:AUDIT_PAGE]]
    kinds = select(AuditLog.action).distinct().order_by(AuditLog.action)
    # The filter lists the kinds of their own records only: another Games' are none of theirs.
    action_names = {a: action_label(a, en) for a in db.session.scalars(kinds if theirs is None else kinds.where(theirs))}
    return render_template("organiser/audit.html", lines=lines, delegation_id=delegation_id,
                           delegations=delegations, names=names, person=person, action=action,
                           actions=action_names, page=page, more=len(rows) > AUDIT_PAGE,
                           day_from=day_from, day_to=day_to)


def _china_day(value: str | None) -> dt.date | None:
    try:
        return dt.date.fromisoformat((value or "").strip()) if value else None
    except ValueError:
        return None
