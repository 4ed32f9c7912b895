"""Numbers the regulations set beyond quotas: team and pair sizes whatever the gender,
minimum numbers, entries allowed only alongside another, compulsory events, officials in
proportion to athletes, companions some entrants must bring, who may enter each event."""
from __future__ import annotations

import math

from ..ages import age_on
from ..check_context import CheckContext, names, rule_check
from ..violations import Violation
from .eligibility import unit_kind_names


def _players(n: int, en: bool = False) -> str:
    if en:
        return f"{n} player" + ("" if n == 1 else "s")
    return f"{n} 人"


def _range_text(rule) -> tuple[str, str]:
    if rule.min is not None and rule.max is not None:
        if rule.min == rule.max:
            return f"{rule.min} 人", _players(rule.min, True)
        return f"{rule.min} 至 {rule.max} 人", f"{rule.min} to {rule.max} players"
    if rule.min is not None:
        return f"至少 {rule.min} 人", f"at least {_players(rule.min, True)}"
    return f"至多 {rule.max} 人", f"at most {_players(rule.max, True)}"


@rule_check("team_size")
def team_size(ctx: CheckContext, rule) -> list[Violation]:
    out = []
    want_zh, want_en = _range_text(rule)
    for event in rule.events:
        for entry in ctx.entries_by_event.get(event, []):
            if rule.count == "starters" and entry.lineup:
                players = [s.person for s in entry.lineup if not s.reserve]
            else:
                players = list(dict.fromkeys(entry.all_people()))
            n = len(players)
            if (rule.min is None or n >= rule.min) and (rule.max is None or n <= rule.max):
                continue
            team = ctx.team_label(entry)
            what_zh = "上场队员" if rule.count == "starters" else "队员"
            what_en = ("starter" if rule.count == "starters" else "player") + ("" if n == 1 else "s")
            # "of either gender" only where the event takes both (never in a women's event).
            mixed = ctx.events[event].gender == "X"
            must = "" if want_zh.startswith(("至少", "至多")) else "应为 "
            out.append(Violation(
                "TEAM_SIZE",
                f"{ctx.event_name(event)} {team} 队有{what_zh} {n} 人；本项目每队（对）{must}{want_zh}"
                f"{'（男女不限）' if mixed else ''}。",
                f"{ctx.event_name(event, 'en')}, team {team}: {n} {what_en}; each team (pair) must have "
                f"{want_en}{', of either gender' if mixed else ''}.",
                event=event, people=tuple(players)))
    return out


@rule_check("event_minimum")
def event_minimum(_ctx: CheckContext, _rule) -> list[Violation]:
    """Nothing a delegation can mend: the Games' overview counts every delegation's entries
    (workflow.overview), and no delegation learns what the others enter."""
    return []


@rule_check("entry_minimum")
def entry_minimum(ctx: CheckContext, rule) -> list[Violation]:
    out = []
    if rule.per == "unit":
        n = len(ctx.athletes)
        if n and n < rule.min:
            out.append(Violation(
                "ENTRY_MINIMUM",
                f"本代表团只有运动员 {n} 人；本次比赛每单位至少须报运动员 {rule.min} 人。",
                f"This delegation has {_players(n, True)}; each unit must enter at least {_players(rule.min, True)}.",
                people=tuple(ctx.athletes)))
        return out
    for event in rule.events:
        if rule.per == "event":
            refs = ctx.entrants.get(event, [])
            if refs and len(refs) < rule.min:
                out.append(Violation(
                    "ENTRY_MINIMUM",
                    f"{ctx.event_name(event)}只报了 {len(refs)} 人；报名本项目的单位至少须报 {rule.min} 人。",
                    f"{ctx.event_name(event, 'en')}: {_players(len(refs), True)} entered; a unit entering it "
                    f"must enter at least {_players(rule.min, True)}.",
                    event=event, people=tuple(refs)))
            continue
        for entry in ctx.entries_by_event.get(event, []):
            refs = list(dict.fromkeys(entry.all_people()))
            if len(refs) < rule.min:
                out.append(Violation(
                    "ENTRY_MINIMUM",
                    f"{ctx.event_name(event)} {ctx.team_label(entry)} 队只有 {len(refs)} 人；每队至少须有运动员 {rule.min} 人。",
                    f"{ctx.event_name(event, 'en')}, team {ctx.team_label(entry)}: {_players(len(refs), True)}; "
                    f"each team needs at least {_players(rule.min, True)}.",
                    event=event, people=tuple(refs)))
    return out


