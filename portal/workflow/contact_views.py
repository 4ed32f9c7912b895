"""The organisers set where a delegation's mail goes when no leader account has an address."""
from __future__ import annotations

from flask import flash, redirect, url_for
from flask_wtf import FlaskForm
from wtforms import StringField
from wtforms.validators import Length, Optional

from ..access.guards import delegation_view
from ..audit.current import actor
from ..form_checks import EMAIL, stripped
from ..roles import ORGANISERS
from ..translation import gettext as _, lazy_gettext as _l
from ..web import outcome_text
from .blueprint import bp
from .contact import set_contact_email


class ContactForm(FlaskForm):
    email = StringField(_l("联系邮箱（没有领队账号收信时，邮件发到这里）"), validators=[Optional(), Length(max=200), EMAIL],
                        filters=[stripped])


@bp.post("/org/d/<int:delegation_id>/contact")
@delegation_view(*ORGANISERS, leader=False)
def contact(d):
    form = ContactForm()
    if not form.validate_on_submit():
        flash("；".join(str(e) for errs in form.errors.values() for e in errs) or _("请重新提交。"), "error")
    else:
        out = set_contact_email(d, form.email.data, actor())
        flash(_("已保存联系邮箱。") if out.ok else outcome_text(out), "success" if out.ok else "error")
    return redirect(url_for(".review", delegation_id=d.id) + "#contact")
