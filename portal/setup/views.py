"""The set-up screens of a Games: a new Games (an administrator's), then each section of
its definition in a form (the Games' organisers'): basics, stages, who may enter, events,
rules one by one, and the rest as a short YAML text. Each save is checked whole and a
refusal names the field; once published, a save is an amendment, previewed first (what it
changes in words, whom it affects) and kept as a version."""
from __future__ import annotations

import copy
import datetime as dt
import json

import yaml
from flask import abort, flash, g, redirect, render_template, request, url_for
from flask_babel import gettext as _
from flask_login import current_user
from flask_wtf import FlaskForm
from sqlalchemy import select
from werkzeug.datastructures import MultiDict

from ..accounts.access import roles
from ..audit.current import actor
from ..clock import now
from ..delegations.services import check_document
from ..extensions import db
from ..games.models import Games, Unit, University
from ..games.services import definition_of, definition_yaml, games_names, unit_names
from ..games.unit_sheet import read_invitation_sheet, save_units
from ..games.views import refused_unit_changes
from ..jobs.models import Job
from ..jobs.services import submit
from ..outcome import Refusal
from ..roles import ORGANISERS, Role
from ..rules.checks.eligibility import unit_kind_names
from ..rules.clauses import split
from ..rules.jsontext import JsonTextError, load_json
from ..rules.readback import read_back
from ..text import Text
from ..web import is_en
from . import items, rule_form, services
from .blueprint import bp
from .impact import IN_REQUEST_PEOPLE, impact, moved_deadlines, people_in
from .impact_job import impact_of
from .regulation_file import MAX_BYTES, read_regulation
from .sample import sample_document, with_person, with_team
from .sections import ADVANCED_KEYS, SectionProblem, as_day_and_hour, read_section, sessions_text
from .traps import rule_traps

ORG = ORGANISERS


@bp.route("/org/games/new", methods=["GET", "POST"])
@roles(Role.ADMIN)
def new_games():
    all_games = list(db.session.scalars(select(Games).order_by(Games.slug)))
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


def _int(value, default):
    try:
        return max(0, min(int(value), 20))
    except (TypeError, ValueError):
        return default


def _date(value) -> dt.date | None:
    try:
        return dt.date.fromisoformat((value or "").strip()) if value else None
    except ValueError:
        return None


def _page(games: Games, *, section: str | None = None, problems=None, preview=None, status: int = 200):
    definition = definition_of(games)
    english = unit_names("en")
    lines = read_back(definition, {c: (n, english.get(c, n)) for c, n in unit_names().items()}, games_names())
    rule_lines = [x for x in lines if x.section == "rules"]
    return render_template(
        "setup/setup.html", g=games, d=definition, raw=games.definition, section=section, problems=problems or [],
        preview=preview, rule_lines=rule_lines, kinds=rule_form.KIND_NAMES, unit_kinds=unit_kind_names(definition),
        nobody_may_enter=nobody_may_enter(definition),
        advanced=yaml.safe_dump({k: games.definition[k] for k in ADVANCED_KEYS if games.definition.get(k) not in (None, [], {})},
                                allow_unicode=True, sort_keys=False, default_flow_style=None),
        versions=services.versions(games), day_and_hour=as_day_and_hour, sessions_text=sessions_text,
        parts=items.listed(games.definition),
        invited_names=[unit_names().get(c, c) for c in definition.participation.invited], form=FlaskForm()), status


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
    for code, zh, en in db.session.execute(select(Unit.code, Unit.name_zh, Unit.name_en)):
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


MAX_SHEET = 2 * 1024 * 1024


