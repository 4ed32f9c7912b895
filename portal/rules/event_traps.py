"""Rules that together leave an event nobody can enter (a trap a committee sets alone):
each rule reads right in the read-back, and only their meeting shuts the event: a minimum
entry above the most a unit may enter, a team larger than the unit's quota, age groups that
do not overlap, an event kept to kinds of unit that may not enter the Games, an event played
only with more units (or entrants) than can ever enter it. Pure: a definition in, sentences
out; shown on the set-up page beside the rules."""
from __future__ import annotations

from .definition import (
    AgeBracketRule,
    EntryMinimumRule,
    EventMinimumRule,
    EventUnitsRule,
    GamesDefinition,
    QuotaRule,
    TeamMakeupRule,
    TeamSizeRule,
)


def _most_a_unit_may_enter(definition: GamesDefinition, event: str) -> int | None:
    """The most athletes any unit may enter in `event` by its quotas (a named unit's larger
    number counts: the event is open to that unit); a unit's total ("每单位运动员总数不超过
    12人") bounds each event it counts."""
    caps = [max([r.max, *r.max_by_unit.values()]) + (r.placed_bonus.extra if r.placed_bonus else 0)
            for r in definition.rules_of(QuotaRule)
            if (event in r.events if r.per == "event" else (not r.events or event in r.events)) and not r.qualified_exempt]
    return min(caps) if caps else None


def _smallest_team(definition: GamesDefinition, event: str) -> int | None:
    sizes = [r.min for r in definition.rules_of(TeamSizeRule) if event in r.events and r.min and r.count == "all"]
    sizes += [sum(r.starters.values()) for r in definition.rules_of(TeamMakeupRule) if event in r.events and r.starters]
    return max(sizes) if sizes else None


def _units_that_may_enter(definition: GamesDefinition, event: str) -> int | None:
    """How many units at most may enter `event`, where the regulation names them all: the
    invitation list of a Games that takes only those, or the units an event_units rule keeps
    the event to; None where kinds of unit, clubs or individuals may enter (no count here)."""
    p = definition.participation
    bounds = []
    if p.invited and not (p.unit_kinds or p.open_units or p.individuals):
        bounds.append(set(p.invited))
    for rule in definition.rules_of(EventUnitsRule):
        if event in rule.events and rule.units and not (rule.unit_kinds or rule.open_units or rule.individuals):
            bounds.append(set(rule.units))
    if not bounds:
        return None
    return len(set.intersection(*bounds))


def _minimum_traps(definition: GamesDefinition, named) -> list[tuple[str, str]]:
    """An event played only with `min` units (or entrants) where fewer can ever enter it."""
    out = []
    kinds = {e.code: e for e in definition.events}
    for rule in definition.rules_of(EventMinimumRule):
        then = (rule.says.zh, rule.says.en) if rule.says else ("不设比赛", "is not played")
        for code in rule.events:
            if code not in kinds:
                continue
            units = _units_that_may_enter(definition, code)
            if units is None:
                continue
            zh, en = named(code)
            if rule.count == "units" and units < rule.min:
                out.append((f"{zh}：报名单位不足 {rule.min} 个的项目{then[0]}，而能报这个项目的单位只有 {units} 个，这个项目开不成。",
                            f"{en}: an event with fewer than {rule.min} units entering {then[1]}, but only {units} "
                            f"units may enter it; it can never be played."))
            most = _most_a_unit_may_enter(definition, code)
            if rule.count == "entrants" and not kinds[code].is_team and most is not None and units * most < rule.min:
                out.append((f"{zh}：报名不足 {rule.min} 人的项目{then[0]}，而 {units} 个单位每单位最多报 {most} 人，"
                            f"至多 {units * most} 人，这个项目开不成。",
                            f"{en}: an event with fewer than {rule.min} entrants {then[1]}, but {units} units of at most "
                            f"{most} each make {units * most} at most; it can never be played."))
    return out


def event_traps(definition: GamesDefinition) -> list[tuple[str, str]]:
    """(zh, en) of each event the rules together shut to everyone."""
    names = {e.code: e for e in definition.events}
    sports = {s.code: s.name for s in definition.sports}
    out: list[tuple[str, str]] = []

    def named(code: str) -> tuple[str, str]:
        e = names[code]
        return f"{sports[e.sport].zh}{e.name.zh}", f"{sports[e.sport].en} {e.name.en}"

    for code, event in names.items():
        most = _most_a_unit_may_enter(definition, code)
        least = max([r.min for r in definition.rules_of(EntryMinimumRule) if r.per == "event" and code in r.events],
                    default=None)
        if most is not None and least is not None and least > most:
            zh, en = named(code)
            out.append((f"{zh}：报名的单位至少须报 {least} 人，而每单位最多只能报 {most} 人，没有单位能报这个项目。",
                        f"{en}: a unit entering it must enter at least {least}, but may enter at most {most}; "
                        f"no unit can enter it."))
        team = _smallest_team(definition, code) if event.is_team else None
        if most is not None and team is not None and team > most:
            zh, en = named(code)
            out.append((f"{zh}：每队至少 {team} 人，而每单位最多只能报 {most} 人，组不成一支队。",
                        f"{en}: a team needs at least {team} players, but a unit may enter at most {most}; "
                        f"no unit can field a team."))
        brackets = [r for r in definition.rules_of(AgeBracketRule) if code in r.events]
        latest_start = max((r.born_from for r in brackets if r.born_from), default=None)
        earliest_end = min((r.born_to for r in brackets if r.born_to), default=None)
        if latest_start and earliest_end and latest_start > earliest_end:
            zh, en = named(code)
            out.append((f"{zh}：几条年龄规则合起来要求出生日期不早于 {latest_start} 又不晚于 {earliest_end}，没有人符合。",
                        f"{en}: its age rules together ask for a birth date on or after {latest_start} and on or "
                        f"before {earliest_end}; nobody fits."))
    p = definition.participation
    for rule in definition.rules_of(EventUnitsRule):
        open_to = (set(rule.unit_kinds) & set(p.unit_kinds) or (rule.units and (p.unit_kinds or p.invited))
                   or (rule.open_units and p.open_units) or (rule.individuals and p.individuals))
        if not open_to:
            zh = "、".join(named(c)[0] for c in rule.events)
            en = ", ".join(named(c)[1] for c in rule.events)
            out.append((f"{zh}只限某些单位报名，但这些单位都不在本届比赛的参赛单位之列，没有人能报。",
                        f"{en} are kept to units that may not enter these Games at all; nobody can enter them."))
    return out + _minimum_traps(definition, named)