def _events_text(ctx: CheckContext, codes, en: bool = False) -> str:
    sep = " or " if en else "或"
    return sep.join(ctx.event_name(c, "en" if en else "zh") for c in codes)


@rule_check("entry_requires")
def entry_requires(ctx: CheckContext, rule) -> list[Violation]:
    if any(ctx.entrants.get(code) for code in rule.requires):
        return []
    out = []
    for event in rule.events:
        refs = ctx.entrants.get(event, [])
        if len(refs) <= rule.beyond:
            continue
        need_zh, need_en = _events_text(ctx, rule.requires), _events_text(ctx, rule.requires, True)
        if rule.beyond:
            zh = (f"{ctx.event_name(event)}报了 {len(refs)} 人；超过 {rule.beyond} 人的部分须同时报名{need_zh}才可报。"
                  f"请报名{need_zh}，或把本项目减到 {rule.beyond} 人。")
            en = (f"{ctx.event_name(event, 'en')}: {_players(len(refs), True)} entered; more than {rule.beyond} only "
                  f"alongside an entry in {need_en}. Enter it, or keep {rule.beyond} here.")
        else:
            zh = f"{ctx.event_name(event)}须与{need_zh}同时报名；本代表团没有报{need_zh}。"
            en = f"{ctx.event_name(event, 'en')} may be entered only alongside {need_en}, which this delegation has not entered."
        out.append(Violation("ENTRY_REQUIRES", zh, en, event=event, people=tuple(refs)))
    return out


@rule_check("compulsory")
def compulsory(ctx: CheckContext, rule) -> list[Violation]:
    if not ctx.athletes:
        return []  # nothing entered yet: the page says what to do first
    missing = [code for code in rule.events if not ctx.entrants.get(code)]
    if rule.any_of and len(missing) < len(rule.events):
        return []
    if not missing:
        return []
    if rule.any_of:
        zh = f"每单位至少须报名以下项目之一：{_events_text(ctx, rule.events)}。"
        en = f"Each unit must enter at least one of: {_events_text(ctx, rule.events, True)}."
        return [Violation("ENTRY_REQUIRES", zh, en)]
    return [Violation("ENTRY_REQUIRES", f"{ctx.event_name(code)}是必报项目，本代表团还没有报名。",
                      f"{ctx.event_name(code, 'en')} must be entered by every unit; this delegation has not entered it.",
                      event=code) for code in missing]


ROLE_NAMES = {"leader": ("领队", "leader"), "coach": ("教练", "coach"), "leader_coach": ("领队兼教练", "leader-coach")}


