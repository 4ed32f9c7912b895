"""The leader's pages of the workflow, in his delegation's workspace (/d/<id>): the
overview with its submission, places and fees, the request for more time, and the
substitutions. The workspace frame and its forms are the delegation area's."""
from __future__ import annotations

from collections import Counter

from flask import abort, flash, redirect, request, url_for
from flask_login import current_user
from flask_wtf import FlaskForm

from ..access.guards import delegation_view
from ..audit.current import actor
from ..clock import now
from ..delegations import edit
from ..delegations.files import MAX_BYTES
from ..delegations.forms import SubstitutionForm, VersionedForm
from ..delegations.names import document_names_of
from ..delegations.saving import delegation_document_kinds
from ..delegations.tied_events import also_replaced
from ..delegations.workspace import EDITORS, Workspace, person_form, refusal_text, render
from ..form_choices import options
from ..money.services import entry_valid, totals
from ..outcome import Status
from ..roles import STAFF, Role
from ..translation import gettext as _
from ..web import time_left
from . import queries
from .blueprint import bp
from .models import SubstitutionStatus
from .services import request_extension, request_substitution, submit as submit_entry


@bp.get("/d/<int:delegation_id>")
@delegation_view(*STAFF)
def dashboard(d):
    ws = Workspace(d)
    rows = []
    for code in ws.shown_events():
        declared = next((x["count"] for x in ws.doc["declarations"] if x["event"] == code), 0)
        cap = ws.most_athletes(code)
        rows.append({"code": code, "declared": declared, "entered": len(ws.entrants(code)), "cap": cap,
                     "problems": len([v for v in ws.by_event(code) if v.is_error])})
    place, position = queries.place_of(d)
    amendments = queries.amendments(d.games_id)
    names = document_names_of(ws.definition)
    unit_documents = [(k, names.get(k, (k, k)), k in (d.documents or []))
                      for k in delegation_document_kinds(ws.definition)]
    return render("workspace/dashboard.html", ws, rows=rows, counts=Counter(v.code for v in ws.violations),
                  amendments=amendments, unit_documents=unit_documents, upload_form=FlaskForm(),
                  submit_form=VersionedForm(), time_left=time_left(ws.stage.closes, ws.at), money=totals(d),
                  valid=entry_valid(d), place=place, position=position)


@bp.post("/d/<int:delegation_id>/extension-request")
@delegation_view(*EDITORS)
def extension_request(d):
    """A leader whose stage has closed asks the organisers for more time."""
    if not FlaskForm().validate_on_submit():
        abort(400)
    ws = Workspace(d)
    out = request_extension(d, ws.stage.stage if ws.stage.stage != "closed" else "names",
                                     (request.form.get("reason") or "")[:1000], actor())
    flash(_("已向组委会申请延期，答复后会显示在这里。") if out.ok else refusal_text(out), "success" if out.ok else "error")
    return redirect(url_for(".dashboard", delegation_id=d.id))


@bp.post("/d/<int:delegation_id>/submit")
@delegation_view(*EDITORS)
def submit(d):
    if not VersionedForm().validate_on_submit():
        abort(400)
    out = submit_entry(d, actor(), now())
    if out.status == Status.SUBMITTED:
        flash(_("报名已提交，等待组委会审核。"), "success")
    elif out.status == Status.WAITLISTED:
        flash(_("名额已满，已列入候补名单。"), "warning")
    elif out.errors:
        flash(_("还有 %(n)d 个错误，不能提交。请先改正右侧列出的问题。", n=len(out.errors)), "error")
    else:
        flash(refusal_text(out), "error")
    return redirect(url_for(".dashboard", delegation_id=d.id))


@bp.route("/d/<int:delegation_id>/substitutions", methods=["GET", "POST"])
@delegation_view(*STAFF)
def substitutions(d):
    ws = Workspace(d)
    form = SubstitutionForm()
    form.event.choices = options((c, ws.event_label(c)) for c in dict.fromkeys(e["event"] for e in ws.doc["entries"]))
    entered = edit.athletes(ws.doc)
    form.out_ref.choices = options((r, ws.people[r]["name"]) for r in ws.people if r in entered)
    form.in_ref.choices = options([("", _("（新人员，填写下方信息）"))] + [(r, p["name"]) for r, p in ws.people.items()])
    new_person = person_form(ws.definition, prefix="new")
    if request.method == "POST" and current_user.role in (Role.LEADER, *EDITORS) and form.validate_on_submit():
        if form.in_ref.data:
            incoming = dict(ws.people[form.in_ref.data])
        elif new_person.name.data:
            incoming = new_person.to_person(edit.next_ref(ws.doc, "s"))
            if d.unit_code and not incoming.get("registration"):
                incoming["registration"] = None
        else:
            incoming = None
            flash(_("请选择或填写替换人员。"), "error")
        if incoming:
            out = request_substitution(d, form.event.data, form.out_ref.data, incoming,
                                                form.reason.data, actor(), now(), documents=_documents_sent(ws))
            if out.ok:
                flash(_("更换申请已提交，等待组委会批准。"), "success")
                also = also_replaced(ws.definition, ws.doc, form.event.data, form.out_ref.data)
                if also:
                    flash(_("按规程%(clause)s，%(name)s 在 %(events)s 中也将一并由 %(new)s 替换。",
                            clause=also[0][1], name=ws.people[form.out_ref.data]["name"],
                            events="、".join(ws.event_label(c) for c, _clause in also),
                            new=incoming.get("name") or ""), "info")
                return redirect(url_for(".substitutions", delegation_id=d.id))
            flash(refusal_text(out), "error")
    requests = queries.substitutions_of(d)
    also = {r.id: [ws.event_label(c) for c, _clause in also_replaced(ws.definition, ws.doc, r.event_code, r.out_ref)]
            for r in requests if r.status == SubstitutionStatus.PENDING}
    return render("workspace/substitutions.html", ws, form=form, person_form=new_person, requests=requests, also=also,
                  document_kinds=[(k, en if ws.en else zh) for k, (zh, en) in document_names_of(ws.definition).items()])


def _documents_sent(ws: Workspace) -> list[tuple[str, str, bytes]]:
    """The new person's documents sent with a substitution request: (kind, file name, bytes),
    each read to one byte beyond the limit, so that a bigger file is refused, not read whole."""
    sent = []
    for kind in document_names_of(ws.definition):
        f = request.files.get(f"document-{kind}")
        if f and f.filename:
            sent.append((kind, f.filename, f.read(MAX_BYTES + 1)))
    return sent


