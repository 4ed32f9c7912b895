"""The organising committee's pages: overview, delegations of a Games, the queue of what
waits, reviewing a delegation (approve, return with reasons, extension, withdrawal),
deciding substitutions. The audit log, the exports and self-registration are in their own
modules on the same blueprint."""
from __future__ import annotations

import datetime as dt
from decimal import Decimal

from flask import abort, flash, redirect, render_template, request, url_for
from flask_wtf import FlaskForm

from ..access import scope
from ..access.guards import delegation_view, roles
from ..audit.current import actor
from ..audit.sentences import details, sentence
from ..clock import now
from ..delegations.models import Delegation
from ..delegations.queries import delegation_units, files_by_person
from ..delegations.summary import summaries
from ..delegations.workspace import Workspace
from ..form_choices import options
from ..games.services import definition_of, unit_names
from ..money.services import account_status, entry_valid, totals, totals_by_delegation
from ..roles import ORGANISERS
from ..rules.engine import CHINA
from ..rules.stages import stage_name
from ..translation import gettext as _
from ..web import is_en, outcome_text
from . import audit_views, contact_views, export_views, joint_views, leader_views, queries, services, short_events  # noqa: F401  (their routes)
from .blueprint import bp
from .counts import delegation_counts
from .forms import DecisionForm, ExtensionForm, ReturnForm, WithdrawForm
from .joint import joint_card
from .models import PlaceStatus
from .review import _returnable_people, _roster, _stage_label

ORG = ORGANISERS


@bp.get("/org/")
@roles(*ORG)
def overview():
    at = now()
    games = scope.visible_games()
    rows = []
    for g in games:
        info, names = _stage_label(g, at)
        rows.append({"games": g, "counts": queries.delegations_by_status(g),
                     "pending": queries.pending_substitutions_count(g), "stage": names, "closes": info.closes,
                     "capacity": definition_of(g).capacity,
                     "accepted": queries.places_count(g, PlaceStatus.ACCEPTED),
                     "waiting": queries.places_count(g, PlaceStatus.WAITLISTED)})
    return render_template("organiser/overview.html", rows=rows, at=at)


@bp.get("/org/games/<slug>")
@roles(*ORG)
def games_view(slug):
    g = scope.games_or_404(slug)
    status = request.args.get("status") or ""
    delegations = queries.delegations_of(g, status)
    units = unit_names()
    counts = delegation_counts(g)  # three aggregate queries, whatever the number of delegations
    from . import overview
    at = now()
    errors = overview.errors_by_delegation(g, delegations, at)
    money = totals_by_delegation(g)
    rows = [{"d": d, "unit": units.get(d.unit_code, d.unit_name or d.unit_code or ""),
             **counts.get(d.id, {"people": 0, "athletes": 0, "events": 0}), "errors": errors.get(d.id),
             "payment": account_status(money[d.id]) if d.id in money else "nothing_due"} for d in delegations]
    by_status = queries.delegations_by_status(g)
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


@bp.post("/org/games/<slug>/events/<event>/tell-short")
@roles(*ORG)
def tell_short_event(slug, event):
    """Tell every delegation entered in an event the submitted entries leave short of the
    regulation's minimum (the overview's warning lists them)."""
    g = scope.games_or_404(slug)
    if not FlaskForm().validate_on_submit():
        abort(400)
    out = short_events.tell_short_event(g, event[:60], actor(), now())
    flash(outcome_text(out), "success" if out.ok else "error")
    return redirect(url_for(".games_view", slug=g.slug) + "#events-short")


@bp.get("/org/queue")
@roles(*ORG)
def queue():
    """What waits for a decision: submitted delegations and pending substitutions."""
    f_games, f_unit, f_event, f_kind = (request.args.get(k) or "" for k in ("games", "unit", "event", "kind"))
    items = []
    visible = scope.games_clause(Delegation.games_id)
    if f_kind in ("", "delegation"):
        waiting = queries.submitted_delegations(visible, f_games, f_unit, f_event)
        figures = {}
        for games_id in {d.games_id for d in waiting}:  # the stored summaries: judged only where they moved
            same = [d for d in waiting if d.games_id == games_id]
            figures.update(summaries(same[0].games, same, now()))
        for d in waiting:
            items.append({"kind": "delegation", "d": d, "at": d.submitted_at, "what": _("报名待审核"),
                          "summary": figures.get(d.id)})
    subs = queries.pending_substitutions(visible, f_games, f_unit, f_event) if f_kind in ("", "substitution") else []
    if f_kind in ("", "extension"):
        for req, d in queries.pending_extensions(visible, f_games, f_unit):
            label = stage_name(definition_of(d.games).stages, req.stage)[1 if is_en() else 0]
            items.append({"kind": "extension", "d": d, "at": req.requested_at, "req": req,
                          "what": _("申请延长“%(stage)s”：%(why)s", stage=label, why=req.reason)})
    all_games = scope.visible_games()
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
    items.sort(key=lambda i: i["at"] or dt.datetime.min.replace(tzinfo=dt.UTC))
    # The units to filter by: the delegations of the Games chosen (clubs too), not every province.
    delegations = delegation_units([g.id for g in chosen])
    names = unit_names("en" if en else "zh")
    units = sorted({(f"d{did}", names.get(code, name or code or "")) for did, code, name in delegations},
                   key=lambda u: u[1])
    return render_template("organiser/queue.html", items=items, all_games=all_games, units=units,
                           events=sorted(event_names.items(), key=lambda x: x[1][0]),
                           f={"games": f_games, "unit": f_unit, "event": f_event, "kind": f_kind},
                           decision=DecisionForm())


