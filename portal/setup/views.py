"""The set-up screens of a Games: a new Games (an administrator's), then each section of
its definition in a form (the Games' organisers'): basics, stages, who may enter, events,
rules one by one, and the rest as a short YAML text. Each save is checked whole and a
refusal names the field; once published, a save is an amendment, previewed first (what it
changes in words, whom it affects) and kept as a version."""
from __future__ import annotations

import copy

from flask import abort, flash, g, redirect, render_template, request, url_for
from flask_login import current_user
from flask_wtf import FlaskForm
from werkzeug.datastructures import MultiDict

from ..access.guards import roles
from ..audit.current import actor
from ..games import queries as games_queries
from ..games.services import definition_of, definition_yaml, games_names, unit_names
from ..games.unit_sheet import read_invitation_sheet, refused_unit_changes, save_units
from ..jobs.services import job_by_id
from ..outcome import Refusal
from ..roles import Role
from ..rules.clauses import split
from ..rules.readback import read_back
from ..text import Text
from ..translation import gettext as _
from ..web import is_en
from . import services
from .blueprint import bp
from .impact import moved_deadlines
from .impact_job import impact_of
from .page import MAX_SHEET, ORG, _date, _int, _page, _save
from .regulation_file import MAX_BYTES, read_regulation
from .sections import SectionProblem, read_section


@bp.route("/org/games/new", methods=["GET", "POST"])
@roles(Role.ADMIN)
def new_games():
    all_games = games_queries.all_games()
    errors: dict[str, str] = {}
    if request.method == "POST":
        if not FlaskForm().validate_on_submit():
            abort(400)
        source = next((x for x in all_games if x.slug == request.form.get("copy_of")), None)
        try:
            games = services.create_games(
                request.form.get("slug", ""), request.form.get("name_zh", ""), request.form.get("name_en", ""), actor(),
                copy_of=source, years_later=_int(request.form.get("years_later"), 1),
                start=_date(request.form.get("start")), end=_date(request.form.get("end")))
        except Refusal as refusal:
            errors[refusal.field or refusal.code] = refusal.message[1] if is_en() else refusal.message[0]
            if refusal.details and refusal.details.get("problems"):
                errors["definition"] = "；".join(f"{p[0]}：{p[2]}" for p in refusal.details["problems"][:5])
        else:
            flash(_("已创建草稿：领队还看不到这届比赛，设置好后再发布。"), "success")
            return redirect(url_for(".setup", slug=games.slug))
    return render_template("setup/new.html", all_games=all_games, errors=errors, form=FlaskForm()), \
        (422 if errors else 200)


@bp.get("/org/games/<slug>/setup")
@roles(*ORG)
def setup(slug):
    return _page(g.games)


@bp.get("/org/games/<slug>/versions/<int:number>")
@roles(*ORG)
def version(slug, number):
    """A kept version: its rules in sentences, and what it changed from the one before."""
    found = services.version_with_diff(g.games, number)
    if found is None:
        abort(404)
    row, definition, diff = found
    english = unit_names("en")
    lines = read_back(definition, {c: (n, english.get(c, n)) for c, n in unit_names().items()}, games_names())
    return render_template("setup/version.html", g=g.games, v=row, d=definition, lines=lines, diff=diff,
                           latest=services.versions(g.games)[0].number)


@bp.get("/org/games/<slug>/definition.yaml")
@roles(*ORG)
def definition_export(slug):
    """The definition in the fixtures' format: kept in a repository, loaded elsewhere."""
    from flask import Response
    return Response(definition_yaml(g.games), mimetype="application/x-yaml",
                    headers={"Content-Disposition": f'attachment; filename="{g.games.slug}.yaml"'})


@bp.post("/org/games/<slug>/setup/<section>")
@roles(*ORG)
def save_section(slug, section):
    if not FlaskForm().validate_on_submit():
        abort(400)
    games = g.games
    units = _unit_lookup() if section == "participation" else None  # invited units typed by code or name
    try:
        data = read_section(copy.deepcopy(games.definition), section, request.form, units)
    except ValueError as problem:
        zh, en = getattr(problem, "zh", str(problem)), getattr(problem, "en", str(problem))
        return _page(games, section=section, problems=[(zh, en)], status=422)
    return _save(games, data, section)


def _unit_lookup() -> dict[str, str]:
    """A unit's code, name (Chinese or English) or short name ("浙江" for 浙江省) -> its code."""
    units = {}
    for code, zh, en in games_queries.unit_names_and_codes():
        units.update({code: code, zh: code, en: code})
        for short in (zh.removesuffix("省"), zh.removesuffix("市")):
            units.setdefault(short, code)
    return units


