"""The organising committee's pages: overview, delegations of a Games, the queue of what
waits, reviewing a delegation (approve, return with reasons, extension, withdrawal),
deciding substitutions, the audit log, exports."""
from __future__ import annotations

import datetime as dt
from decimal import Decimal
from io import BytesIO

from ..ids import db_id
from ..web import is_en, outcome_text
from flask import Blueprint, abort, flash, redirect, render_template, request, send_file, url_for
from flask_babel import gettext as _
from flask_babel import lazy_gettext as _l
from flask_wtf import FlaskForm
from sqlalchemy import func, select
from wtforms import BooleanField, DateTimeLocalField, SelectField, StringField, TextAreaField
from wtforms.validators import DataRequired, Length, Optional

from ..accounts.access import delegation_view, roles
from ..accounts.views import actor
from ..audit.models import AuditLog
from ..clock import now
from ..delegations.models import Delegation, DelegationStatus, Entry
from ..extensions import db
from ..games.models import Games, Unit
from ..games.services import definition_of, unit_names
from ..rules.engine import CHINA
from ..sheets import csv_chunks, to_xlsx
from . import export_jobs, exports, services  # noqa: F401  (export_jobs registers its job kind)
from .counts import delegation_counts
from .models import Place, Substitution
from .stages import stage_at, stage_name

bp = Blueprint("organiser", __name__, url_prefix="/org")
ORG = ("organiser", "admin")


class ReturnForm(FlaskForm):
    # Choices are built per delegation for the page; the service checks what comes back.
    item = SelectField(_l("涉及"), validators=[Optional()], validate_choice=False)
    reason = TextAreaField(_l("理由"), validators=[DataRequired(message=_l("请填写理由")), Length(max=1000)])


class ExtensionForm(FlaskForm):
    stage = SelectField(_l("阶段"), choices=[("declaration", _l("第一次报名")), ("names", _l("人员名单")),
                                          ("substitutions", _l("更换运动员"))])
    until = DateTimeLocalField(_l("延至（北京时间）"), format="%Y-%m-%dT%H:%M", validators=[DataRequired()])
    reason = StringField(_l("理由"), validators=[DataRequired(message=_l("请填写理由")), Length(max=500)])


class WithdrawForm(FlaskForm):
    event = SelectField(_l("项目"), validators=[Optional()], validate_choice=False)
    excused = BooleanField(_l("理由成立（不可抗力），不处罚"))
    reason = StringField(_l("说明"), validators=[Optional(), Length(max=1000)])


class DecisionForm(FlaskForm):
    reason = StringField(_l("理由"), validators=[Optional(), Length(max=1000)])


def _stage_label(games: Games, at):
    stages = definition_of(games).stages
    info = stage_at(stages, at)
    return info, stage_name(stages, info.stage)


@bp.get("/")
@roles(*ORG)
def overview():
    at = now()
    games = db.session.scalars(select(Games).order_by(Games.slug)).all()
    rows = []
    for g in games:
        counts = dict(db.session.execute(select(Delegation.status, func.count()).where(Delegation.games_id == g.id)
                                         .group_by(Delegation.status)).all())
        pending = db.session.scalar(select(func.count(Substitution.id)).join(Delegation).where(
            Delegation.games_id == g.id, Substitution.status == "pending"))
        info, names = _stage_label(g, at)
        rows.append({"games": g, "counts": counts, "pending": pending, "stage": names, "closes": info.closes,
                     "capacity": definition_of(g).capacity,
                     "accepted": db.session.scalar(select(func.count(Place.id)).where(
                         Place.games_id == g.id, Place.status == "accepted")),
                     "waiting": db.session.scalar(select(func.count(Place.id)).where(
                         Place.games_id == g.id, Place.status == "waitlisted"))})
    return render_template("organiser/overview.html", rows=rows, at=at)


