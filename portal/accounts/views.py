"""Log in and out, change a password, accept an invitation, create leader accounts."""
from __future__ import annotations

import secrets
import time

from flask import abort, current_app, flash, redirect, render_template, request, session, url_for
from flask_login import current_user, login_required, logout_user
from flask_wtf import FlaskForm

from ..access import scope
from ..access.guards import roles
from ..audit.current import actor
from ..audit.services import Actor
from ..clock import now
from ..extensions import login_limits, rate_limit
from ..form_choices import options
from ..games.queries import all_units
from ..games.services import definition_of
from ..links import external_url
from ..outcome import Refusal
from ..roles import ORGANISERS, Role
from ..rules.stages import stage_at
from ..translation import gettext as _
from ..web import is_en, outcome_text, safe_next
from . import queries, registration, second_factor_views, services, staff_views, throttle, token_views, two_factor  # noqa: F401  (their routes)
from .blueprint import bp
from .bulk import create_leader_accounts, read_lines
from .forms import InvitationForm, LoginForm, NewLeaderForm, NotificationsForm, PasswordForm
from .login_session import passed_second_factor, remember_device, start_session
from .models import User


@bp.route("/login", methods=["GET", "POST"])
@login_limits
def login():
    form = LoginForm()
    if request.method == "GET" and session.pop("timed_out", None):
        flash(_("登录已超时，请重新登录。"), "info")
    if form.validate_on_submit():
        result = services.attempt_login(form.username.data, form.password.data, request.remote_addr,
                                        device_cookie=request.cookies.get(throttle.DEVICE_COOKIE))
        if result.locked_until is not None:
            flash(_("密码连续输错次数过多，该账号在本设备上已暂时锁定，请在 %(n)d 分钟之后再试，或联系组委会解锁。",
                    n=throttle.minutes_until(result.locked_until)), "error")
        elif result.user is None:
            flash(_("用户名或密码不对。"), "error")
        elif two_factor.required_for(result.user, current_app.config["STAFF_TWO_FACTOR"]):
            # The password was right; the session starts only after the second factor.
            session["pending_login"] = {"user": result.user.id, "version": result.user.session_version,
                                        "at": time.time(), "device": result.device,
                                        "next": safe_next(request.args.get("next"), url_for("home"))}
            return redirect(url_for("accounts.second_factor"))
        else:
            start_session(result.user)
            response = redirect(safe_next(request.args.get("next"), url_for("home")))
            remember_device(response, result.user, result.device)
            return response
    open_games = []
    for g in queries.published_games():
        definition = definition_of(g)
        if definition.participation.individuals and not definition.participation.unit_kinds \
                and stage_at(definition.stages, now()).stage in ("declaration", "names"):
            open_games.append(g)
    return render_template("accounts/login.html", form=form, open_games=open_games)


@bp.post("/logout")
@login_required
def logout():
    services.logout_everywhere(current_user)  # ends this account's sessions on every device
    logout_user()
    flash(_("已退出登录。"), "info")
    return redirect(url_for("accounts.login"))


@bp.route("/password", methods=["GET", "POST"])
@login_required
@rate_limit("RATE_LIMIT_FORMS")
def password():
    form = PasswordForm()
    if form.validate_on_submit():
        if services.authenticate(current_user.username, form.current.data) is None:
            form.current.errors.append(_("当前密码不对"))
        elif problem := services.password_problem_for(current_user, form.password.data):
            form.password.errors.append(problem[0] if not is_en() else problem[1])
        else:
            user = current_user._get_current_object()
            services.set_password(user, form.password.data, actor())
            start_session(user, second_factor=passed_second_factor())  # this session goes on; every other one has ended
            flash(_("密码已修改，其他设备上的登录已退出。"), "success")
            return redirect(url_for("home"))
    return render_template("accounts/password.html", form=form)


@bp.route("/account/notifications", methods=["GET", "POST"])
@login_required
def notifications():
    """Where the portal writes to this person, and whether it sends deadline reminders."""
    user = current_user._get_current_object()
    form = NotificationsForm(obj=user) if request.method == "GET" else NotificationsForm()
    if form.validate_on_submit():
        out = services.set_notifications(user, form.email.data, bool(form.reminders.data), actor())
        if out.ok:
            flash(_("已保存通知设置。"), "success")
            return redirect(url_for("accounts.notifications"))
        form.email.errors = list(form.email.errors) + [outcome_text(out)]
    return render_template("accounts/notifications.html", form=form), (422 if form.errors else 200)


@bp.route("/invite/<token>", methods=["GET", "POST"])
@rate_limit("RATE_LIMIT_FORMS")
def invitation(token):
    user = services.user_for_invitation(token)
    if user is None:
        return render_template("accounts/invitation_invalid.html"), 404
    form = InvitationForm()
    if form.validate_on_submit():
        if problem := services.password_problem_for(user, form.password.data):
            form.password.errors.append(problem[0] if not is_en() else problem[1])
        else:
            who = Actor(user.display_name, user_id=user.id, ip=request.remote_addr)
            services.set_password(user, form.password.data, who)
            if form.email.data:
                services.set_email(user, form.email.data, who)
            flash(_("密码已设置，欢迎使用。"), "success")
            if two_factor.required_for(user, current_app.config["STAFF_TWO_FACTOR"]):
                # Staff enrol their authenticator before any page opens: the password
                # alone is not a staff session.
                session["pending_login"] = {"user": user.id, "version": user.session_version, "at": time.time(),
                                            "device": secrets.token_urlsafe(12), "next": url_for("home")}
                return redirect(url_for("accounts.enrol_second_factor"))
            start_session(user)
            return redirect(url_for("home"))
    return render_template("accounts/invitation.html", form=form, user=user)