def _save(games: Games, data: dict, section: str, form=None, action: str | None = None):
    """Save (or, for a published Games, first preview) the definition `data`; `form`: the
    fields a confirmed preview posts again (to `action`), when not the request's own."""
    published = games.status == "published"
    if published and request.form.get("do") != "confirm":
        try:
            after = services.validate(data)
        except Refusal as refusal:
            return _page(games, section=section, problems=_problems(refusal), status=422)
        fields = form or request.form
        preview = {"diff": services.readback_diff(definition_of(games), after),
                   "deadlines": moved_deadlines(definition_of(games), after), "form": fields, "action": action}
        if people_in(games) > IN_REQUEST_PEOPLE:  # a national Games: judged twice in the background
            job = submit("amendment_impact", {
                "games": games.slug, "definition": after.model_dump(mode="json"), "at": now().isoformat(),
                "section": section, "action": action or request.path,
                "form": [[k, v] for k, v in fields.items(multi=True) if k not in ("csrf_token", "do", "amendment", "reason")]},
                current_user.id, _("补充通知的影响：%(name)s", name=games.name_zh))
            preview["job"] = job
        else:
            preview["impact"] = impact(games, after, now())
        return _page(games, section=section, preview=preview)
    out = services.save_definition(games, data, actor(), amendment=request.form.get("amendment"),
                                   reason=request.form.get("reason"))
    if not out.ok:
        refusal = Refusal(out.code or "input", *(out.message or ("", "")), field=out.field, details=out.details)
        return _page(games, section=section, problems=_problems(refusal), status=422)
    if out.details and out.details.get("unchanged"):
        flash(_("没有改动。"), "info")
    else:
        flash(_("已发布补充通知，新的规则即时生效。") if published else _("已保存。"), "success")
    if section == "participation" and nobody_may_enter(definition_of(games)):
        flash(_("还没有设定谁可以报名：没有勾选单位类别，没有特邀单位，也不接受俱乐部或个人报名，现在没有人能报名。"), "warning")
    return redirect(url_for(".setup", slug=games.slug) + f"#{section}")


def nobody_may_enter(definition) -> bool:
    p = definition.participation
    return not (p.unit_kinds or p.invited or p.open_units or p.individuals)


@bp.get("/org/games/<slug>/impact/<int:impact_id>")
@roles(*ORG)
def amendment_impact(slug, impact_id):
    """An amendment's impact worked out in the background (the job `impact_id`), with its
    confirmation form."""
    job = db.session.get(Job, impact_id)
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


def _problems(refusal: Refusal) -> list[tuple[str, str]]:
    found = (refusal.details or {}).get("problems")
    if found:
        return [(f"{p[0]}：{p[2]}", f"{p[1]}: {p[3]}") for p in found]
    return [refusal.message or ("", "")]


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


@bp.route("/org/games/<slug>/setup/rules/new", methods=["GET", "POST"], defaults={"index": None})
@bp.route("/org/games/<slug>/setup/rules/<int:index>", methods=["GET", "POST"])
@roles(*ORG)
def edit_rule(slug, index):
    """One rule in a form; "new" with ?kind= adds a rule of that kind."""
    games = g.games
    rules = list(games.definition.get("rules") or [])
    if index is None:
        kind = request.values.get("kind", "")
        if kind not in rule_form.rule_kinds():  # choose the kind first, in the rules section
            return redirect(url_for(".setup", slug=games.slug) + "#rules")
        current = {"kind": kind, **rule_form.prefilled(rule_form.params(kind), request.args)}
    elif index < len(rules):
        current = rules[index]
        kind = current["kind"]
    else:
        abort(404)
    problems = []
    if request.method == "POST":
        if not FlaskForm().validate_on_submit():
            abort(400)
        if request.form.get("op") == "delete" and index is not None:
            return _save(games, _with_item(games, ("rules",), index, None), "rules")
        try:
            rule = rule_form.read(kind, request.form, definition_of(games))
        except rule_form.FormProblem as problem:
            problems = [(problem.zh, problem.en)]
        else:
            return _save(games, _with_item(games, ("rules",), index, rule), "rules")
    definition = definition_of(games)
    sentence = None
    if index is not None:
        sentence = [x for x in read_back(definition) if x.section == "rules"][index]
    return render_template("setup/rule.html", g=games, d=definition, kind=kind, index=index, sentence=sentence,
                           params=rule_form.with_choices(rule_form.params(kind), definition),
                           values=rule_form.values(current) if request.method == "GET" else None,
                           names=rule_form.CHOICE_NAMES | {c: n for named in rule_form.named_choices(definition).values()
                                                          for c, n in named.items()},
                           kind_name=rule_form.KIND_NAMES.get(kind, (kind, kind)),
                           problems=problems, form=FlaskForm()), (422 if problems else 200)


