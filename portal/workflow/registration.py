"""Self-registration for Games that take individuals (shaanxi-mind-2025: entrants register
themselves, first come first served up to the cap). The entrant gets an account bound to
his registration, to upload documents and see his place and deposit."""
from __future__ import annotations

from flask import Blueprint, abort, flash, redirect, render_template, request, url_for
from flask_babel import gettext as _
from flask_babel import lazy_gettext as _l
from sqlalchemy import select
from wtforms import PasswordField, SelectField, StringField
from wtforms.validators import DataRequired, EqualTo, Length, Regexp

from ..accounts.models import User
from ..accounts.services import create_account, password_problem_for
from ..accounts.views import start_session
from ..extensions import rate_limit
from ..audit.services import Actor
from ..clock import now
from ..delegations.forms import PersonForm
from ..extensions import db
from ..games.services import definition_of, find_games
from ..rules.document import FORMAT
from ..web import is_en, outcome_text
from .services import import_document, stage_at

bp = Blueprint("registration", __name__)


class SelfRegistrationForm(PersonForm):
    event = SelectField(_l("项目"))
    username = StringField(_l("用户名（登录用）"), validators=[DataRequired(), Length(min=3, max=80),
                                                         Regexp(r"^[A-Za-z0-9_.-]+$", message=_l("只能用字母、数字和 _ . -"))])
    password = PasswordField(_l("设置密码"), validators=[DataRequired(), Length(min=10, max=128)])
    confirm = PasswordField(_l("再次输入密码"), validators=[EqualTo("password", message=_l("两次输入的密码不一致"))])


@bp.route("/register/<slug>", methods=["GET", "POST"])
@rate_limit("RATE_LIMIT_REGISTER")
def register(slug):
    games = find_games(slug)
    if games is None:
        abort(404)
    definition = definition_of(games)
    if not definition.participation.individuals:
        abort(404)
    stage = stage_at(definition.stages, now())
    form = SelfRegistrationForm()
    form.event.choices = [(e.code, e.name.en if is_en() else e.name.zh) for e in definition.events if not e.is_team]
    problems = []
    if request.method == "POST" and stage.stage in ("declaration", "names") and form.validate_on_submit():
        if db.session.scalar(select(User).where(User.username == form.username.data.strip())):
            form.username.errors.append(_("该用户名已被使用"))
        elif problem := password_problem_for(None, form.password.data, form.username.data,
                                                      names=(form.name.data or "",)):
            form.password.errors.append(problem[1] if is_en() else problem[0])
        else:
            person = form.to_person("p1")
            document = {"format": FORMAT, "games": slug, "unit": None, "declarations": [], "people": [person],
                        "entries": [{"event": form.event.data, "people": ["p1"]}], "officials": [], "staff": [],
                        "companions": []}
            outcome = import_document(games, document, now(), Actor(person["name"] or "entrant", ip=request.remote_addr))
            if outcome.status in ("submitted", "waitlisted"):
                user, _token = create_account(form.username.data, person["name"], "leader",
                                              Actor(person["name"], ip=request.remote_addr),
                                              delegation=outcome.delegation, password=form.password.data)
                start_session(user)
                flash(_("报名成功，等待组委会审核。") if outcome.status == "submitted"
                      else _("名额已满，已列入候补名单；有名额空出时按顺序递补。"),
                      "success" if outcome.status == "submitted" else "warning")
                return redirect(url_for("workspace.dashboard", delegation_id=outcome.delegation.id))
            problems = [v for v in outcome.violations if v.is_error]
            if outcome.message:
                flash(outcome_text(outcome), "error")
    return render_template("registration/register.html", games=games, definition=definition, form=form,
                           stage=stage, problems=problems)
