"""What every check works with: the context of one delegation's judgement (its people,
entries, unit and what the outside world told the engine), the registries the checks add
themselves to, and the helpers they name people and deadlines with. The engine (engine.py)
runs the registered checks; the checks (checks/) import this module, never the engine."""
from __future__ import annotations

import datetime as dt
from collections import defaultdict
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field

from . import grades, idnumber
from .definition import CrossGenderRule, Event, GamesDefinition, RatingExceptionRule, UnitInfo, UniversityInfo
from .document import ParsedDelegation, ParsedEntry, ParsedPerson
from .violations import Violation

CHINA = dt.timezone(dt.timedelta(hours=8), "CST")


def format_deadline(closes: dt.datetime) -> str:
    """A closing instant as people say it in China time: 1 Sep 00:00 is "8-31 24:00"."""
    local = closes.astimezone(CHINA)
    if (local.hour, local.minute, local.second) == (0, 0, 0):
        return f"{(local - dt.timedelta(days=1)):%Y-%m-%d} 24:00"
    return f"{local:%Y-%m-%d %H:%M}" + (f":{local:%S}" if local.second else "")


def names(ctx: CheckContext, refs: Iterable[str], lang: str = "zh") -> str:
    labels = [ctx.people[r].label if r in ctx.people else r for r in refs]
    return ("、" if lang == "zh" else ", ").join(labels)


