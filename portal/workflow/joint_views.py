"""The organisers admit an institution into a delegation's joint team (联队), or take it back."""
from __future__ import annotations

from flask import abort, flash, redirect, request, url_for
from flask_wtf import FlaskForm

from ..access.guards import delegation_view
from ..audit.current import actor
from ..roles import ORGANISERS
from ..translation import gettext as _
from ..web import is_en, outcome_text
from .blueprint import bp
from .joint import admit_joint_team, institution_names, withdraw_joint_team


def _fields() -> tuple[str, str, str]:
    if not FlaskForm().validate_on_submit():
        abort(400)
    institution = (request.form.get("institution") or "")[:100]
    return institution, institution_names([institution], is_en()).get(institution, ""), (request.form.get("reason") or "")[:1000]


@bp.post("/org/d/<int:delegation_id>/joint")
@delegation_view(*ORGANISERS, leader=False)
def admit_joint(d):
    institution, name, reason = _fields()
    out = admit_joint_team(d, institution, reason, actor())
    flash(_("已批准组成联队：%(name)s。", name=name) if out.ok else outcome_text(out), "success" if out.ok else "error")
    return redirect(url_for(".review", delegation_id=d.id) + "#joint")


@bp.post("/org/d/<int:delegation_id>/joint/withdraw")
@delegation_view(*ORGANISERS, leader=False)
def withdraw_joint(d):
    institution, name, reason = _fields()
    out = withdraw_joint_team(d, institution, reason, actor())
    flash(_("已撤销联队批准：%(name)s。", name=name) if out.ok else outcome_text(out), "success" if out.ok else "error")
    return redirect(url_for(".review", delegation_id=d.id) + "#joint")
