"""An account's API tokens: made (shown once), listed, revoked."""
from __future__ import annotations

from flask import abort, current_app, flash, redirect, render_template, request, url_for
from flask_login import current_user, login_required
from flask_wtf import FlaskForm

from ..audit.current import actor
from ..translation import gettext as _
from ..web import is_en
from . import two_factor
from .api_tokens import MAX_DAYS, create_token, revoke_token, tokens_of
from .blueprint import bp
from .login_session import passed_second_factor
from .queries import own_token


@bp.route("/account/tokens", methods=["GET", "POST"])
@login_required
def api_tokens():
    user = current_user._get_current_object()
    made, problems = None, []
    if request.method == "POST":
        if not FlaskForm().validate_on_submit():
            abort(400)
        if two_factor.required_for(user, current_app.config["STAFF_TWO_FACTOR"]) and not passed_second_factor():
            abort(403)  # a token is made only from a session that passed both steps
        try:
            days = int(request.form.get("days") or 90)
        except ValueError:
            days = 0
        out = create_token(user, request.form.get("name", ""), request.form.get("scope", "read"), days, actor())
        if out.ok:
            made = out.details["token"]  # shown on this response only
        else:
            problems = [out.message[1] if is_en() else out.message[0]]
    return render_template("accounts/tokens.html", tokens=tokens_of(user), made=made, problems=problems,
                           max_days=MAX_DAYS, form=FlaskForm()), (422 if problems else 200)


@bp.post("/account/tokens/<int:token_id>/revoke")
@login_required
def revoke_api_token(token_id):
    if not FlaskForm().validate_on_submit():
        abort(400)
    row = own_token(token_id, current_user.id) or abort(404)
    revoke_token(row, actor())
    flash(_("令牌已作废，使用它的系统将无法再连接。"), "success")
    return redirect(url_for(".api_tokens"))