@bp.get("/games/<slug>")
@roles(*ORG)
def games_view(slug):
    g = db.session.scalar(select(Games).where(Games.slug == slug)) or abort(404)
    status = request.args.get("status") or ""
    q = select(Delegation).where(Delegation.games_id == g.id)
    if status:
        q = q.where(Delegation.status == status)
    delegations = db.session.scalars(q.order_by(Delegation.unit_code, Delegation.id)).all()
    units = unit_names()
    counts = delegation_counts(g)  # three aggregate queries, whatever the number of delegations
    from ..money.services import account_status, totals_by_delegation
    from . import overview
    at = now()
    errors = overview.errors_by_delegation(g, delegations, at)
    money = totals_by_delegation(g)
    rows = [{"d": d, "unit": units.get(d.unit_code, d.unit_name or d.unit_code or ""),
             **counts.get(d.id, {"people": 0, "athletes": 0, "events": 0}), "errors": errors.get(d.id),
             "payment": account_status(money[d.id]) if d.id in money else "nothing_due"} for d in delegations]
    by_status = dict(db.session.execute(select(Delegation.status, func.count()).where(Delegation.games_id == g.id)
                                        .group_by(Delegation.status)).all())
    definition = definition_of(g)
    closes = definition.stages.names_closes
    until = at.astimezone(CHINA).date()
    deadline_day = (closes - dt.timedelta(microseconds=1)).astimezone(CHINA).date() if closes else None
    if deadline_day is not None:
        until = min(max(until, deadline_day), definition.dates.start)
    kpis = {"by_status": by_status, "delegations": sum(by_status.values()),
            "athletes": sum(r["athletes"] for r in rows),
            "with_errors": sum(1 for r in rows if r["errors"]),
            "expected": sum((t["expected"] for t in money.values()), start=Decimal("0.00")),
            "received": sum((t["payment"] for t in money.values()), start=Decimal("0.00"))}
    return render_template("organiser/games.html", g=g, rows=rows, status=status, events=definition.events,
                           kpis=kpis, per_event=overview.events_against_declared(g),
                           submitted=overview.submissions_by_day(g, until), paid=overview.payments_by_day(g, until),
                           deadline_day=deadline_day)


@bp.get("/queue")
@roles(*ORG)
def queue():
    """What waits for a decision: submitted delegations and pending substitutions."""
    f_games, f_unit, f_event, f_kind = (request.args.get(k) or "" for k in ("games", "unit", "event", "kind"))
    items = []
    if f_kind in ("", "delegation"):
        q = select(Delegation).where(Delegation.status == DelegationStatus.SUBMITTED)
        if f_games:
            q = q.join(Games).where(Games.slug == f_games)
        if f_unit:
            q = q.where(_unit_filter(f_unit))
        if f_event:
            q = q.where(Delegation.id.in_(select(Entry.delegation_id).where(Entry.event_code == f_event)))
        for d in db.session.scalars(q.order_by(Delegation.submitted_at)):
            items.append({"kind": "delegation", "d": d, "at": d.submitted_at, "what": _("报名待审核")})
    if f_kind in ("", "substitution"):
        q = select(Substitution).join(Delegation).where(Substitution.status == "pending")
        if f_games:
            q = q.join(Games, Delegation.games_id == Games.id).where(Games.slug == f_games)
        if f_unit:
            q = q.where(_unit_filter(f_unit))
        if f_event:
            q = q.where(Substitution.event_code == f_event)
        subs = db.session.scalars(q.order_by(Substitution.requested_at)).all()
    else:
        subs = []
    if f_kind in ("", "extension"):
        from .models import ExtensionRequest
        q = select(ExtensionRequest, Delegation).join(Delegation).where(ExtensionRequest.status == "pending")
        if f_games:
            q = q.join(Games, Delegation.games_id == Games.id).where(Games.slug == f_games)
        if f_unit:
            q = q.where(_unit_filter(f_unit))
        for req, d in db.session.execute(q.order_by(ExtensionRequest.requested_at)):  # one query for all
            label = stage_name(definition_of(d.games).stages, req.stage)[1 if is_en() else 0]
            items.append({"kind": "extension", "d": d, "at": req.requested_at, "req": req,
                          "what": _("申请延长“%(stage)s”：%(why)s", stage=label, why=req.reason)})
    all_games = db.session.scalars(select(Games).order_by(Games.slug)).all()
    chosen = [g for g in all_games if g.slug == f_games] or all_games
    event_names = {}
    for g in chosen:
        definition = definition_of(g)
        sports = {x.code: x for x in definition.sports}
        for e in definition.events:
            sport = sports.get(e.sport)
            event_names[e.code] = (f"{sport.name.zh if sport else ''}{e.name.zh}", f"{sport.name.en + ' ' if sport else ''}{e.name.en}")
    en = is_en()
    for s in subs:
        label = event_names.get(s.event_code, (s.event_code, s.event_code))[1 if en else 0]
        items.append({"kind": "substitution", "d": s.delegation, "at": s.requested_at, "sub": s,
                      "what": f"{label}：{s.out_name or s.out_ref} → {s.in_person.get('name', '')}"})
    items.sort(key=lambda i: i["at"] or dt.datetime.min.replace(tzinfo=dt.timezone.utc))
    # The units to filter by: the delegations of the Games chosen (clubs too), not every province.
    delegations = db.session.execute(
        select(Delegation.id, Delegation.unit_code, Delegation.unit_name)
        .where(Delegation.games_id.in_([g.id for g in chosen])).order_by(Delegation.unit_code, Delegation.unit_name)).all()
    names = unit_names("en" if en else "zh")
    units = sorted({(f"d{did}", names.get(code, name or code or "")) for did, code, name in delegations},
                   key=lambda u: u[1])
    return render_template("organiser/queue.html", items=items, all_games=all_games, units=units,
                           events=sorted(event_names.items(), key=lambda x: x[1][0]),
                           f=dict(games=f_games, unit=f_unit, event=f_event, kind=f_kind),
                           decision=DecisionForm())


