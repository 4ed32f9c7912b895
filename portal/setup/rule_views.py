"""One rule, one item of a list (fees, rooms, awards...) or one group of settings in its
own form of the set-up screens."""
from __future__ import annotations

import copy

from flask import abort, g, redirect, render_template, request, url_for
from flask_wtf import FlaskForm

from ..access.guards import roles
from ..games.models import Games
from ..games.services import definition_of
from ..rules.readback import read_back
from . import items, rule_form
from .blueprint import bp
from .page import ORG, _save


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