@rule_check("officials_ratio")
def officials_ratio(ctx: CheckContext, rule) -> list[Violation]:
    mine = [o for o in ctx.delegation.officials if o.role in rule.roles
            and (rule.sport is None or o.sport in (rule.sport, None))]
    if not mine:
        return []
    athletes = [r for r in ctx.athletes
                if rule.sport is None or any(ctx.events[e].sport == rule.sport for e in ctx.events_of[r])]
    n = len(athletes)
    ratio = n / rule.per_athletes
    allowed = max(rule.at_least, math.ceil(ratio) if rule.rounding == "up" else math.floor(ratio))
    people = list(dict.fromkeys(o.person for o in mine))
    if len(people) <= allowed:
        return []
    roles_zh = "、".join(ROLE_NAMES[r][0] for r in rule.roles)
    roles_en = " or ".join(ROLE_NAMES[r][1] for r in rule.roles)
    sport = next((s for s in ctx.games.sports if s.code == rule.sport), None)
    where_zh = f"{sport.name.zh}" if sport else ""
    where_en = f" in {sport.name.en}" if sport else ""
    return [Violation(
        "OFFICIALS_LIMIT",
        f"{where_zh}报了{roles_zh} {len(people)} 人（{names(ctx, people)}）；规程规定每 {rule.per_athletes} 名运动员可报 1 人，"
        f"本代表团{where_zh}运动员 {n} 人，最多可报 {allowed} 人。",
        f"{len(people)} {roles_en}{'s' if len(people) != 1 else ''}{where_en} ({names(ctx, people, 'en')}); "
        f"the regulation allows one per "
        f"{rule.per_athletes} athletes: with {n} athlete{'s' if n != 1 else ''}, at most {allowed}.",
        people=tuple(people))]


@rule_check("companion_required")
def companion_required(ctx: CheckContext, rule) -> list[Violation]:
    on = rule.age_on or ctx.games.dates.start
    accompanied = {c.accompanies for c in ctx.delegation.companions if c.accompanies}
    out = []
    for ref in ctx.who(rule.who):
        born = ctx.birth.get(ref)
        if born is None:
            continue
        age = age_on(born, on)
        if age < rule.min_age or ref in accompanied:
            continue
        p = ctx.people[ref]
        out.append(Violation(
            "COMPANION_REQUIRED",
            f"{p.label} 到 {on} 时 {age} 岁；规程规定 {rule.min_age} 岁以上的参赛者须有家属陪同。请在“随队人员”中登记陪同的人，并注明陪同 {p.label}。",
            f"{p.label} is {age} on {on}; entrants {rule.min_age} or older must come with a family member. "
            f"Add the companion under companions, accompanying {p.label}.",
            people=(ref,)))
    return out


@rule_check("event_units")
def event_units(ctx: CheckContext, rule) -> list[Violation]:
    d = ctx.delegation
    if isinstance(d.unit, str):
        ok = d.unit in rule.units or (ctx.unit is not None and ctx.unit.kind in rule.unit_kinds)
        who_zh = ctx.unit.name.zh if ctx.unit else d.unit
        who_en = ctx.unit.name.en if ctx.unit else d.unit
    elif isinstance(d.unit, dict):
        ok, who_zh = rule.open_units, d.unit.get("name") or ""
        who_en = who_zh
    else:
        ok, who_zh, who_en = rule.individuals, "个人报名", "an individual entry"
    if ok:
        return []
    if rule.name is not None:
        allowed_zh, allowed_en = rule.name.zh, rule.name.en
    else:
        kinds = unit_kind_names(ctx.games)
        zh = [kinds[k][0] for k in rule.unit_kinds] + (["受邀单位"] if rule.units else []) \
            + (["俱乐部、学校等单位"] if rule.open_units else []) + (["个人"] if rule.individuals else [])
        en = [kinds[k][1] for k in rule.unit_kinds] + (["the units invited"] if rule.units else []) \
            + (["clubs, schools and other units"] if rule.open_units else []) + (["individuals"] if rule.individuals else [])
        allowed_zh, allowed_en = "、".join(zh) or "指定单位", ", ".join(en) or "the units named"
    return [Violation(
        "UNIT_NOT_ELIGIBLE",
        f"{who_zh}不能报名{ctx.event_name(event)}：本项目只限{allowed_zh}报名。",
        f"{who_en} may not enter {ctx.event_name(event, 'en')}: it is open only to {allowed_en}.",
        event=event, people=tuple(ctx.entrants.get(event, [])))
        for event in rule.events if ctx.entrants.get(event)]


@rule_check("cross_gender")
def cross_gender(ctx: CheckContext, rule) -> list[Violation]:
    """The rule widens GENDER_NOT_ALLOWED and the counting of teams by gender (see
    CheckContext.gender_in); it reports nothing of its own."""
    return []
