"""Self-registration for Games that take individuals (shaanxi-mind-2025: entrants register
themselves, first come first served up to the cap). The entrant gets an account bound to
his registration, to upload documents and see his place and deposit."""
from __future__ import annotations

from flask import abort, flash, redirect, render_template, request, url_for
from flask_babel import gettext as _, lazy_gettext as _l
from sqlalchemy import select
from wtforms import PasswordField, SelectField, StringField
from wtforms.validators import DataRequired, EqualTo, Length, Regexp

from ..accounts.login_session import start_session
from ..accounts.models import User
from ..accounts.services import create_account, password_problem_for
from ..audit.services import Actor
from ..clock import now
from ..delegations.forms import PersonForm
from ..delegations.services import judge
from ..extensions import db, rate_limit
from ..form_choices import options
from ..games.services import definition_of, find_games
from ..rules import parse_document
from ..rules.document import FORMAT
from ..web import is_en, outcome_text
from .blueprint import bp
from .services import import_document, stage_at


class SelfRegistrationForm(PersonForm):
    event = SelectField(_l("项目"))
    username = StringField(_l("用户名（登录用）"), validators=[DataRequired(), Length(min=3, max=80),
                                                         Regexp(r"^[A-Za-z0-9_.-]+$", message=_l("只能用字母、数字和 _ . -"))])
    password = PasswordField(_l("设置密码"), validators=[DataRequired(), Length(min=10, max=128)])
    confirm = PasswordField(_l("再次输入密码"), validators=[EqualTo("password", message=_l("两次输入的密码不一致"))])


# A rule's code -> the form field it is about (the rest are shown above the form).
CODE_FIELDS = [("ID_", "id_number"), ("ACCEPTED_ID", "id_type"), ("GENDER", "gender"), ("AGE", "birth_date"),
               ("BIRTH", "birth_date"), ("REGISTRATION", "registration_unit"), ("UNIVERSITY", "university_code"),
               ("RATING", "fide_rating"), ("NAME", "name")]


def _check_account(form) -> bool:
    ok = True
    username = (form.username.data or "").strip()
    if username and db.session.scalar(select(User).where(User.username == username)):
        form.username.errors = list(form.username.errors) + [_("该用户名已被使用")]
        ok = False
    if form.password.data and (problem := password_problem_for(None, form.password.data, username,
                                                               names=(form.name.data or "",))):
        form.password.errors = list(form.password.errors) + [problem[1] if is_en() else problem[0]]
        ok = False
    return ok


def _rule_errors_on_fields(games, document: dict, form, problems: list) -> bool:
    """The regulation's errors on the person as typed (no database lookups of others: an
    entrant learns nothing about who else registered), put on their fields; the rest go
    to `problems`. True when there is none."""
    parsed, schema = parse_document(document)
    violations = schema + (judge(games, parsed, now(), stored=False) if parsed is not None else [])
    en = is_en()
    clean = True
    for v in violations:
        if not v.is_error:
            continue
        clean = False
        field = None
        if v.path and v.path.startswith("people[0]."):
            name = v.path.split(".", 1)[1].split(".")[0].split("[")[0]
            field = {"registration": "registration_unit", "university": "university_code"}.get(name, name)
        elif "p1" in (v.people or []):
            field = next((f for prefix, f in CODE_FIELDS if v.code.startswith(prefix)), None)
        target = getattr(form, field, None) if field else None
        message = v.en if en else v.zh
        if target is not None and hasattr(target, "errors"):
            if not target.errors:  # the form's own message says it already
                target.errors = list(target.errors) + [message]
        else:
            problems.append(v)
    return clean


@bp.route("/register/<slug>", methods=["GET", "POST"])
@rate_limit("RATE_LIMIT_REGISTER")
def register(slug):
    games = find_games(slug)
    if games is None or games.status == "draft":  # a Games being set up is not open yet
        abort(404)
    definition = definition_of(games)
    if not definition.participation.individuals:
        abort(404)
    stage = stage_at(definition.stages, now())
    form = SelfRegistrationForm()
    form.event.choices = options((e.code, e.name.en if is_en() else e.name.zh) for e in definition.events if not e.is_team)
    problems = []
    if request.method == "POST" and stage.stage in ("declaration", "names"):
        # Every problem at once: the form's own checks, the account's, and the regulation's
        # on the person as typed, each on its field where it has one.
        form_ok = form.validate_on_submit()
        account_ok = _check_account(form)
        person = form.to_person("p1")
        document = {"format": FORMAT, "games": slug, "unit": None, "declarations": [], "people": [person],
                    "entries": [{"event": form.event.data, "people": ["p1"]}], "officials": [], "staff": [],
                    "companions": []}
        rules_ok = _rule_errors_on_fields(games, document, form, problems)
        if form_ok and account_ok and rules_ok:
            outcome = import_document(games, document, now(), Actor(person["name"] or "entrant", ip=request.remote_addr))
            if outcome.status in ("submitted", "waitlisted"):
                user, _token = create_account(form.username.data, person["name"], "leader",
                                              Actor(person["name"], ip=request.remote_addr),
                                              delegation=outcome.delegation, password=form.password.data)
                start_session(user)
                flash(_("报名成功，等待组委会审核。") if outcome.status == "submitted"
                      else _("名额已满，已列入候补名单；有名额空出时按顺序递补。"),
                      "success" if outcome.status == "submitted" else "warning")
                return redirect(url_for("delegations.dashboard", delegation_id=outcome.delegation.id))
            problems = [v for v in outcome.violations if v.is_error]
            if outcome.message:
                flash(outcome_text(outcome), "error")
    return render_template("registration/register.html", games=games, definition=definition, form=form,
                           stage=stage, problems=problems)