@bp.post("/org/extension-requests/<int:request_id>/decline")
@roles(*ORG)
def decline_extension(request_id):
    req, d = queries.extension_request(request_id) or abort(404)
    scope.require(d.games_id)
    if not DecisionForm().validate_on_submit():
        abort(400)
    _flash_outcome(services.decline_extension(req, request.form.get("reason") or "", actor()), _("已答复：不同意延期。"))
    return redirect(url_for(".queue"))


@bp.route("/org/d/<int:delegation_id>", methods=["GET"])
@delegation_view(*ORG, leader=False)
def review(d):
    ws = Workspace(d)
    ret = ReturnForm()
    ret.item.choices = options([("delegation:", _("整个报名"))] + _returnable_people(ws) +
                               [(f"event:{c}", ws.event_label(c)) for c in dict.fromkeys(e["event"] for e in ws.doc["entries"])])
    ext = ExtensionForm()
    wd = WithdrawForm()
    wd.event.choices = options([("", _("全部（整个报名退出）"))] +
                               [(c, ws.event_label(c)) for c in dict.fromkeys(e["event"] for e in ws.doc["entries"])])
    audit = queries.latest_changes(d)
    subs = queries.substitutions_of(d)
    # The documents a substitute came with, to look at before deciding.
    sub_files = files_by_person(d, [s.in_person.get("ref") for s in subs if s.in_person.get("ref")])
    extensions = services.extensions_of(d)
    en = is_en()
    unit = queries.unit_name(d, en)
    lines = [{"row": a, "text": sentence(a.action, a.actor, unit, a.object_key, en),
              "details": details(a.action, a.before, a.after, a.reason, en)} for a in audit]
    from ..notify.services import recipients_of
    contact = contact_views.ContactForm(email=d.contact_email)
    return render_template("organiser/review.html", ws=ws, d=d, doc=ws.doc, ret=ret, ext=ext, wd=wd,
                           contact=contact, recipients=recipients_of(d),
                           stage_label=lambda s: stage_name(ws.definition.stages, s)[1 if en else 0],
                           audit=lines, subs=subs, sub_files=sub_files, decision=DecisionForm(), approve_form=FlaskForm(),
                           extensions=extensions, money=totals(d), valid=entry_valid(d), roster=_roster(ws),
                           joint=joint_card(ws.definition, ws.violations, d.joint_with, en))


def _flash_outcome(out, ok_message):
    if out.ok:
        flash(ok_message, "success")
    else:
        flash(outcome_text(out, errors_only=True) or _("操作未完成。"), "error")


@bp.post("/org/d/<int:delegation_id>/approve")
@delegation_view(*ORG, leader=False)
def approve(d):
    if not FlaskForm().validate_on_submit():
        abort(400)
    _flash_outcome(services.approve(d, actor(), now()), _("已批准。"))
    return redirect(url_for(".review", delegation_id=d.id))


@bp.post("/org/d/<int:delegation_id>/return")
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


@bp.post("/org/d/<int:delegation_id>/extension")
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


@bp.post("/org/d/<int:delegation_id>/withdraw")
@delegation_view(*ORG, leader=False)
def withdraw(d):
    form = WithdrawForm()
    if not form.validate_on_submit():
        abort(400)
    out = services.withdraw(d, form.event.data or None, form.excused.data, actor(), now(), form.reason.data)
    _flash_outcome(out, outcome_text(out))
    return redirect(url_for(".review", delegation_id=d.id))


@bp.post("/org/substitutions/<int:sub_id>/<decision>")
@roles(*ORG)
def decide(sub_id, decision):
    form = DecisionForm()
    if not form.validate_on_submit() or decision not in ("approve", "reject"):
        abort(400)
    sub = queries.substitution(sub_id) or abort(404)
    scope.require(sub.delegation.games_id)
    out = services.decide_substitution(sub, decision == "approve", actor(), now(), form.reason.data)
    _flash_outcome(out, _("已批准更换。") if decision == "approve" else _("已驳回更换申请。"))
    return redirect(request.referrer if request.referrer and request.referrer.startswith(request.host_url)
                    else url_for(".queue"))
