"""The delegation as a file and back: the JSON document and the Excel entry form to
download, and an upload of either, shown as its changes before anything is saved."""
from __future__ import annotations

import json
from io import BytesIO

from flask import abort, flash, redirect, send_file, session, url_for

from ..access.guards import delegation_view
from ..privacy import mask_id, masked_document, record_access, sees_full_ids
from ..roles import STAFF
from ..rules import parse_document
from ..rules.violations import dedupe
from ..translation import gettext as _
from ..web import is_en
from . import diff
from .blueprint import bp
from .excel import write_workbook
from .forms import ConfirmForm, FileUploadForm
from .services import export_document, judge
from .uploads import forget_pending, keep_pending, pending, read_upload
from .workspace import EDITORS, Workspace, refusal_text, render, save_edit, sees_other_delegations

PENDING_KEPT = 5  # uploads a session may have waiting for confirmation


def _exported(d, doc: dict, what: str) -> dict:
    """The document as this reader may take it away: full identity numbers (and a record of
    the export) for the leader and the organisers, masked for anyone else."""
    if not sees_full_ids():
        return masked_document(doc)
    record_access("personal_data.export", [(p["ref"], p["name"]) for p in doc["people"]], delegation=d, what=what)
    return doc


@bp.get("/<int:delegation_id>/document.json")
@delegation_view(*STAFF)
def download_json(d):
    data = json.dumps(_exported(d, export_document(d), "document.json"), ensure_ascii=False, indent=2).encode("utf-8")
    name = f"{d.games.slug}-{d.unit_code or d.id}.json"
    return send_file(BytesIO(data), mimetype="application/json", as_attachment=True, download_name=name)


@bp.get("/<int:delegation_id>/entry-form.xlsx")
@delegation_view(*STAFF)
def download_excel(d):
    ws = Workspace(d)
    data = write_workbook(ws.definition, _exported(d, ws.doc, "entry-form.xlsx"), en=is_en())
    name = f"{d.games.slug}-{d.unit_code or d.id}-{'entry-form' if is_en() else '报名表'}.xlsx"
    return send_file(BytesIO(data), as_attachment=True, download_name=name,
                     mimetype="application/vnd.openxmlformats-officedocument.spreadsheetml.sheet")


@bp.route("/<int:delegation_id>/upload", methods=["GET", "POST"])
@delegation_view(*EDITORS)
def upload(d):
    """Upload the Excel entry form or a JSON document: read, validate, show the differences;
    nothing is written until the leader confirms."""
    ws = Workspace(d)
    form = FileUploadForm()
    if not form.validate_on_submit():
        return render("workspace/upload.html", ws, form=form, upload_problems=None)
    name = form.file.data.filename or ""
    new_doc, problems = read_upload(form.file.data.read(), name, ws.definition, ws.doc, d.games.slug, d.unit_code,
                                    is_en())
    if problems:
        return render("workspace/upload.html", ws, form=form, upload_problems=problems), 422
    changes = diff.changes(ws.doc, new_doc, {code: (ws.event_label(code),) * 2 for code in ws.events},
                           en=is_en(), show_id=lambda n: n if sees_full_ids() else mask_id(n))
    if not changes:
        return render("workspace/upload_review.html", ws, changes=[], preview=[], confirm=None, filename=name)
    token = keep_pending(d.id, new_doc, name)
    session["pending_uploads"] = (session.get("pending_uploads", []) + [token])[-PENDING_KEPT:]
    parsed, _schema = parse_document(new_doc)
    preview = dedupe(judge(d.games, parsed, ws.at, exclude_delegation_id=d.id, reveal=sees_other_delegations()))
    confirm = ConfirmForm(formdata=None, token=token, version=d.version)
    return render("workspace/upload_review.html", ws, changes=changes, preview=preview,
                  confirm=confirm, filename=name, hide_saved_problems=True)


@bp.post("/<int:delegation_id>/upload/confirm")
@delegation_view(*EDITORS)
def confirm_upload(d):
    form = ConfirmForm()
    if not form.validate_on_submit():
        abort(400)
    token = form.token.data or ""
    kept = pending(token) if token in session.get("pending_uploads", []) else None
    if kept is None:
        flash(_("上传已过期，请重新上传。"), "error")
        return redirect(url_for(".upload", delegation_id=d.id))
    if kept["delegation_id"] != d.id:
        abort(404)
    out = save_edit(d, lambda _stored: kept["document"], form.version.data, _("已按上传的文件更新报名。"))
    if out is not None:
        flash(refusal_text(out), "error")
        return redirect(url_for(".upload", delegation_id=d.id))
    forget_pending(token)
    session["pending_uploads"] = [t for t in session.get("pending_uploads", []) if t != token]
    return redirect(url_for("workflow.dashboard", delegation_id=d.id))
