"""The player register for the organisers of a Games: their people with the grades and
ratings the register holds, a rating list imported, a grade recorded or corrected with its
reason. Views load, check access, call a service, respond."""
from __future__ import annotations

import datetime as dt

from flask import Blueprint, abort, flash, redirect, render_template, request, url_for
from flask_wtf import FlaskForm

from ..access import scope
from ..access.guards import roles
from ..audit.current import actor
from ..games.services import definition_of
from ..privacy import record_access
from ..roles import ORGANISERS
from ..rules.definition import QualifiedRule
from ..rules.grades import grade_systems, rating_lists
from ..translation import gettext as _
from ..web import is_en, outcome_text
from . import queries, services
from .career_page import career_of

bp = Blueprint("register", __name__)
ORG = ORGANISERS
MAX_LIST_BYTES = services.MAX_LIST_BYTES


def _day(value: str | None) -> dt.date | None:
    try:
        return dt.date.fromisoformat(value) if value else None
    except ValueError:
        abort(400, description=_("日期格式应为 YYYY-MM-DD"))


@bp.get("/org/games/<slug>/register")
@roles(*ORG)
def register(slug):
    games = scope.games_or_404(slug)
    definition = definition_of(games)
    q = (request.args.get("q") or "").strip()[:50]
    page = request.args.get("page", "1")
    page = int(page) if page.isdigit() and int(page) < 10_000 else 1
    rows, total = queries.people_page(games, q, page, is_en())
    qualifiers = queries.qualifiers_for(games, is_en()) if definition.rules_of(QualifiedRule) else None
    return render_template("register/register.html", games=games, rows=rows, total=total, page=page, q=q,
                           qualifiers=qualifiers,
                           units=queries.units_to_choose(games, definition, is_en()) if qualifiers is not None else [],
                           pages=max(1, (total + queries.PAGE - 1) // queries.PAGE), form=FlaskForm(),
                           systems=grade_systems(definition), lists=rating_lists(definition),
                           editions=queries.rating_editions())


@bp.get("/org/games/<slug>/register/people/<int:delegation_id>/<ref>")
@roles(*ORG)
def player(slug, delegation_id, ref):
    """One person's whole career in the register (the look is recorded)."""
    games = scope.games_or_404(slug)
    person = queries.person_of(games, delegation_id, ref[:40])
    if person is None:
        abort(404)
    definition = definition_of(games)
    record_access("personal_data.view", [(ref, person.name)], delegation=person.delegation, what="register",
                  games_slug=games.slug)
    return render_template("register/player.html", games=games, person=person, career=career_of(person, is_en()),
                           unit=queries.unit_name_of(person.delegation, is_en()),
                           systems=grade_systems(definition), lists=rating_lists(definition))


@bp.post("/org/games/<slug>/register/ratings")
@roles(*ORG)
def import_ratings(slug):
    games = scope.games_or_404(slug)
    if not FlaskForm().validate_on_submit():
        abort(400)
    code = request.form.get("list") or ""
    if code not in rating_lists(definition_of(games)):
        abort(400, description=_("请选择等级分名单"))
    published = _day(request.form.get("published_on"))
    upload = request.files.get("file")
    if published is None or upload is None or not upload.filename:
        flash(_("请选择名单文件并填写公布日期。"), "error")
        return redirect(url_for(".register", slug=slug))
    data = upload.stream.read(MAX_LIST_BYTES + 1)
    out = services.import_rating_list(actor(), code, published, upload.filename, data, games_slug=games.slug)
    flash(outcome_text(out), "success" if out.ok else "error")
    return redirect(url_for(".register", slug=slug))


@bp.post("/org/games/<slug>/register/grade")
@roles(*ORG)
def record_grade(slug):
    games = scope.games_or_404(slug)
    if not FlaskForm().validate_on_submit():
        abort(400)
    delegation, _sep, ref = (request.form.get("person") or "").partition(":")
    if not delegation.isdigit() or not ref:
        abort(400, description=_("请选择人员"))
    person = queries.person_of(games, int(delegation), ref[:40])
    if person is None or not person.id_number:
        abort(404)
    system = request.form.get("system") or ""
    if system not in grade_systems(definition_of(games)):
        abort(400, description=_("请选择段级位体系"))
    replaces = request.form.get("replaces") or ""
    out = services.record_grade(
        actor(), person.id_number, person.name, system, (request.form.get("grade") or "")[:40],
        _day(request.form.get("awarded_on")), (request.form.get("source") or _("组委会录入"))[:300],
        reason=(request.form.get("reason") or "")[:1000] or None,
        replaces=int(replaces) if replaces.isdigit() else None, games_slug=games.slug,
        unit=person.delegation.unit_code)
    flash(outcome_text(out) if not out.ok else _("已记入棋手档案：%(name)s。", name=person.name),
          "success" if out.ok else "error")
    return redirect(url_for(".register", slug=slug, q=request.form.get("q") or None))


@bp.post("/org/games/<slug>/register/qualified")
@roles(*ORG)
def add_qualifier(slug):
    """A player put on these Games' list of qualified players by hand (a wild card), with the reason."""
    games = scope.games_or_404(slug)
    if not FlaskForm().validate_on_submit():
        abort(400)
    unit = request.form.get("unit") or ""
    if unit and unit not in dict(queries.units_to_choose(games, definition_of(games))):
        abort(400, description=_("请选择代表单位"))
    out = services.qualify(actor(), (request.form.get("id_number") or "")[:40], (request.form.get("name") or "")[:100],
                           games.slug, games.slug, games.series, (request.form.get("reason") or "")[:1000], unit)
    flash(_("已加入晋级名单。") if out.ok else outcome_text(out), "success" if out.ok else "error")
    return redirect(url_for(".register", slug=slug) + "#qualified")


@bp.post("/org/games/<slug>/register/qualified/<int:qualification_id>/withdraw")
@roles(*ORG)
def withdraw_qualifier(slug, qualification_id):
    games = scope.games_or_404(slug)
    if not FlaskForm().validate_on_submit():
        abort(400)
    out = services.withdraw_qualification(actor(), qualification_id, (games.slug, games.series),
                                          (request.form.get("reason") or "")[:1000])
    flash(_("已从晋级名单中取消。") if out.ok else outcome_text(out), "success" if out.ok else "error")
    return redirect(url_for(".register", slug=slug) + "#qualified")