@bp.post("/extension-requests/<int:request_id>/decline")
@roles(*ORG)
def decline_extension(request_id):
    from .models import ExtensionRequest
    req = db.session.get(ExtensionRequest, request_id) or abort(404)
    if not DecisionForm().validate_on_submit():
        abort(400)
    _flash_outcome(services.decline_extension(req, request.form.get("reason") or "", actor()), _("已答复：不同意延期。"))
    return redirect(url_for(".queue"))


def _unit_filter(value: str):
    """"d<id>" picks one delegation (a club has no unit code); else a unit code."""
    if value.startswith("d") and value[1:].isdigit() and len(value) < 12:
        return Delegation.id == int(value[1:])
    return Delegation.unit_code == value


@bp.route("/d/<int:delegation_id>", methods=["GET"])
@delegation_view(*ORG, leader=False)
def review(d):
    from ..delegations.views import Workspace
    ws = Workspace(d)
    ret = ReturnForm()
    ret.item.choices = [("delegation:", _("整个报名"))] + \
        [(f"person:{p['ref']}", p["name"]) for p in ws.doc["people"]] + \
        [(f"event:{c}", ws.event_label(c)) for c in dict.fromkeys(e["event"] for e in ws.doc["entries"])]
    ext = ExtensionForm()
    wd = WithdrawForm()
    wd.event.choices = [("", _("全部（整个报名退出）"))] + \
        [(c, ws.event_label(c)) for c in dict.fromkeys(e["event"] for e in ws.doc["entries"])]
    audit = db.session.scalars(select(AuditLog).where(AuditLog.delegation_id == d.id)
                               .order_by(AuditLog.id.desc()).limit(200)).all()
    subs = db.session.scalars(select(Substitution).where(Substitution.delegation_id == d.id)
                              .order_by(Substitution.id.desc())).all()
    extensions = services.extensions_of(d)
    from ..audit.sentences import details, sentence
    from ..money.services import entry_valid, totals
    en = is_en()
    unit = ws.d.unit_name if not ws.d.unit_code else None
    if unit is None:
        row = db.session.scalar(select(Unit).where(Unit.code == d.unit_code))
        unit = (row.name_en if en else row.name_zh) if row else d.unit_code
    lines = [{"row": a, "text": sentence(a.action, a.actor, unit, a.object_key, en),
              "details": details(a.action, a.before, a.after, a.reason, en)} for a in audit]
    return render_template("organiser/review.html", ws=ws, d=d, doc=ws.doc, ret=ret, ext=ext, wd=wd,
                           audit=lines, subs=subs, decision=DecisionForm(), approve_form=FlaskForm(),
                           extensions=extensions, money=totals(d), valid=entry_valid(d), roster=_roster(ws))