def _new_leader_form() -> NewLeaderForm:
    form = NewLeaderForm()
    form.games.choices = options((g.slug, g.name_en if is_en() else g.name_zh) for g in scope.visible_games())
    form.unit.choices = options([("", "—")] + [(u.code, f"{u.name_zh} ({u.code})")
                                               for u in all_units()])
    return form


@bp.route("/org/accounts", methods=["GET", "POST"])
@roles(*ORGANISERS)
def leader_accounts():
    form = _new_leader_form()
    all_games = scope.visible_games()
    link = None
    if form.validate_on_submit():
        games = next(g for g in all_games if g.slug == form.games.data)
        try:
            user, token = services.create_leader(games, form.unit.data or None, form.club_name.data or "",
                                                 form.username.data, form.display_name.data, actor(),
                                                 email=form.email.data or None,
                                                 link=lambda token: external_url("accounts.invitation", token=token))
        except Refusal as refusal:
            getattr(form, refusal.field).errors.append(refusal.message[1] if is_en() else refusal.message[0])
        else:
            link = external_url("accounts.invitation", token=token)
    return _accounts_page(form, link)


@bp.route("/org/accounts/bulk", methods=["GET", "POST"])
@roles(*ORGANISERS)
def bulk_leaders():
    """Leader accounts for many units at once, each with its invitation link (shown once)."""
    all_games = scope.visible_games()
    form = FlaskForm()
    created, problems = None, []
    text = ""
    slug = request.values.get("games") or (all_games[0].slug if all_games else "")
    if request.method == "POST":
        if not form.validate_on_submit():
            abort(400)
        text = (request.form.get("lines") or "")[:100_000]
        games = next((g for g in all_games if g.slug == slug), None)
        upload = request.files.get("file")
        data = upload.read(2 * 1024 * 1024 + 1) if upload and upload.filename else None
        if games is None:
            problems = [_("请选择比赛。")]
        elif data is not None and len(data) > 2 * 1024 * 1024:
            problems = [_("文件太大（最多 2 MB）。")]
        else:
            lines, problems = read_lines(text, data, upload.filename if data else "")
            if not problems and not lines:
                problems = [_("没有可导入的行：每行写“单位代码或全称, 领队姓名[, 用户名]”。")]
            if not problems:
                created, problems = create_leader_accounts(games, lines, actor())
        for c in created or []:
            c["link"] = external_url("accounts.invitation", token=c["token"])
    return render_template("accounts/bulk.html", all_games=all_games, slug=slug, form=form, text=text,
                           created=created, problems=problems, days=services.INVITATION_DAYS), \
        (422 if problems else 200)


def _accounts_page(form, link=None):
    """The accounts page. An invitation link is shown on this response only: never put in
    a flash message, which would travel in the (signed, not encrypted) session cookie."""
    leaders = queries.leaders()
    return render_template("accounts/leaders.html", form=form, leaders=leaders, link=link,
                           waits=services.login_waits(leaders), action_form=FlaskForm())


def _leader_account(user_id) -> User:
    """A leader of a delegation of the Games this account serves; else nothing (404)."""
    user = queries.user(user_id)
    if user is None or user.role != Role.LEADER or user.delegation is None or not scope.may_see(user.delegation.games_id):
        abort(404)
    return user


def _managed_account(user_id) -> User:
    """A leader's account of one's own Games for organisers; any account, staff too, for
    administrators."""
    user = queries.user(user_id)
    if user is not None and user.role != Role.LEADER and current_user.role == Role.ADMIN:
        return user
    return _leader_account(user_id)


@bp.post("/org/accounts/<int:user_id>/invite")
@roles(*ORGANISERS)
def reinvite(user_id):
    if not FlaskForm().validate_on_submit():
        abort(400)
    user = _leader_account(user_id)
    token = services.renew_invitation(user, actor())
    return _accounts_page(_new_leader_form(), external_url("accounts.invitation", token=token))


@bp.post("/org/accounts/<int:user_id>/<action>")
@roles(*ORGANISERS)
def account_action(user_id, action):
    """Disable (ends every session at once), enable, or unlock after failed logins."""
    if not FlaskForm().validate_on_submit() or action not in ("disable", "enable", "unlock", "reset-2fa"):
        abort(400)
    user = _managed_account(user_id)
    if user.id == current_user.id and action in ("disable", "reset-2fa"):
        abort(400)  # the last way in must not be closed from inside
    if action == "reset-2fa":
        if current_user.role != Role.ADMIN or user.role == Role.LEADER:
            abort(404)
        two_factor.reset(user, actor())
        flash(_("已重置 %(name)s 的两步验证，其下次登录时需重新绑定验证器。", name=user.username), "success")
    elif action == "unlock":
        services.unlock(user, actor())
        flash(_("已解锁 %(name)s。", name=user.username), "success")
    else:
        services.set_active(user, action == "enable", actor())
        flash(_("已停用 %(name)s，其登录已全部退出。", name=user.username) if action == "disable"
              else _("已启用 %(name)s。", name=user.username), "success")
    return redirect(url_for("accounts.leader_accounts") if user.role == Role.LEADER else url_for("accounts.staff"))

