"""What the organisers' pages show: a Games' stage in words, the queue's unit filter, and
on the review page a delegation's roster at a glance and the people a return may name."""
from __future__ import annotations

from ..delegations.edit import entry_people
from ..delegations.models import Delegation
from ..delegations.workspace import role_name
from ..games.models import Games
from ..games.services import definition_of
from ..rules.stages import stage_at, stage_name


def _stage_label(games: Games, at):
    stages = definition_of(games).stages
    info = stage_at(stages, at)
    return info, stage_name(stages, info.stage)


def _unit_filter(value: str):
    """"d<id>" picks one delegation (a club has no unit code); else a unit code."""
    if value.startswith("d") and value[1:].isdigit() and len(value) < 12:
        return Delegation.id == int(value[1:])
    return Delegation.unit_code == value


RETURN_CHOICES = 200  # a select of 2,000 people is no help and a tenth of the page


def _returnable_people(ws) -> list[tuple[str, str]]:
    """The people a return may name: everyone in a delegation of up to RETURN_CHOICES,
    else those with problems, errors first (any other is named in the reason)."""
    people = ws.doc["people"]
    if len(people) > RETURN_CHOICES:
        errors = {ref for v in ws.violations if v.is_error for ref in v.people}
        warned = {ref for v in ws.violations for ref in v.people}
        people = sorted((p for p in people if p["ref"] in warned), key=lambda p: p["ref"] not in errors)[:RETURN_CHOICES]
    return [(f"person:{p['ref']}", p["name"]) for p in people]


ROSTER_NAMES = 40


def _roster(ws) -> list[dict]:
    """The delegation at a glance for the reviewer: each event (or team) with its players,
    then officials and staff; long lists cut at ROSTER_NAMES names."""
    out = []
    for e in ws.doc["entries"]:
        refs = entry_people(e)
        label = ws.event_label(e["event"]) + (f" {e['team']}" if e.get("lineup") is not None and e.get("team") else "")
        out.append({"label": label, "names": [ws.label(r) for r in refs[:ROSTER_NAMES]], "count": len(refs)})
    for section in ("officials", "staff"):
        by_role: dict[str, list[str]] = {}
        for x in ws.doc.get(section) or []:
            by_role.setdefault(x["role"], []).append(ws.label(x["person"]))
        for role, names in by_role.items():
            out.append({"label": role_name(ws, role), "names": names[:ROSTER_NAMES], "count": len(names)})
    return out