@bp.post("/org/games/<slug>/setup/invited-sheet")
@roles(*ORG)
def invited_sheet(slug):
    """The invitation list uploaded as a sheet (单位名称, 类别, 所属省份...): units already
    known are invited as they are, new ones join the list of units; then saved (or, once
    published, previewed as an amendment) like the participation section."""
    if not FlaskForm().validate_on_submit():
        abort(400)
    games = g.games
    upload = request.files.get("file")
    data = upload.read(MAX_SHEET + 1) if upload and upload.filename else b""
    problems = []
    if not data:
        problems = [Text("请选择特邀单位名单文件（Excel 或 CSV）", "Choose the invitation list (Excel or CSV)")]
    elif len(data) > MAX_SHEET:
        problems = [Text("文件太大（最多 2 MB）", "The file is too big (2 MB at most)")]
    else:
        codes, new, problems = read_invitation_sheet(data, upload.filename, _unit_lookup())
        problems += refused_unit_changes(new)
    if problems:
        return _page(games, section="participation", problems=[p if isinstance(p, Text) else (p, p) for p in problems],
                     status=422)
    if new:
        save_units(new, actor())
    definition = definition_of(games)
    if request.form.get("keep") == "on":
        codes = list(dict.fromkeys(list(definition.participation.invited) + codes))
    form = MultiDict([("unit_kinds", k) for k in definition.participation.unit_kinds] + [
        ("invited", "、".join(codes)), ("capacity", str(definition.capacity or ""))]
        + [(k, "on") for k in ("open_units", "individuals") if getattr(definition.participation, k)])
    data = read_section(copy.deepcopy(games.definition), "participation", form, _unit_lookup())
    flash(_("特邀单位名单读入 %(n)d 个单位，其中 %(a)d 个新加入单位名单。", n=len(codes), a=len(new)), "info")
    return _save(games, data, "participation", form=form,
                 action=url_for(".save_section", slug=games.slug, section="participation"))


@bp.get("/org/games/<slug>/impact/<int:impact_id>")
@roles(*ORG)
def amendment_impact(slug, impact_id):
    """An amendment's impact worked out in the background (the job `impact_id`), with its
    confirmation form."""
    job = job_by_id(impact_id)
    if job is None or job.kind != "amendment_impact" or job.user_id != current_user.id \
            or job.params.get("games") != g.games.slug:
        abort(404)
    rows = impact_of(job)
    if rows is None:
        return redirect(url_for("jobs.show", job_id=job.id))
    after = services.validate(job.params["definition"])
    preview = {"diff": services.readback_diff(definition_of(g.games), after), "impact": rows,
               "deadlines": moved_deadlines(definition_of(g.games), after),
               "form": MultiDict([tuple(x) for x in job.params["form"]]), "action": job.params["action"]}
    return _page(g.games, section=job.params.get("section"), preview=preview)


@bp.post("/org/games/<slug>/setup/regulation-text")
@roles(*ORG)
def regulation_text(slug):
    """The regulation's text: pasted, or read from its Word, PDF or text file."""
    if not FlaskForm().validate_on_submit():
        abort(400)
    games = g.games
    text = request.form.get("text") or ""
    upload = request.files.get("file")
    if upload and upload.filename:
        data = upload.read(MAX_BYTES + 1)
        if len(data) > MAX_BYTES:
            return _page(games, section="regulation", problems=[("文件太大（最多 10 MB）", "The file is too big (10 MB at most)")],
                         status=422)
        try:
            text = read_regulation(data, upload.filename)
        except SectionProblem as problem:
            return _page(games, section="regulation", problems=[(problem.zh, problem.en)], status=422)
    out = services.set_regulation_text(games, text, actor())
    if not out.ok:
        return _page(games, section="regulation", problems=[out.message], status=422)
    flash(_("已保存规程原文，共 %(n)d 条。", n=sum(1 for c in split(text) if c.ref)), "success")
    return redirect(url_for(".setup", slug=games.slug) + "#regulation")


@bp.post("/org/games/<slug>/publish")
@roles(*ORG)
def publish(slug):
    if not FlaskForm().validate_on_submit():
        abort(400)
    out = services.publish(g.games, actor())
    if out.ok:
        flash(_("已发布：领队现在可以看到这届比赛并报名。此后的修改须作为补充通知。"), "success")
    else:
        flash(out.message[1] if is_en() else out.message[0], "error")
    return redirect(url_for(".setup", slug=slug))


from . import proposal_views, rule_views, try_views  # noqa: E402, F401  (their routes, on this blueprint)
