"""Who may be entered in an event, person by person, so that pickers offer only them: the
event's gender (a woman admitted to a men's event by a rating exception counts), its age
bracket, and for a team whose members must play the matching individual event, an entry
there. The engine still judges whatever is typed; this only narrows the suggestions.
Works on the delegation/1 document (plain dicts), pure."""
from __future__ import annotations

import datetime as dt

from .definition import AgeBracketRule, CrossGenderRule, GamesDefinition, RatingExceptionRule, TeamMakeupRule


def _date(value) -> dt.date | None:
    try:
        return dt.date.fromisoformat(value) if isinstance(value, str) else value
    except ValueError:
        return None


def _entered(doc: dict) -> dict[str, set[str]]:
    out: dict[str, set[str]] = {}
    for e in doc.get("entries") or []:
        refs = [s["person"] for s in e["lineup"]] if e.get("lineup") is not None else e.get("people") or []
        out.setdefault(e["event"], set()).update(refs)
    return out


def eligible(definition: GamesDefinition, doc: dict, event_code: str) -> set[str]:
    """The refs of the document's people who could be entered in `event_code`."""
    event = next((e for e in definition.events if e.code == event_code), None)
    people = doc.get("people") or []
    if event is None:
        return {p["ref"] for p in people}
    brackets = [r for r in definition.rules_of(AgeBracketRule) if event_code in r.events]
    exceptions = [r for r in definition.rules_of(RatingExceptionRule) if event_code in r.events]
    crossing = {r.gender for r in definition.rules_of(CrossGenderRule) if event_code in r.events}
    makeup = [r for r in definition.rules_of(TeamMakeupRule)
              if event_code in r.events and r.members_entered_in]
    entered = _entered(doc) if makeup else {}
    out = set()
    for p in people:
        gender = p.get("gender")
        if event.gender in ("M", "F") and gender and gender != event.gender and gender not in crossing:
            rating = p.get("fide_rating") or {}
            if not any(r.gender == gender and (rating.get("value") or 0) >= r.min_rating
                       and _date(rating.get("list")) == r.list for r in exceptions):
                continue
        born = _date(p.get("birth_date"))
        if born and any((r.born_from and born < r.born_from) or (r.born_to and born > r.born_to) for r in brackets):
            continue
        if makeup and gender:
            needed = [r.members_entered_in.get(gender) for r in makeup if r.members_entered_in.get(gender)]
            if needed and not all(p["ref"] in entered.get(code, set()) for code in needed):
                continue
        out.add(p["ref"])
    return out
