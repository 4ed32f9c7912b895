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
    from ..games.models import Games
    from ..games.services import definition_of
    from ..clock import now
    from ..workflow.stages import stage_at
    open_games = []
    for g in db.session.scalars(select(Games).order_by(Games.slug)):
        definition = definition_of(g)
        if definition.participation.individuals and not definition.participation.unit_kinds \
                and stage_at(definition.stages, now()).stage in ("declaration", "names"):
            open_games.append(g)
    return render_template("accounts/login.html", form=form, open_games=open_games)


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
    form.unit.choices = [("", "—")] + form.unit.choices
    if form.validate_on_submit():
        from ..games.services import definition_of
        games = next(g for g in all_games if g.slug == form.games.data)
        club = (form.club_name.data or "").strip()
        participation = definition_of(games).participation
        if db.session.scalar(select(User).where(User.username == form.username.data.strip())):
            form.username.errors.append(_("该用户名已被使用"))
        elif not club and not form.unit.data:
            form.unit.errors.append(_("请选择参赛单位，或填写俱乐部、学校等单位名称"))
        elif club and not participation.open_units:
            form.club_name.errors.append(_("本届比赛只接受规定的参赛单位"))
        else:
            q = select(Delegation).where(Delegation.games_id == games.id)
            q = q.where(Delegation.unit_name == club, Delegation.unit_code.is_(None)) if club else \
                q.where(Delegation.unit_code == form.unit.data)
            d = db.session.scalar(q)
            if d is None:
                d = new_delegation(games, {"name": club, "kind": "club"} if club else form.unit.data)
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
