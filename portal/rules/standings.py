"""Places, points and the medal table from final results, as a Games' awards say
(nmsg-2009 总则 九, which the national Games' fixtures carry):

- (一) each event places its first `places` (6); an event with fewer than 6 entrants (people,
  pairs or teams) places only its first `places_if_fewer_than_6` (3);
- (三) 1st-3rd count as gold, silver and bronze; places score `points` (13-8-5-3-2-1), team
  events with 3 or more players on the board `points_team_3_or_more` (17-11-7-4-3-2), events
  placing only three `points_top3_only` (5-3-2);
- (四) tied places leave the next place(s) empty, and each tied entrant scores the average of
  the points of the places they fill together;
- (五) medal table: more golds, then silvers, then bronzes first, equal counts share a rank;
  points table: more points first, equal totals share a rank.

Pure: definitions and results in, standings out."""
from __future__ import annotations

from dataclasses import dataclass, field
from decimal import Decimal
from fractions import Fraction

from .definition import BoardRule, GamesDefinition, TeamMakeupRule


@dataclass
class Placing:
    event: str
    place: int
    unit: str          # the delegation's key (unit code or name)
    label: str = ""    # who: a player's or a team's name
    points: Decimal = Decimal("0")
    medal: str | None = None  # gold, silver, bronze


@dataclass
class UnitStanding:
    unit: str
    gold: int = 0
    silver: int = 0
    bronze: int = 0
    points: Decimal = Decimal("0")
    medal_rank: int = 0
    points_rank: int = 0
    placings: list[Placing] = field(default_factory=list)


class ResultsError(ValueError):
    """Results that cannot stand (a place out of range, a gap where no tie explains it)."""


def points_table(definition: GamesDefinition, event_code: str, entrants: int) -> list[int]:
    """The points of places 1..n for this event, or [] where the awards give no points."""
    awards = definition.awards or {}
    if "points" not in awards:
        return []
    few = awards.get("places_if_fewer_than_6")
    if few is not None and entrants < 6:
        return list(awards.get("points_top3_only") or awards["points"][:few])[:few]
    if _players_on_board(definition, event_code) >= 3 and awards.get("points_team_3_or_more"):
        return list(awards["points_team_3_or_more"])[: awards.get("places", 6)]
    return list(awards["points"])[: awards.get("places", 6)]


def _players_on_board(definition: GamesDefinition, event_code: str) -> int:
    event = next((e for e in definition.events if e.code == event_code), None)
    if event is None or not event.is_team:
        return 1
    listed = (definition.awards or {}).get("events_3_or_more_on_board")
    if listed is not None and event_code in listed:
        return 3
    for rule in definition.rules_of(BoardRule):
        if event_code in rule.events:
            return rule.boards
    for rule in definition.rules_of(TeamMakeupRule):
        if event_code in rule.events and rule.starters:
            return sum(rule.starters.values())
    return 2  # a pair (bridge pairs, doubles): under three


def score_event(definition: GamesDefinition, event_code: str, entrants: int,
                results: list[tuple[int, str, str]]) -> list[Placing]:
    """results: (place, unit, label) for the placed entrants; ties share a place, and the
    places they fill are left empty after them (1, 2, 2, 4). Returns the placings with
    points and medals, or raises ResultsError naming the problem."""
    table = points_table(definition, event_code, entrants)
    placed = len(table) if table else None
    ordered = sorted(results, key=lambda r: r[0])
    out = []
    expected = 1
    i = 0
    while i < len(ordered):
        place = ordered[i][0]
        if place != expected:
            raise ResultsError(f"{event_code}：第 {place} 名处应为第 {expected} 名（并列名次之后的名次空出）/ "
                               f"place {place} where {expected} was expected (tied places leave the next ones empty)")
        tied = [r for r in ordered[i:] if r[0] == place]
        filled = range(place, place + len(tied))
        if placed is not None and place > placed:
            raise ResultsError(f"{event_code}：参赛 {entrants} 人（对、队），只录取前 {placed} 名 / "
                               f"{entrants} entrants: only the first {placed} places are awarded")
        share = Fraction(sum(table[p - 1] for p in filled if p <= len(table)), len(tied)) if table else Fraction(0)
        for _place, unit, label in tied:
            out.append(Placing(event_code, place, unit, label, _decimal(share),
                               {1: "gold", 2: "silver", 3: "bronze"}.get(place)))
        expected = place + len(tied)
        i += len(tied)
    return out


def standings(placings: list[Placing]) -> list[UnitStanding]:
    """Medal and points tables of the units, in medal-table order."""
    units: dict[str, UnitStanding] = {}
    for p in placings:
        u = units.setdefault(p.unit, UnitStanding(p.unit))
        u.placings.append(p)
        u.points += p.points
        if p.medal:
            setattr(u, p.medal, getattr(u, p.medal) + 1)
    rows = list(units.values())
    _rank(rows, lambda u: (u.gold, u.silver, u.bronze), "medal_rank")
    _rank(rows, lambda u: u.points, "points_rank")
    return sorted(rows, key=lambda u: (u.medal_rank, u.points_rank, u.unit))


def _rank(rows: list[UnitStanding], key, attr: str) -> None:
    ordered = sorted(rows, key=key, reverse=True)
    for i, u in enumerate(ordered):
        setattr(u, attr, i + 1 if i == 0 or key(ordered[i - 1]) != key(u) else getattr(ordered[i - 1], attr))


def _decimal(value: Fraction) -> Decimal:
    return (Decimal(value.numerator) / Decimal(value.denominator)).quantize(Decimal("0.01"))
