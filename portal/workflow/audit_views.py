"""The audit log for the organising committee: who changed or looked at what, when, in
sentences, filtered by delegation, action, person and China dates."""
from __future__ import annotations

import datetime as dt

from flask import render_template, request

from ..access.guards import roles
from ..audit.sentences import action_label, details, sentence
from ..ids import db_id
from ..roles import ORGANISERS
from ..web import is_en
from .audit_queries import AuditFilter, audit_page
from .blueprint import bp

ORG = ORGANISERS


@bp.get("/org/audit")
@roles(*ORG)
def audit():
    """The audit log, newest first, in sentences; filtered in SQL by delegation, action (or
    its family: "personal_data" finds every look and export), person (name or reference)
    and China dates."""
    delegation_id = request.args.get("delegation", type=db_id)
    action = (request.args.get("action") or "").strip()[:60]
    person = (request.args.get("person") or "").strip()[:100]
    day_from, day_to = _china_day(request.args.get("from")), _china_day(request.args.get("to"))
    page = max(1, min(request.args.get("page", 1, type=int) or 1, 10_000))
    en = is_en()
    found = audit_page(AuditFilter(delegation_id, action, person, day_from, day_to), page, en)
    names = found.names
    delegations = found.delegations
    lines = [{"row": r, "text": sentence(r.action, r.actor, names.get(r.delegation_id, ""), r.object_key, en),
              "details": details(r.action, r.before, r.after, r.reason, en)} for r in found.rows]
    action_names = {a: action_label(a, en) for a in found.actions}
    return render_template("organiser/audit.html", lines=lines, delegation_id=delegation_id,
                           delegations=delegations, names=names, person=person, action=action,
                           actions=action_names, page=page, more=found.more,
                           day_from=day_from, day_to=day_to)


def _china_day(value: str | None) -> dt.date | None:
    try:
        return dt.date.fromisoformat((value or "").strip()) if value else None
    except ValueError:
        return None
