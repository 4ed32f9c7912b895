"""A sample delegation for trying a Games' rules before anyone enters (issue 37, 7): built
to satisfy each rule as it is written: a player for each of the first individual events
(born inside the event's age group, of its gender, with a valid ID number, registered to
the unit for the year asked, with the documents due at entry and, for a university event,
a full-time student of a public university not graduating before the date), and a team
for a team event with the starters its make-up asks. When the engine still refuses a
person built for a rule, the rule refuses everyone it was built for: a trap the try page
names. The organiser edits the sample and sees what the engine says."""
from __future__ import annotations

import datetime as dt

from ..rules.definition import (
    AgeBracketRule,
    BoardRule,
    DocumentsRule,
    EmploymentRule,
    GamesDefinition,
    GradeRule,
    NationalityRule,
    RatingRule,
    RegistrationRule,
    ResidenceRule,
    TeamMakeupRule,
    UniversityRule,
)
from ..rules.grades import grade_systems
from ..rules.idnumber import make

SAMPLE_EVENTS = 4
SAMPLE_UNIVERSITY = "4133010335"  # 浙江大学: public, undergraduate, on the national list


class _People:
    def __init__(self, definition: GamesDefinition, unit: str | None, university: str | None):
        self.definition, self.unit, self.university = definition, unit, university
        self.people: list[dict] = []
        self.brackets = {code: r for r in definition.rules_of(AgeBracketRule) for code in r.events}
        self.registration = next(iter(definition.rules_of(RegistrationRule)), None)
        self.universities = {code: r for r in definition.rules_of(UniversityRule) for code in r.events}
        self.documents = [r for r in definition.rules_of(DocumentsRule) if r.due == "entry" and r.who != "delegation"]

    def add(self, event: str, gender: str) -> str:
        n = len(self.people) + 1
        bracket = self.brackets.get(event)
        born = (bracket.born_from or bracket.born_to) if bracket else dt.date(1995, 5, 5)
        person = {"ref": f"p{n}", "name": f"示例{n}号", "gender": gender, "birth_date": born.isoformat(),
                  "id_type": "resident_id", "id_number": make("330102", born, 10 + 2 * n + (0 if gender == "F" else 1)),
                  "documents": sorted({k for r in self.documents if r.events is None or event in r.events
                                       for k in r.documents})}
        if self.registration is not None and self.unit:
            person["registration"] = {"unit": self.unit, "year": self.registration.year}
        rule = self.universities.get(event)
        if rule is not None and self.university:
            graduates = (rule.not_graduated_before or dt.date(self.definition.dates.end.year, 12, 31)) + \
                dt.timedelta(days=365)
            person["university"] = {"code": self.university, "full_time": True,
                                    "graduation_date": graduates.isoformat()}
        self._career(person, event)
        self.people.append(person)
        return person["ref"]

    def _career(self, person: dict, event: str) -> None:
        """The grade, rating, residence, nationality and tie to the unit each rule of the
        event asks for."""
        d, systems = self.definition, grade_systems(self.definition)
        for r in d.rules_of(GradeRule):
            if event in r.events:
                ladder = systems[r.system]
                word = r.lowest or r.highest or ladder.ladder[0]
                person.setdefault("grades", []).append(
                    {"system": r.system, "grade": ladder.word(word), "awarded_on": (r.held_on or d.dates.start).isoformat()})
        for r in d.rules_of(RatingRule):
            if event in r.events:
                value = r.min_rating if r.min_rating is not None else r.max_rating
                person.setdefault("ratings", {})[r.list] = {"value": value,
                                                           "list": (r.list_on or d.dates.start).isoformat()}
        for r in d.rules_of(ResidenceRule):
            if not r.events or event in r.events:
                person["residence"] = {"province": r.regions[0].ljust(6, "0"), "since": "2000-01-01"}
        for r in d.rules_of(NationalityRule):
            if not r.events or event in r.events:
                person["nationality"] = r.nationalities[0]
        for r in d.rules_of(EmploymentRule):
            if event in r.events and self.unit:
                kind = r.kinds[0]
                person["employment"] = {"unit": self.unit, "kind": kind,
                                        "since": (d.dates.start - dt.timedelta(days=200)).isoformat()}


def _once(events: list) -> list:
    seen, out = set(), []
    for e in events:
        if e.code not in seen:
            seen.add(e.code)
            out.append(e)
    return out