def _with_item(games: Games, path: tuple[str, ...], index: int | None, item: dict | None) -> dict:
    """A copy of the definition with one item of a list (the rules, the fees...) added
    (`index` None), replaced, or removed (`item` None)."""
    data = copy.deepcopy(games.definition)
    changed = list(items.get_in(data, path) or [])
    if item is None:
        changed.pop(index)
    elif index is None:
        changed.append(item)
    else:
        changed[index] = item
    items.set_in(data, path, changed)
    return data


@bp.route("/org/games/<slug>/setup/list/<part>/new", methods=["GET", "POST"], defaults={"index": None})
@bp.route("/org/games/<slug>/setup/list/<part>/<int:index>", methods=["GET", "POST"])
@roles(*ORG)
def edit_item(slug, part, index):
    """One fee, room type, stay rule, contact, kind of document or award in its form;
    "new" adds one (an award: of the kind chosen, ?kind=)."""
    games = g.games
    spec = items.LISTS.get(part) or abort(404)
    current_list = list(items.get_in(games.definition, spec.path) or [])
    if index is None:
        kind = request.values.get("kind") if spec.model is None else None
        if spec.model is None and kind not in items.award_kinds():
            return redirect(url_for(".setup", slug=games.slug) + "#advanced")
        current = {**({"kind": kind} if kind else {}), **rule_form.prefilled(spec.params(kind), request.args)}
    elif index < len(current_list):
        current = current_list[index]
        kind = current.get("kind")
    else:
        abort(404)
    ps = rule_form.with_choices(spec.params(kind), definition_of(games))
    problems = []
    if request.method == "POST":
        if not FlaskForm().validate_on_submit():
            abort(400)
        if request.form.get("op") == "delete" and index is not None:
            return _save(games, _with_item(games, spec.path, index, None), "advanced")
        try:
            item = {**({"kind": kind} if kind else {}), **rule_form.read_params(ps, request.form)}
        except rule_form.FormProblem as problem:
            problems = [(problem.zh, problem.en)]
        else:
            return _save(games, _with_item(games, spec.path, index, item), "advanced")
    title = items.AWARD_NAMES.get(kind, spec.item) if kind else spec.item
    return render_template("setup/rule.html", g=games, d=definition_of(games), kind=kind, index=index, sentence=None,
                           params=ps, values=rule_form.values_of(ps, current) if request.method == "GET" else None,
                           names=rule_form.CHOICE_NAMES | items.CHOICE_NAMES, kind_name=title, problems=problems,
                           form=FlaskForm(), noun=spec.item, back="advanced"), (422 if problems else 200)


@bp.route("/org/games/<slug>/setup/settings/<name>", methods=["GET", "POST"])
@roles(*ORG)
def edit_settings(slug, name):
    """The money settings or the leaders' meeting in a form."""
    games = g.games
    path, model, label, skip = items.OBJECTS.get(name) or abort(404)
    ps = rule_form.with_choices(rule_form.params_of(model, skip=skip), definition_of(games))
    current = items.get_in(games.definition, path) or {}
    problems = []
    if request.method == "POST":
        if not FlaskForm().validate_on_submit():
            abort(400)
        try:
            values = rule_form.read_params(ps, request.form)
        except rule_form.FormProblem as problem:
            problems = [(problem.zh, problem.en)]
        else:
            data = copy.deepcopy(games.definition)
            kept = {k: v for k, v in (items.get_in(data, path) or {}).items() if k in skip}
            items.set_in(data, path, {**kept, **values} if (values or kept) and request.form.get("op") != "delete" else None)
            return _save(games, data, "advanced")
    return render_template("setup/rule.html", g=games, d=definition_of(games), kind=None, index=None if not current else 0,
                           sentence=None, params=ps, values=rule_form.values_of(ps, current) if request.method == "GET" else None,
                           names=rule_form.CHOICE_NAMES | items.CHOICE_NAMES, kind_name=label, problems=problems,
                           form=FlaskForm(), noun=label, back="advanced", settings=True), (422 if problems else 200)


