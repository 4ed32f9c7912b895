"""The second step of a staff login: a code from the authenticator app (or a recovery
code), and enrolment at the first login (two_factor.py)."""
from __future__ import annotations

import time

from flask import flash, make_response, redirect, render_template, request, session, url_for
from flask_wtf import FlaskForm
from wtforms import StringField
from wtforms.validators import DataRequired, Length

from ..audit.services import Actor
from ..extensions import rate_limit
from ..games.models import machine_utcnow
from ..translation import gettext as _, lazy_gettext as _l
from . import queries, throttle, two_factor
from .blueprint import bp
from .login_session import remember_device, start_session
from .models import User

PENDING_SECONDS = 300  # the password step is good for five minutes


class CodeForm(FlaskForm):
    code = StringField(_l("验证码"), validators=[DataRequired(), Length(max=20)])


def _pending() -> tuple[dict, User] | tuple[None, None]:
    pending = session.get("pending_login")
    if not isinstance(pending, dict) or time.time() - pending.get("at", 0) > PENDING_SECONDS:
        session.pop("pending_login", None)
        return None, None
    user = queries.user(pending.get("user"))
    if user is None or not user.active or user.session_version != pending.get("version"):
        session.pop("pending_login", None)
        return None, None
    return pending, user


def _finish(pending: dict, user: User, response=None):
    """The session starts; the browser is remembered as this account's device."""
    session.pop("pending_login", None)
    start_session(user, second_factor=True)
    response = response or redirect(pending.get("next") or url_for("home"))
    remember_device(response, user, pending.get("device"))
    return response


def _actor(user: User) -> Actor:
    return Actor(f"{user.display_name} ({user.username})", user_id=user.id, ip=request.remote_addr, role=user.role)


@bp.route("/login/verify", methods=["GET", "POST"])
@rate_limit("RATE_LIMIT_LOGIN")
def second_factor():
    pending, user = _pending()
    if user is None:
        return redirect(url_for("accounts.login"))
    if not user.totp_secret:
        return redirect(url_for("accounts.enrol_second_factor"))
    form = CodeForm()
    if form.validate_on_submit():
        how, until = two_factor.attempt(user, form.code.data, request.remote_addr, pending.get("device"),
                                        _actor(user), machine_utcnow())
        if how is not None:
            if how == "recovery":
                flash(_("已用一个恢复码登录；剩余 %(n)d 个。用完之前请让管理员重置两步验证并重新绑定。",
                        n=len(user.recovery_codes or [])), "warning")
            return _finish(pending, user)
        if until is not None:
            form.code.errors.append(_("验证码连续输错次数过多，请在 %(n)d 分钟之后再试。",
                                      n=throttle.minutes_until(until)))
        else:
            form.code.errors.append(_("验证码不对或已用过，请输入验证器当前显示的 6 位数字，或一个恢复码。"))
    return render_template("accounts/second_factor.html", form=form, user=user)


@bp.route("/login/enrol", methods=["GET", "POST"])
@rate_limit("RATE_LIMIT_LOGIN")
def enrol_second_factor():
    pending, user = _pending()
    if user is None:
        return redirect(url_for("accounts.login"))
    if user.totp_secret:
        return redirect(url_for("accounts.second_factor"))
    secret = pending.get("secret")
    if not secret:
        secret = pending["secret"] = two_factor.new_secret()
        session["pending_login"] = pending
    form = CodeForm()
    if form.validate_on_submit():
        key = throttle.name_key(user.username)
        scope = throttle.client_scope(request.remote_addr, pending.get("device"))
        if throttle.blocked_until(key, scope, machine_utcnow()) is None:
            codes = two_factor.enable(user, secret, form.code.data, _actor(user), machine_utcnow())
            if codes is not None:
                page = make_response(render_template("accounts/recovery_codes.html", codes=codes,
                                                     next=pending.get("next") or url_for("home")))
                return _finish(pending, user, page)
        form.code.errors.append(_("验证码不对：请扫描二维码后输入验证器显示的 6 位数字。"))
    uri = two_factor.provisioning_uri(user, secret)
    return render_template("accounts/enrol.html", form=form, user=user, qr=two_factor.qr_svg(uri),
                           secret=" ".join(secret[i:i + 4] for i in range(0, len(secret), 4)))