ROSTER_NAMES = 40


def _roster(ws) -> list[dict]:
    """The delegation at a glance for the reviewer: each event (or team) with its players,
    then officials and staff; long lists cut at ROSTER_NAMES names."""
    from ..delegations.edit import entry_people
    from ..delegations.views import role_name
    out = []
    for e in ws.doc["entries"]:
        refs = entry_people(e)
        label = ws.event_label(e["event"]) + (f" {e['team']}" if e.get("lineup") is not None and e.get("team") else "")
        out.append({"label": label, "names": [ws.label(r) for r in refs[:ROSTER_NAMES]], "count": len(refs)})
    for section in ("officials", "staff"):
        by_role: dict[str, list[str]] = {}
        for x in ws.doc.get(section) or []:
            by_role.setdefault(x["role"], []).append(ws.label(x["person"]))
        for role, names in by_role.items():
            out.append({"label": role_name(ws, role), "names": names[:ROSTER_NAMES], "count": len(names)})
    return out


def _flash_outcome(out, ok_message):
    if out.ok:
        flash(ok_message, "success")
    else:
        flash(outcome_text(out, errors_only=True) or _("操作未完成。"), "error")


@bp.post("/d/<int:delegation_id>/approve")
@delegation_view(*ORG, leader=False)
def approve(d):
    if not FlaskForm().validate_on_submit():
        abort(400)
    _flash_outcome(services.approve(d, actor(), now()), _("已批准。"))
    return redirect(url_for(".review", delegation_id=d.id))


@bp.post("/d/<int:delegation_id>/return")
@delegation_view(*ORG, leader=False)
def return_(d):
    form = ReturnForm()
    if not form.validate_on_submit():
        flash(_("退回时须说明理由。"), "error")
        return redirect(url_for(".review", delegation_id=d.id))
    item_type, _sep, key = (form.item.data or "delegation:").partition(":")
    _flash_outcome(services.return_for_changes(d, actor(), [(item_type, key or None, form.reason.data)]),
                   _("已退回，领队会看到理由。"))
    return redirect(url_for(".review", delegation_id=d.id))


@bp.post("/d/<int:delegation_id>/extension")
@delegation_view(*ORG, leader=False)
def extension(d):
    form = ExtensionForm()
    if not form.validate_on_submit():
        flash(_("请填写延期时间和理由。"), "error")
        return redirect(url_for(".review", delegation_id=d.id))
    until = form.until.data.replace(tzinfo=CHINA)
    _flash_outcome(services.grant_extension(d, form.stage.data, until, form.reason.data, actor()),
                   _("已延期。"))
    return redirect(url_for(".review", delegation_id=d.id))


@bp.post("/d/<int:delegation_id>/withdraw")
@delegation_view(*ORG, leader=False)
def withdraw(d):
    form = WithdrawForm()
    if not form.validate_on_submit():
        abort(400)
    out = services.withdraw(d, form.event.data or None, form.excused.data, actor(), now(), form.reason.data)
    _flash_outcome(out, outcome_text(out))
    return redirect(url_for(".review", delegation_id=d.id))


@bp.post("/substitutions/<int:sub_id>/<decision>")
@roles(*ORG)
def decide(sub_id, decision):
    form = DecisionForm()
    if not form.validate_on_submit() or decision not in ("approve", "reject"):
        abort(400)
    sub = db.session.get(Substitution, sub_id) or abort(404)
    out = services.decide_substitution(sub, decision == "approve", actor(), now(), form.reason.data)
    _flash_outcome(out, _("已批准更换。") if decision == "approve" else _("已驳回更换申请。"))
    return redirect(request.referrer if request.referrer and request.referrer.startswith(request.host_url)
                    else url_for(".queue"))


AUDIT_PAGE = 100