@bp.route("/org/games/<slug>/try", methods=["GET", "POST"])
@roles(*ORG)
def try_rules(slug):
    """A sample delegation judged by the Games' rules as they stand (a draft too), before
    anyone enters: nothing is stored and no other delegation is compared."""
    games = g.games
    definition = definition_of(games)
    text, report = request.form.get("document") or "", None
    if request.method == "POST":
        if not FlaskForm().validate_on_submit():
            abort(400)
        try:
            data = load_json(text.encode("utf-8")[:MAX_SAMPLE])
        except JsonTextError as exc:
            report = {"problem": (f"示例不是有效的 JSON：{exc.zh}", f"The sample is not valid JSON: {exc.en}")}
        else:
            if isinstance(data, dict):
                data["games"] = games.slug  # always these Games
                if request.form.get("op") in ("add_person", "add_team"):
                    add = _added_person if request.form.get("op") == "add_person" else _added_team
                    data, problem = add(data, definition)
                    text = json.dumps(data, ensure_ascii=False, indent=2)
                    if problem:
                        report = {"problem": problem}
            if report is None:
                report, _status = check_document(data, now(), stored=False, drafts=True)
    traps = []
    if request.method != "POST":
        unit = db.session.scalar(select(Unit).where(Unit.kind.in_(definition.participation.unit_kinds or ["-"]))
                                 .order_by(Unit.code).limit(1))
        if unit is None and definition.participation.invited:  # an invitation list only
            unit = db.session.scalar(select(Unit).where(Unit.code == definition.participation.invited[0]))
        university = db.session.scalar(
            select(University.code).where(University.ownership == "public", University.level == "undergraduate",
                                          *((University.province_code == unit.province_code,)
                                            if unit is not None and unit.province_code else ()))
            .order_by(University.code).limit(1))
        sample = sample_document(definition, unit.code if unit else None, university)
        text = json.dumps(sample, ensure_ascii=False, indent=2)
        traps = rule_traps(games, definition, sample)
    return render_template("setup/try.html", g=games, d=definition, text=text, report=report, form=FlaskForm(),
                           traps=traps, sample_people=_people_of(text))


def _people_of(text: str) -> list[tuple[str, str]]:
    """(ref, name) of the sample's people, for the team form's choice of members."""
    try:
        data = load_json(text.encode("utf-8")[:MAX_SAMPLE])
    except JsonTextError:
        return []
    people = data.get("people") if isinstance(data, dict) else None
    return [(p["ref"], str(p.get("name") or p["ref"])) for p in (people or [])[:500]
            if isinstance(p, dict) and isinstance(p.get("ref"), str)]


def _added_team(data: dict, definition) -> tuple[dict, tuple[str, str] | None]:
    """The sample with the team the try page's form describes, or a problem naming the field."""
    event = request.form.get("team_event") or ""
    if event not in {e.code for e in definition.events if e.is_team}:
        return data, ("请选择本届比赛的团体项目", "Choose a team event of these Games")
    known = {ref for ref, _name in _people_of(json.dumps(data, ensure_ascii=False))}
    members = [r for r in request.form.getlist("team_members")[:50] if r in known]
    if not members:
        return data, ("请勾选队员", "Tick the team's members")
    label = (request.form.get("team_label") or "A").strip()[:10] or "A"
    return with_team(data, definition, event, label, members), None


MAX_SAMPLE = 2 * 1024 * 1024


def _added_person(data: dict, definition) -> tuple[dict, tuple[str, str] | None]:
    """The sample with the person the try page's form describes, or a problem naming the field."""
    gender = request.form.get("add_gender") if request.form.get("add_gender") in ("M", "F") else "M"
    try:
        born = dt.date.fromisoformat((request.form.get("add_birth_date") or "").strip())
    except ValueError:
        return data, ("请填写出生日期，如 2008-05-01", "Give the birth date, such as 2008-05-01")
    event = request.form.get("add_event") or None
    if event is not None and event not in {e.code for e in definition.events if not e.is_team}:
        return data, ("请选择本届比赛的个人项目", "Choose an individual event of these Games")
    return with_person(data, definition, (request.form.get("add_name") or "").strip()[:50], gender, born, event), None


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


from . import proposal_views  # noqa: E402, F401  (its routes, on this blueprint)
