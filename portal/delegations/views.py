"""The delegation workspace: declarations, the delegation's own documents and the
regulation read back. People and documents, entries and roles, and the Excel and JSON
round trips are in their own modules on the same blueprint; the overview, submission,
extension requests and substitutions are the workflow's (workflow/leader_views.py).

Views are thin: load (the access decorator), build the new document with `edit`, call the
save, redirect or re-render with what was typed."""
from __future__ import annotations

from flask import abort, flash, redirect, request, url_for
from flask_wtf import FlaskForm

from ..access.guards import delegation_view
from ..audit.current import actor
from ..games.services import read_back_of, regulation_clauses
from ..roles import STAFF
from ..translation import gettext as _
from . import edit, entry_views, people_views, transfer_views  # noqa: F401  (their routes)
from .blueprint import bp
from .entry_form import declaration_counts
from .files import MAX_BYTES
from .forms import VersionedForm
from .saving import add_delegation_document
from .workspace import EDITORS, Workspace, conflict_page, refusal_text, render, save_edit

__all__ = ["bp"]


@bp.route("/<int:delegation_id>/declarations", methods=["GET", "POST"])
@delegation_view(*STAFF)
def declarations(d):
    ws = Workspace(d)
    form = VersionedForm()
    if request.method == "GET":
        typed = {x["event"]: str(x["count"]) for x in ws.doc["declarations"]}
        return render("workspace/declarations.html", ws, form=form, typed=typed)
    if not form.validate_on_submit():
        abort(400)
    counts, typed, bad = declaration_counts(request.form, [e.code for e in ws.definition.events])
    if bad:
        flash(_("人数须为 0 或正整数：") + "、".join(ws.event_label(code) for code in bad), "error")
    else:
        change = lambda doc: edit.set_declarations(doc, counts)
        out = save_edit(d, change, form.version.data, _("已保存报项。"), key=("declarations",))
        if out is None:
            return redirect(url_for(".declarations", delegation_id=d.id))
        flash(refusal_text(out), "error")
        shown = conflict_page(d, out, change)
        if shown:
            return render("workspace/declarations.html", shown[0], form=form, typed=typed, conflict=shown[1]), 409
    return render("workspace/declarations.html", Workspace(d), form=form, typed=typed)


@bp.post("/<int:delegation_id>/documents")
@delegation_view(*EDITORS)
def delegation_document(d):
    """A document of the delegation itself (the entry form with the unit's seal)."""
    if not FlaskForm().validate_on_submit():
        abort(400)
    upload = request.files.get("file")
    if upload is None or not upload.filename:
        flash(_("请选择文件"), "error")
    else:
        out = add_delegation_document(d, (request.form.get("kind") or "")[:40], upload.read(MAX_BYTES + 1),
                                               upload.filename, actor())
        flash(_("材料已上传。") if out.ok else refusal_text(out), "success" if out.ok else "error")
    return redirect(url_for("workflow.dashboard", delegation_id=d.id) + "#unit-documents")


@bp.get("/<int:delegation_id>/regulation")
@delegation_view(*STAFF)
def regulation(d):
    """The Games' rules in sentences, each with its clause: what the portal checks."""
    clauses, known_refs = regulation_clauses(d.games)
    return render("workspace/regulation.html", Workspace(d), read_back=read_back_of(d.games), clauses=clauses,
                  known_refs=known_refs)