def sample_document(definition: GamesDefinition, unit: str | None, university: str | None = SAMPLE_UNIVERSITY) -> dict:
    """The sample; `unit`: a unit that may enter (a kind the Games takes, or one invited);
    `university`: the code its university players study at."""
    made = _People(definition, unit, university)
    entries = []
    # The first events, and one event of each university rule: every kind of person a rule
    # is about is in the sample (a rule that refuses him is a trap the page names).
    about = [r.events[0] for r in definition.rules_of(UniversityRule) if r.events]
    singles = [e for e in definition.events if not e.is_team]
    for event in _once(singles[:SAMPLE_EVENTS] + [e for e in singles if e.code in about]):
        entries.append({"event": event.code, "people": [made.add(event.code, "F" if event.gender == "F" else "M")]})
    makeups = {code: r for r in definition.rules_of(TeamMakeupRule) for code in r.events}
    boards = {code: r for r in definition.rules_of(BoardRule) for code in r.events}
    teams = [e for e in definition.events if e.is_team]
    for event in _once(teams[:1 if entries else 2] + [e for e in teams if e.code in about]):
        rule = makeups.get(event.code)
        wanted = dict(rule.starters) if rule and rule.starters else {"F" if event.gender == "F" else "M": 4}
        for g, n in (rule.min_by_gender or {}).items() if rule else ():
            wanted[g] = max(wanted.get(g, 0), n)
        board = boards.get(event.code)
        if board is not None:  # the boards' genders as the rule pins them, the rest as wanted
            pinned = [board.board_gender.get(b) for b in range(1, board.boards + 1)]
            free = [g for g, n in wanted.items() for _i in range(n)]
            for g in pinned:
                if g in free:
                    free.remove(g)
            order = [g or (free.pop(0) if free else "M") for g in pinned]
        else:
            order = [g for g, n in wanted.items() for _i in range(n)]
        lineup = []
        for seat, g in enumerate(order, start=1):
            ref = made.add(event.code, g)
            lineup.append({"person": ref, **({"board": seat} if board is not None else {})})
            individual = (rule.members_entered_in or {}).get(g) if rule else None
            if individual:  # its members play the individual event too
                entry = next((e for e in entries if e["event"] == individual), None)
                if entry is None:
                    entries.append({"event": individual, "people": [ref]})
                else:
                    entry["people"].append(ref)
        entries.append({"event": event.code, "team": "A", "lineup": lineup})
    return {"format": "delegation/1", "games": definition.slug, "unit": unit, "declarations": [],
            "people": made.people, "entries": entries, "officials": [], "staff": [], "companions": []}


def with_team(sample: dict, definition: GamesDefinition, event: str, label: str, refs: list[str]) -> dict:
    """The sample with a team of `refs` in a team event (replacing its team of the same
    label): boards 1, 2... in the order given where the event has boards, the rest reserves.
    The try page's form, so that nobody edits JSON to add a team."""
    boards = next((r.boards for r in definition.rules_of(BoardRule) if event in r.events), None)
    lineup = []
    for i, ref in enumerate(refs, start=1):
        if boards is None:
            lineup.append({"person": ref})
        else:
            lineup.append({"person": ref, "board": i} if i <= boards else {"person": ref, "reserve": True})
    entries = [e for e in sample.get("entries", []) if not (e.get("event") == event and (e.get("team") or "A") == label)]
    return {**sample, "entries": [*entries, {"event": event, "team": label, "lineup": lineup}]}


def with_person(sample: dict, definition: GamesDefinition, name: str, gender: str, born: dt.date,
                event: str | None) -> dict:
    """The sample with one more person (a valid ID number for his birth date and gender),
    entered in `event` when given: the try page's form, so that nobody edits JSON to add one."""
    refs = {p.get("ref") for p in sample.get("people", []) if isinstance(p, dict)}
    n = len(refs) + 1
    while f"p{n}" in refs:
        n += 1
    ref = f"p{n}"
    person = {"ref": ref, "name": name or f"示例{n}号", "gender": gender, "birth_date": born.isoformat(),
              "id_type": "resident_id", "id_number": make("330102", born, 100 + 2 * n + (0 if gender == "F" else 1)),
              "documents": sorted({k for r in definition.rules_of(DocumentsRule) if r.due == "entry" and r.who != "delegation"
                                   and (r.events is None or event in r.events) for k in r.documents})}
    registration = next(iter(definition.rules_of(RegistrationRule)), None)
    if registration is not None and sample.get("unit"):
        person["registration"] = {"unit": sample["unit"], "year": registration.year}
    if event:  # the grade, residence... the event's rules ask for, as the sample's own people have
        _People(definition, sample.get("unit") if isinstance(sample.get("unit"), str) else None, None)._career(person, event)
    out = {**sample, "people": [*sample.get("people", []), person]}
    if event:
        entries = [dict(e) for e in sample.get("entries", [])]
        entry = next((e for e in entries if e.get("event") == event and "people" in e), None)
        if entry is None:
            entries.append({"event": event, "people": [ref]})
        else:
            entry["people"] = [*entry["people"], ref]
        out["entries"] = entries
    return out