@dataclass
class CheckContext:
    games: GamesDefinition
    delegation: ParsedDelegation
    at: dt.datetime
    unit: UnitInfo | None = None
    universities: Mapping[str, UniversityInfo] = field(default_factory=dict)
    # Identity numbers held by other delegations of these Games -> who holds them, or "" where
    # the reader may not learn who (a leader, an entrant): see checks.identity.duplicates.
    other_id_numbers: Mapping[str, str] = field(default_factory=dict)
    # Events this unit lost at these Games (unexcused withdrawal at the previous edition).
    sanctioned: Mapping[str, str] = field(default_factory=dict)
    # Who qualified for these Games elsewhere: (identity number, qualifier's slug, its series);
    # None where it is not known (a document judged alone): the qualification is not judged.
    qualified: frozenset[tuple[str, str, str]] | None = None
    # Identity number -> (zh, en) why, of players barred from these Games (the series' forfeits).
    barred_people: Mapping[str, tuple[str, str]] = field(default_factory=dict)
    # The documents the delegation itself has on file (None: not known, a document judged alone).
    delegation_documents: frozenset[str] | None = None
    # Unit code -> (zh, en) name, so that another unit a person names reads by its name.
    unit_names: Mapping[str, tuple[str, str]] = field(default_factory=dict)
    # The institutions the organisers admitted into the delegation as one joint team (联队).
    joint_with: frozenset[str] = frozenset()

    def __post_init__(self):
        d = self.delegation
        self.events: dict[str, Event] = {e.code: e for e in self.games.events}
        self.people: dict[str, ParsedPerson] = {p.ref: p for p in d.people}
        # Entries in events these Games have; unknown ones are reported once and skipped.
        self.entries: list[ParsedEntry] = [e for e in d.entries if e.event in self.events]
        self.entries_by_event: dict[str, list[ParsedEntry]] = defaultdict(list)
        self.entrants: dict[str, list[str]] = defaultdict(list)
        self.events_of: dict[str, list[str]] = defaultdict(list)
        for entry in self.entries:
            self.entries_by_event[entry.event].append(entry)
            for ref in entry.all_people():
                if ref not in self.entrants[entry.event]:
                    self.entrants[entry.event].append(ref)
                if entry.event not in self.events_of[ref]:
                    self.events_of[ref].append(entry.event)
        self.athletes: list[str] = [p.ref for p in d.people if p.ref in self.events_of]
        # Birth date and gender: declared, else derived from a valid resident ID number.
        self.resident_ids: dict[str, idnumber.ResidentId] = {}
        self.id_problems: dict[str, str] = {}
        for p in d.people:
            if p.id_number and p.id_type in ("resident_id", "household_register"):
                parsed, problem = idnumber.parse(p.id_number, today=self.at.date())
                if parsed:
                    self.resident_ids[p.ref] = parsed
                else:
                    self.id_problems[p.ref] = problem
        self.birth = {p.ref: p.birth_date or getattr(self.resident_ids.get(p.ref), "birth_date", None)
                      for p in d.people}
        self.gender = {p.ref: p.gender or getattr(self.resident_ids.get(p.ref), "gender", None)
                       for p in d.people}
        self._rating_rules = self.games.rules_of(RatingExceptionRule)
        self.grade_systems = grades.grade_systems(self.games)
        self.rating_lists = grades.rating_lists(self.games)
        # "Women may enter men's events": gender -> the events it may cross into.
        self._crossing: dict[str, set[str]] = defaultdict(set)
        for rule in self.games.rules_of(CrossGenderRule):
            self._crossing[rule.gender].update(rule.events)

    # -- helpers shared by checks ------------------------------------------------------
    def who(self, who: str) -> list[str]:
        d = self.delegation
        if who == "athletes":
            return list(self.athletes)
        if who == "officials":
            return _unique(o.person for o in d.officials)
        if who == "staff":
            return _unique(s.person for s in d.staff)
        if who == "companions":
            return _unique(c.person for c in d.companions)
        return [p.ref for p in d.people]

    def rating_exception(self, ref: str, event: str) -> RatingExceptionRule | None:
        """The rating rule that lets this person play this event, if any."""
        p = self.people.get(ref)
        if p is None or p.fide_rating is None:
            return None
        for rule in self._rating_rules:
            if (event in rule.events and self.gender.get(ref) == rule.gender
                    and p.fide_rating >= rule.min_rating
                    # Only a rating on the list the regulation names counts; a rating
                    # given without its list, or on another, is RATING_LIST_REQUIRED.
                    and p.fide_list == rule.list):
                return rule
        return None

    def rating_claim_without_its_list(self, ref: str, event: str) -> RatingExceptionRule | None:
        """The rating rule this person seems to claim for this event (rated high enough,
        of the rule's gender) with a missing or different rating list."""
        p = self.people.get(ref)
        if p is None or p.fide_rating is None:
            return None
        for rule in self._rating_rules:
            if (event in rule.events and self.gender.get(ref) == rule.gender
                    and p.fide_rating >= rule.min_rating and p.fide_list != rule.list):
                return rule
        return None

    def gender_in(self, ref: str, event: str) -> str | None:
        """The gender a person counts as in an event (a woman admitted to a men's event by
        the rating rule, or by a cross_gender rule, counts as one of its men)."""
        g = self.gender.get(ref)
        target = self.events[event].gender
        if g and target in ("M", "F") and g != target and (
                self.rating_exception(ref, event) or event in self._crossing.get(g, ())):
            return target
        return g

    # The unit's best place in each event at the series' previous edition (event -> place);
    # None where it is not known (a document judged alone): no bonus is given.
    placed_before: Mapping[str, int] | None = None

    def placed_extra(self, bonus, events: list[str]) -> int:
        """What a rule's placed_bonus adds for this unit: its `extra` when the unit placed in
        the first `top` of the bonus's events (the rule's own when none) last edition."""
        return bonus.for_unit(self.placed_before, events) if bonus is not None else 0

    def qualified_refs(self, by: list[str]) -> set[str] | None:
        """The people qualified for these Games by one of `by` (a qualifier's slug or series,
        any when empty), or by the organisers' hand; None when not known (judged alone)."""
        if self.qualified is None:
            return None
        numbers = {number for number, slug, series in self.qualified
                   if not by or slug == "*" or slug in by or series in by}
        return {ref for ref, p in self.people.items() if p.id_number and idnumber.normalise(p.id_number) in numbers}

    def event_name(self, code: str, lang: str = "zh") -> str:
        e = self.events.get(code)
        if e is None:
            return code
        sport = next((s for s in self.games.sports if s.code == e.sport), None)
        # The event by its name only: a code is the portal's, never the reader's (the
        # violation carries it in `event`).
        if lang == "en":
            return f"{sport.name.en + ' ' if sport else ''}{e.name.en}"
        return f"{sport.name.zh if sport else ''}{e.name.zh}"

    def unit_name(self, code: str, lang: str = "zh") -> str:
        """A unit by its name (a code the portal does not know, as it was typed)."""
        name = self.unit_names.get(code)
        return (name[1] if lang == "en" else name[0]) if name else code

    def team_label(self, entry: ParsedEntry) -> str:
        return entry.team or "A"


def _unique(refs: Iterable[str]) -> list[str]:
    out: list[str] = []
    for r in refs:
        if r not in out:
            out.append(r)
    return out


Check = Callable[[CheckContext, object], list[Violation]]
_RULE_CHECKS: dict[str, Check] = {}
_BUILTIN_CHECKS: list[Callable[[CheckContext], list[Violation]]] = []


def rule_check(kind: str):
    """Register the check for a rule kind of the fixture."""
    def register(fn):
        _RULE_CHECKS[kind] = fn
        return fn
    return register


def builtin_check(fn):
    """Register a check that every Games gets (driven by the Games' data)."""
    _BUILTIN_CHECKS.append(fn)
    return fn
