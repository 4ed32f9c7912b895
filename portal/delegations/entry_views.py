"""Entries and teams, and the officials, staff and companions of a delegation."""
from __future__ import annotations

from flask import abort, flash, redirect, request, url_for

from ..access.guards import delegation_view
from ..outcome import Status
from ..roles import STAFF
from ..translation import gettext as _
from . import edit
from .blueprint import bp
from .entry_form import MAX_TEAM_ROWS, individual_refs, role_rows, team_lineup
from .forms import VersionedForm
from .workspace import Workspace, conflict_page, refusal_text, render, row_count, save_edit, unknown_people_text

MAX_BASE_PEOPLE = 2000  # a national delegation's people, at most, were shown


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
        label = team.strip()[:20] or "A"
        change = lambda doc: edit.set_team(doc, code, label, [] if removed else lineup)
        key = ("team", code, label)
        done = _("已删除 %(event)s 的 %(team)s 队。", event=ws.event_label(code), team=team or "A") if removed \
            else _("已保存 %(event)s 的报名。", event=ws.event_label(code))
    else:
        refs, unknown = individual_refs(request.form, ws.people)
        base_people = request.form.get("base_people")
        if base_people is not None:  # what the form showed: its change is what was ticked off and added
            shown_before = [r for r in base_people.split(",")[:MAX_BASE_PEOPLE] if r]
            added, removed = [r for r in refs if r not in shown_before], set(shown_before) - set(refs)
            change = lambda doc: edit.change_individual(doc, code, added, removed)
            key = ("entrants", code)
        else:
            change = lambda doc: edit.set_individual(doc, code, refs)
            key = ("event", code)
        done = _("已保存 %(event)s 的报名。", event=ws.event_label(code))
    conflict = None
    if unknown:
        flash(unknown_people_text(unknown), "error")
        shown_ws = Workspace(d, doc=change(ws.doc))
    else:
        out = save_edit(d, change, form.version.data, done, key=key)
        if out is None:
            return redirect(url_for(".entries", delegation_id=d.id) + f"#event-{code.replace('.', '-')}")
        flash(refusal_text(out), "error")
        shown = conflict_page(d, out, change)
        if shown:
            shown_ws, conflict = shown
        elif out.status == Status.STALE:  # the whole page changed under it: show the latest
            return redirect(url_for(".entries", delegation_id=d.id))
        else:
            shown_ws = Workspace(d, doc=change(ws.doc))
    return render("workspace/entries.html", shown_ws, form=form, edit_event=code, edit_team=team,
                  conflict=conflict), 409


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
    change = lambda doc: edit.set_roles(doc, sections["official"], sections["staff"], sections["companion"])
    conflict = None
    if unknown:
        flash(unknown_people_text(unknown), "error")
        shown_ws = Workspace(d, doc=change(ws.doc))
    else:
        out = save_edit(d, change, form.version.data, _("已保存官员和随队人员。"), key=("roles",))
        if out is None:
            return redirect(url_for(".roles", delegation_id=d.id))
        flash(refusal_text(out), "error")
        shown = conflict_page(d, out, change)
        if shown:
            shown_ws, conflict = shown
        elif out.status == Status.STALE:
            return redirect(url_for(".roles", delegation_id=d.id))
        else:
            shown_ws = Workspace(d, doc=change(ws.doc))
    return render("workspace/roles.html", shown_ws, form=form, conflict=conflict), 409
