"""Entries and teams, and the officials, staff and companions of a delegation."""
from __future__ import annotations

from flask import abort, flash, redirect, request, url_for
from flask_babel import gettext as _

from ..accounts.access import delegation_view
from ..outcome import Status
from . import edit
from .blueprint import bp
from .entry_form import MAX_TEAM_ROWS, individual_refs, role_rows, team_lineup
from .forms import VersionedForm
from .workspace import STAFF, Workspace, refusal_text, render, row_count, save_edit, unknown_people_text


@bp.route("/<int:delegation_id>/entries", methods=["GET", "POST"])
@delegation_view(*STAFF)
def entries(d):
    ws = Workspace(d)
    form = VersionedForm()
    if request.method == "GET":
        return render("workspace/entries.html", ws, form=form, edit_event=(request.args.get("event") or "")[:40],
                      edit_team=(request.args.get("team") or "")[:20])
    if not form.validate_on_submit():
        abort(400)
    code = request.form.get("event")
    if code not in ws.events:
        abort(400)
    team = request.form.get("team") or ""
    if ws.events[code].is_team:
        lineup, unknown = team_lineup(request.form, ws.people, row_count("rows", MAX_TEAM_ROWS))
        removed = bool(request.form.get("remove"))
        new_doc = edit.set_team(ws.doc, code, team.strip()[:20] or "A", [] if removed else lineup)
        done = _("已删除 %(event)s 的 %(team)s 队。", event=ws.event_label(code), team=team or "A") if removed \
            else _("已保存 %(event)s 的报名。", event=ws.event_label(code))
    else:
        refs, unknown = individual_refs(request.form, ws.people)
        new_doc = edit.set_individual(ws.doc, code, refs)
        done = _("已保存 %(event)s 的报名。", event=ws.event_label(code))
    if unknown:
        flash(unknown_people_text(unknown), "error")
    else:
        out = save_edit(d, new_doc, form.version.data, done)
        if out is None:
            return redirect(url_for(".entries", delegation_id=d.id) + f"#event-{code.replace('.', '-')}")
        flash(refusal_text(out), "error")
        if out.status == Status.STALE:  # show the other tab's version, never silently overwrite it
            return redirect(url_for(".entries", delegation_id=d.id))
    return render("workspace/entries.html", Workspace(d, doc=new_doc), form=form, edit_event=code,
                  edit_team=team), 409


@bp.route("/<int:delegation_id>/roles", methods=["GET", "POST"])
@delegation_view(*STAFF)
def roles(d):
    ws = Workspace(d)
    form = VersionedForm()
    if request.method == "GET":
        return render("workspace/roles.html", ws, form=form)
    if not form.validate_on_submit():
        abort(400)
    unknown = []
    sections = {}
    for prefix, keys in (("official", ("person", "role", "sport")), ("staff", ("person", "role")),
                         ("companion", ("person", "accompanies"))):
        rows, missing = role_rows(request.form, ws.people, prefix, keys,
                                  row_count(f"{prefix}-rows", len(ws.people) + 10))
        sections[prefix] = rows
        unknown += missing
    new_doc = edit.set_roles(ws.doc, sections["official"], sections["staff"], sections["companion"])
    if unknown:
        flash(unknown_people_text(unknown), "error")
    else:
        out = save_edit(d, new_doc, form.version.data, _("已保存官员和随队人员。"))
        if out is None:
            return redirect(url_for(".roles", delegation_id=d.id))
        flash(refusal_text(out), "error")
        if out.status == Status.STALE:
            return redirect(url_for(".roles", delegation_id=d.id))
    return render("workspace/roles.html", Workspace(d, doc=new_doc), form=form), 409