@bp.get("/audit")
@roles(*ORG)
def audit():
    """The audit log, newest first, in sentences; filtered in SQL by delegation, action (or
    its family: "personal_data" finds every look and export), person (name or reference)
    and China dates."""
    import json as _json

    from sqlalchemy import String, cast, or_

    from ..audit.sentences import action_label, details, sentence
    q = select(AuditLog)
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
        escaped = _json.dumps(person)[1:-1]  # how the JSON columns spell a Chinese name
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
        .where(or_(Delegation.unit_kind.is_(None), Delegation.unit_kind != "individual"))
        .order_by(Games.slug, Delegation.unit_code, Delegation.id)).all()
    names = {did: units.get(code, code) if code else (name or "") for did, code, name, _slug in delegations}
    missing = {r.delegation_id for r in rows if r.delegation_id and r.delegation_id not in names}
    if missing:  # individual registrations on this page: their names, in one query
        names.update({did: name or "" for did, name in db.session.execute(
            select(Delegation.id, Delegation.unit_name).where(Delegation.id.in_(missing)))})
    lines = [{"row": r, "text": sentence(r.action, r.actor, names.get(r.delegation_id, ""), r.object_key, en),
              "details": details(r.action, r.before, r.after, r.reason, en)} for r in rows[:AUDIT_PAGE]]
    action_names = {a: action_label(a, en)
                    for a in db.session.scalars(select(AuditLog.action).distinct().order_by(AuditLog.action))}
    return render_template("organiser/audit.html", lines=lines, delegation_id=delegation_id,
                           delegations=delegations, names=names, person=person, action=action,
                           actions=action_names, page=page, more=len(rows) > AUDIT_PAGE,
                           day_from=day_from, day_to=day_to)


def _china_day(value: str | None) -> dt.date | None:
    try:
        return dt.date.fromisoformat((value or "").strip()) if value else None
    except ValueError:
        return None


@bp.post("/games/<slug>/export/workbook")
@roles(*ORG)
def export_job(slug):
    """The whole-Games workbook, made in the background: the organiser follows its progress."""
    from ..jobs.views import start
    g = db.session.scalar(select(Games).where(Games.slug == slug)) or abort(404)
    return start("games_workbook", {"games": g.slug, "drafts": request.form.get("drafts") == "1"},
                 _("%(name)s 整届报名表", name=g.name_en if is_en() else g.name_zh))


@bp.get("/games/<slug>/export/<kind>.<fmt>")
@roles(*ORG)
def export(slug, kind, fmt):
    g = db.session.scalar(select(Games).where(Games.slug == slug)) or abort(404)
    drafts = request.args.get("drafts") == "1"
    if kind not in ("summary", "roster") and kind not in {e.code for e in definition_of(g).events}:
        abort(404)
    if fmt not in ("csv", "xlsx"):
        abort(404)
    if fmt == "csv":
        # Rows streamed from one query as the client takes the CSV: the stream reads them
        # in an app context of its own, after this view has returned.
        from urllib.parse import quote

        from flask import Response, current_app
        app = current_app._get_current_object()

        def stream():
            # The first chunk needs no database: a WSGI server (or test client) may take it
            # while the request's context is still open, the rest after it has closed.
            yield "\ufeff".encode("utf-8")
            with app.app_context():
                games = db.session.get(Games, g.id)
                yield from csv_chunks(*_export_rows(games, kind, drafts), bom=False)
        return Response(stream(), mimetype="text/csv",
                        headers={"Content-Disposition": f"attachment; filename*=UTF-8''{quote(f'{slug}-{kind}.csv')}"})
    return send_file(BytesIO(to_xlsx(kind, *_export_rows(g, kind, drafts))), as_attachment=True,
                     download_name=f"{slug}-{kind}.xlsx",
                     mimetype="application/vnd.openxmlformats-officedocument.spreadsheetml.sheet")


def _export_rows(g, kind: str, drafts: bool):
    if kind == "summary":
        return exports.summary_rows(g, drafts)
    if kind == "roster":
        return exports.roster_rows(g, drafts)
    return exports.entry_rows(g, kind, drafts)
