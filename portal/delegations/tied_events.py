"""Which events a substitution changes together, as the regulation ties them (pure: the
Games' definition and a delegation's document in)."""
from __future__ import annotations

from ..rules.definition import GamesDefinition, TeamMakeupRule
from .edit import entry_people


def tied_events(definition: GamesDefinition, event: str) -> set[str]:
    """The events a substitution in `event` must change together: a team whose members
    must also play their group's individual event (youth-gomoku-2015 四: 团体赛以个人赛
    成绩计算) ties the team event and those individual events."""
    tied = {event}
    for rule in definition.rules_of(TeamMakeupRule):
        individual = set((rule.members_entered_in or {}).values())
        if event in rule.events or event in individual:
            tied |= set(rule.events) | individual
    return tied


def also_replaced(definition: GamesDefinition, document: dict, event: str, out_ref: str) -> list[tuple[str, str]]:
    """(event, clause) of the other events in which a substitution in `event` replaces
    `out_ref` too, as the regulation ties them: told to the leader, never done silently."""
    out = []
    for rule in definition.rules_of(TeamMakeupRule):
        tied = set(rule.events) | set((rule.members_entered_in or {}).values())
        if event not in tied:
            continue
        for entry in document["entries"]:
            code = entry["event"]
            if code != event and code in tied and out_ref in entry_people(entry) and code not in (c for c, _ in out):
                out.append((code, rule.clause or ""))
    return out


