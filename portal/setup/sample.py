"""A sample delegation for trying a Games' rules before anyone enters: one player for each
of the first individual events, born inside the event's age group, with a valid ID number;
the organiser edits it and sees what the engine says."""
from __future__ import annotations

import datetime as dt

from ..rules.definition import AgeBracketRule, GamesDefinition, RegistrationRule
from ..rules.idnumber import make

SAMPLE_EVENTS = 4


def sample_document(definition: GamesDefinition, unit: str | None) -> dict:
    brackets = {code: r for r in definition.rules_of(AgeBracketRule) for code in r.events}
    registration = next(iter(definition.rules_of(RegistrationRule)), None)
    people, entries = [], []
    for i, event in enumerate([e for e in definition.events if not e.is_team][:SAMPLE_EVENTS], start=1):
        bracket = brackets.get(event.code)
        born = (bracket.born_from or bracket.born_to) if bracket else dt.date(1995, 5, 5)
        person = {"ref": f"p{i}", "name": f"示例{i}号", "gender": "F" if event.gender == "F" else "M",
                  "birth_date": born.isoformat(), "id_type": "resident_id",
                  "id_number": make("330102", born, 10 + 2 * i + (0 if event.gender == "F" else 1)), "documents": []}
        if registration is not None and unit:
            person["registration"] = {"unit": unit, "year": registration.year}
        people.append(person)
        entries.append({"event": event.code, "people": [person["ref"]]})
    return {"format": "delegation/1", "games": definition.slug, "unit": unit, "declarations": [], "people": people,
            "entries": entries, "officials": [], "staff": [], "companions": []}
