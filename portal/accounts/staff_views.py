"""The administrator's staff page: organisers and accountants, each with the Games they
serve; a new account gets a one-time invitation link, shown on that response only."""
from __future__ import annotations

from flask import abort, flash, redirect, render_template, request, url_for
from flask_wtf import FlaskForm

from ..access.guards import roles
from ..audit.current import actor
from ..form_choices import options
from ..games import queries as games_queries
from ..games.models import Games
from ..links import external_url
from ..outcome import Refusal
from ..roles import Role
from ..translation import gettext as _
from ..web import is_en
from . import queries, services
from .blueprint import bp
from .forms import NewStaffForm


def _form(all_games: list[Games]) -> NewStaffForm:
    form = NewStaffForm()
    form.role.choices = options([(Role.ORGANISER, _("组委会")), (Role.ACCOUNTANT, _("财务")), (Role.ADMIN, _("系统管理员"))])
    form.games.choices = options((g.slug, g.name_en if is_en() else g.name_zh) for g in all_games)
    return form


def _chosen(all_games: list[Games], slugs: list[str]) -> list[Games]:
    by_slug = {g.slug: g for g in all_games}
    return [by_slug[s] for s in dict.fromkeys(slugs) if s in by_slug]


def _page(form: NewStaffForm, all_games: list[Games], link: str | None = None, status: int = 200):
    staff, grants = queries.staff_and_grants()
    return render_template("accounts/staff.html", form=form, staff=staff, grants=grants, all_games=all_games,
                           link=link, waits=services.login_waits(staff), action_form=FlaskForm()), status


@bp.route("/org/staff", methods=["GET", "POST"])
@roles(Role.ADMIN)
def staff():
    all_games = games_queries.all_games()
    form = _form(all_games)
    if not form.validate_on_submit():
        return _page(form, all_games, status=422 if request.method == "POST" else 200)
    try:
        _user, token = services.create_staff(form.username.data, form.display_name.data, form.role.data,
                                             _chosen(all_games, form.games.data or []), actor())
    except Refusal as refusal:
        getattr(form, refusal.field).errors.append(refusal.message[1] if is_en() else refusal.message[0])
        return _page(form, all_games, status=422)
    return _page(_form(all_games), all_games, link=external_url("accounts.invitation", token=token))


@bp.post("/org/staff/<int:user_id>/games")
@roles(Role.ADMIN)
def staff_games(user_id):
    if not FlaskForm().validate_on_submit():
        abort(400)
    user = queries.user(user_id)
    if user is None or user.role not in services.STAFF_OF_GAMES:
        abort(404)
    all_games = games_queries.all_games()
    out = services.set_staff_games(user, _chosen(all_games, request.form.getlist("games")), actor())
    if out.ok:
        flash(_("已更新 %(name)s 负责的比赛。", name=user.display_name), "success")
    else:
        flash(out.message[1] if is_en() else out.message[0], "error")
    return redirect(url_for(".staff") + f"#staff-{user.id}")
