"""Trying the rules: a sample delegation judged by the Games' rules as they stand."""
from __future__ import annotations

import datetime as dt
import json

from flask import abort, g, render_template, request
from flask_wtf import FlaskForm

from ..access.guards import roles
from ..clock import now
from ..delegations.services import check_document
from ..games.queries import sample_unit, sample_university
from ..games.services import definition_of
from ..rules.jsontext import JsonTextError, load_json
from .blueprint import bp
from .page import ORG
from .sample import sample_document, with_person, with_team
from .traps import rule_traps


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
        unit = sample_unit(definition)
        university = sample_university(unit)
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
