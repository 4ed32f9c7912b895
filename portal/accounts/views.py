"""Log in and out, change a password, accept an invitation, create leader accounts."""
from __future__ import annotations

from urllib.parse import urlparse

from ..web import is_en
from flask import Blueprint, abort, flash, redirect, render_template, request, url_for
from flask_babel import gettext as _
from flask_login import current_user, login_required, login_user, logout_user
from sqlalchemy import select

from ..audit.services import Actor
from ..extensions import db
from . import services
from .access import roles
from .forms import InvitationForm, LoginForm, NewLeaderForm, PasswordForm
from .models import User

bp = Blueprint("accounts", __name__)


def actor() -> Actor:
    return Actor(current_user.display_name + f" ({current_user.username})", user_id=current_user.id,
                 ip=request.remote_addr, role=current_user.role)


def _safe_next(target: str | None) -> str | None:
    if not target:
        return None
    parts = urlparse(target)
    return target if not parts.scheme and not parts.netloc and target.startswith("/") else None


@bp.route("/login", methods=["GET", "POST"])
def login():
    form = LoginForm()
    if form.validate_on_submit():
        user = services.authenticate(form.username.data, form.password.data)
        if user is None:
            flash(_("用户名或密码不对。"), "error")
        else:
            login_user(user)
            return redirect(_safe_next(request.args.get("next")) or url_for("home"))
    return render_template("accounts/login.html", form=form)


@bp.post("/logout")
@login_required
def logout():
    logout_user()
    flash(_("已退出登录。"), "info")
    return redirect(url_for("accounts.login"))


@bp.route("/password", methods=["GET", "POST"])
@login_required
def password():
    form = PasswordForm()
    if form.validate_on_submit():
        if services.authenticate(current_user.username, form.current.data) is None:
            form.current.errors.append(_("当前密码不对"))
        elif problem := services.password_problem(form.password.data):
            form.password.errors.append(problem[0] if not is_en() else problem[1])
        else:
            services.set_password(current_user, form.password.data, actor())
            flash(_("密码已修改。"), "success")
            return redirect(url_for("home"))
    return render_template("accounts/password.html", form=form)


@bp.route("/invite/<token>", methods=["GET", "POST"])
def invitation(token):
    user = services.user_for_invitation(token)
    if user is None:
        return render_template("accounts/invitation_invalid.html"), 404
    form = InvitationForm()
    if form.validate_on_submit():
        if problem := services.password_problem(form.password.data):
            form.password.errors.append(problem[0] if not is_en() else problem[1])
        else:
            services.set_password(user, form.password.data, Actor(user.display_name, user_id=user.id,
                                                                  ip=request.remote_addr))
            login_user(user)
            flash(_("密码已设置，欢迎使用。"), "success")
            return redirect(url_for("home"))
    return render_template("accounts/invitation.html", form=form, user=user)


@bp.route("/org/accounts", methods=["GET", "POST"])
@roles("organiser", "admin")
def leader_accounts():
    from ..games.models import Games, Unit
    from ..workflow.services import new_delegation
    from ..delegations.models import Delegation

    form = NewLeaderForm()
    all_games = db.session.scalars(select(Games).order_by(Games.slug)).all()
    form.games.choices = [(g.slug, g.name_zh) for g in all_games]
    form.unit.choices = [(u.code, f"{u.name_zh} ({u.code})") for u in db.session.scalars(select(Unit).order_by(Unit.kind, Unit.code))]
    link = None
    if form.validate_on_submit():
        games = next(g for g in all_games if g.slug == form.games.data)
        if db.session.scalar(select(User).where(User.username == form.username.data.strip())):
            form.username.errors.append(_("该用户名已被使用"))
        else:
            d = db.session.scalar(select(Delegation).where(Delegation.games_id == games.id,
                                                           Delegation.unit_code == form.unit.data))
            if d is None:
                d = new_delegation(games, form.unit.data)
                d.version = 1
                db.session.add(d)
                db.session.flush()
            user, token = services.create_account(form.username.data, form.display_name.data, "leader",
                                                  actor(), delegation=d)
            link = url_for("accounts.invitation", token=token, _external=True)
            flash(_("账号已创建。请把下面的一次性邀请链接交给领队（只显示这一次）。"), "success")
    leaders = db.session.scalars(select(User).where(User.role == "leader").order_by(User.username)).all()
    return render_template("accounts/leaders.html", form=form, leaders=leaders, link=link)


@bp.post("/org/accounts/<int:user_id>/invite")
@roles("organiser", "admin")
def reinvite(user_id):
    user = db.session.get(User, user_id)
    if user is None or user.role != "leader":
        abort(404)
    token = services.renew_invitation(user, actor())
    flash(_("新的一次性邀请链接：") + " " + url_for("accounts.invitation", token=token, _external=True), "success")
    return redirect(url_for("accounts.leader_accounts"))
