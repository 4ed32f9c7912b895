"""The set-up page and a save, shared by the set-up views: the page with its sections
and read-back, and a save that is checked whole (a published Games' previewed first)."""
from __future__ import annotations

import datetime as dt

import yaml
from flask import flash, redirect, render_template, request, url_for
from flask_login import current_user
from flask_wtf import FlaskForm

from ..audit.current import actor
from ..clock import now
from ..games.models import Games, GamesStatus
from ..games.services import definition_of, games_names, unit_names
from ..jobs.services import submit
from ..outcome import Refusal
from ..roles import ORGANISERS
from ..rules.calendar_traps import calendar_traps
from ..rules.checks.eligibility import unit_kind_names
from ..rules.event_traps import event_traps
from ..rules.readback import read_back
from ..translation import gettext as _
from . import items, rule_form, services
from .impact import IN_REQUEST_PEOPLE, impact, moved_deadlines, people_in
from .register_traps import register_traps
from .sections import ADVANCED_KEYS, as_day_and_hour, sessions_text

ORG = ORGANISERS


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
        # Deadlines already past only matter before publishing: a published Games' pass as it runs.
        calendar=calendar_traps(definition, now() if games.status == GamesStatus.DRAFT else None),
        shut_events=event_traps(definition), history_traps=register_traps(games, definition),
        advanced=yaml.safe_dump({k: games.definition[k] for k in ADVANCED_KEYS if games.definition.get(k) not in (None, [], {})},
                                allow_unicode=True, sort_keys=False, default_flow_style=None),
        versions=services.versions(games), day_and_hour=as_day_and_hour, sessions_text=sessions_text,
        parts=items.listed(games.definition),
        invited_names=[unit_names().get(c, c) for c in definition.participation.invited], form=FlaskForm()), status


MAX_SHEET = 2 * 1024 * 1024


def _save(games: Games, data: dict, section: str, form=None, action: str | None = None):
    """Save (or, for a published Games, first preview) the definition `data`; `form`: the
    fields a confirmed preview posts again (to `action`), when not the request's own."""
    published = games.status == GamesStatus.PUBLISHED
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


def _problems(refusal: Refusal) -> list[tuple[str, str]]:
    found = (refusal.details or {}).get("problems")
    if found:
        return [(f"{p[0]}：{p[2]}", f"{p[1]}: {p[3]}") for p in found]
    return [refusal.message or ("", "")]
