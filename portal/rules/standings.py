"""Places, points, medals, prizes and derived standings from an event's final ranking, as
the Games' `awards` kinds say (awards.py). An event's results are its final ranking (every
player, as the pairing program prints it, or the placed ones); the places it awards
(录取名次) are the first N of them.

nmsg-2009 总则 九, carried by the national Games' fixtures:
- (一) six places; an event with fewer than 6 entrants (people, pairs or teams) places three;
- (三) 1st-3rd count as gold, silver and bronze; 13-8-5-3-2-1 points, 17-11-7-4-3-2 for team
  events with three or more on the board, 5-3-2 where only three are placed;
- (四) tied entrants leave the next place(s) empty and each scores the average of the points
  of the places they fill, kept as an exact fraction until it is printed;
- (五) medal table: more golds, then silvers, then bronzes; points table: more points; equal
  counts and equal exact totals share a rank.

Pure: definitions and results in, standings out."""
from __future__ import annotations

import datetime as dt
from dataclasses import dataclass, field
from decimal import ROUND_HALF_UP, Decimal
from fractions import Fraction

from ..text import InputProblems, Text
from .ages import age_on
from .awards import AgeStanding, GroupStanding, MedalsAward, PlacesAward, PointsAward, PrizesAward, TeamFromIndividuals, of_kind
from .definition import BoardRule, GamesDefinition, TeamMakeupRule

MEDALS = {1: "gold", 2: "silver", 3: "bronze"}


@dataclass
class Result:
    """One line of an event's final ranking."""
    place: int
    unit: str                      # the delegation's key
    label: str = ""                # the player's or the team's name
    key: str = ""                  # the entrant (person or team entry)
    score: Fraction | None = None  # 积分, the pairing program's points
    tie_breaks: dict = field(default_factory=dict)
    gender: str | None = None
    birth_date: dt.date | None = None
    club: str | None = None


@dataclass
class Placing:
    event: str
    place: int
    unit: str
    label: str = ""
    points: Fraction = Fraction(0)
    medal: str | None = None
    awarded: bool = True
    key: str = ""
    score: Fraction | None = None
    prize: Fraction | None = None


@dataclass
class OutsideMedal:
    unit: str
    medal: str          # gold, silver, bronze
    label: str = ""     # who and in what
    source: str = ""


@dataclass
class UnitStanding:
    unit: str
    gold: int = 0
    silver: int = 0
    bronze: int = 0
    points: Fraction = Fraction(0)
    medal_rank: int = 0
    points_rank: int = 0
    placings: list[Placing] = field(default_factory=list)
    outside: list[OutsideMedal] = field(default_factory=list)


@dataclass
class StandingRow:
    """A row of a derived standing (clubs, an age group): its rank, who, the score."""
    rank: int
    who: str
    unit: str = ""
    score: Fraction = Fraction(0)
    counted: list[Placing] = field(default_factory=list)
    awarded: bool = True
    prize: Fraction | None = None


class ResultsError(InputProblems):
    """Results that cannot stand (a place out of range, a gap where no tie explains it);
    `text`: why, in both languages."""

    def __init__(self, text: Text):
        super().__init__([("", text)], str(text))
        self.text = text


# --- what an event awards -------------------------------------------------------------

def _event(definition: GamesDefinition, code: str):
    return next((e for e in definition.events if e.code == code), None)


def _first(definition: GamesDefinition, kind: type, event):
    return next((a for a in of_kind(definition.awards, kind) if event is not None and a.applies_to(event)), None)


def places_awarded(definition: GamesDefinition, event_code: str, entrants: int) -> int | None:
    """How many places the event awards with this many entrants; None where the regulation
    says nothing (then every place of the ranking stands, none scores)."""
    event = _event(definition, event_code)
    rule = _first(definition, PlacesAward, event)
    if rule is not None:
        n = rule.count(entrants)
    else:
        points = _first(definition, PointsAward, event)
        if points is None:
            return None
        few = points.few_entrants
        n = few.places if few is not None and entrants < few.below else len(_table(definition, points, event))
    return min(n, entrants) if entrants else n


def _table(definition: GamesDefinition, points: PointsAward, event) -> list[Decimal]:
    team = points.team
    if team is not None and event.is_team and _on_board(definition, event.code, team) >= team.min_on_board:
        return list(team.table)
    return list(points.table)


def points_table(definition: GamesDefinition, event_code: str, entrants: int) -> list[Fraction]:
    """The points of places 1..n of this event, or [] where the awards give no points."""
    event = _event(definition, event_code)
    points = _first(definition, PointsAward, event)
    if points is None:
        return []
    placed = places_awarded(definition, event_code, entrants)
    few = points.few_entrants
    if few is not None and entrants < few.below:
        table = list(few.table) if few.table else _table(definition, points, event)
        table = table[:few.places]
    else:
        table = _table(definition, points, event)
    return [Fraction(x) for x in table[:placed if placed is not None else len(table)]]


def clauses_for(definition: GamesDefinition, event_code: str) -> list[str]:
    """The clauses of the awards that apply to the event, as the fixture names them (shown
    with the event's results, so that each award can be read against its regulation)."""
    event = _event(definition, event_code)
    out = []
    for a in definition.awards:
        clause = getattr(a, "clause", None)
        applies = event is not None and (a.applies_to(event) if hasattr(a, "applies_to") else True)
        if isinstance(a, TeamFromIndividuals):
            applies = event_code in a.events
        if clause and applies and clause not in out:
            out.append(clause)
    return out


def has_points(definition: GamesDefinition) -> bool:
    return bool(of_kind(definition.awards, PointsAward))


def has_medals(definition: GamesDefinition) -> bool:
    return bool(of_kind(definition.awards, MedalsAward))


def _on_board(definition: GamesDefinition, event_code: str, team) -> int:
    if team.events is not None:
        return team.min_on_board if event_code in team.events else 0
    for rule in definition.rules_of(BoardRule):
        if event_code in rule.events:
            return rule.boards
    for rule in definition.rules_of(TeamMakeupRule):
        if event_code in rule.events and rule.starters:
            return sum(rule.starters.values())
    return 2  # a pair (bridge pairs, doubles): under three


# --- one event --------------------------------------------------------------------------

def _as_result(row) -> Result:
    if isinstance(row, Result):
        return row
    place, unit, label = row[:3]
    return Result(int(place), str(unit), label or "")


def check_ranking(event_code: str, entrants: int, results: list) -> list[tuple[str, str]]:
    """Every problem of a ranking at once, (zh, en): places from 1, each tie leaving the
    places it fills empty (1, 2, 2, 4), none beyond the number of entrants."""
    problems = []
    ordered = sorted((_as_result(r) for r in results), key=lambda r: r.place)
    expected, i = 1, 0
    while i < len(ordered):
        place = ordered[i].place
        tied = [r for r in ordered[i:] if r.place == place]
        if place < 1:
            problems.append((f"名次 {place} 应为正整数", f"place {place} must be 1 or more"))
        elif place != expected:
            problems.append((f"第 {place} 名处应为第 {expected} 名（并列名次之后的名次空出）",
                             f"place {place} where {expected} was expected (tied places leave the next ones empty)"))
        if entrants and place + len(tied) - 1 > entrants:
            problems.append((f"第 {place} 名：该项目只有 {entrants} 人（对、队）参赛",
                             f"place {place}: only {entrants} entrants played"))
        expected = place + len(tied)
        i += len(tied)
    return problems


def score_event(definition: GamesDefinition, event_code: str, entrants: int, results: list) -> list[Placing]:
    """The event's ranking with what each place earns: awarded or not, points (ties share
    the average of the places they fill, exactly), medal, prize. Raises ResultsError naming
    the problems of a ranking that cannot stand."""
    problems = check_ranking(event_code, entrants, results)
    if problems:
        raise ResultsError(Text(f"{event_code}：" + "；".join(zh for zh, _en in problems),
                                f"{event_code}: " + "; ".join(en for _zh, en in problems)))
    event = _event(definition, event_code)
    if event is None:
        raise ResultsError(Text(f"“{event_code}”不是本届比赛的项目", f"{event_code} is not an event of these Games"))
    placed = places_awarded(definition, event_code, entrants)
    table = points_table(definition, event_code, entrants)
    medals = _first(definition, MedalsAward, event) is not None
    prizes = next((p for p in of_kind(definition.awards, PrizesAward)
                   if p.standing is None and event is not None and p.applies_to(event)), None)
    ordered = sorted((_as_result(r) for r in results), key=lambda r: (r.place, r.label))
    out, i = [], 0
    while i < len(ordered):
        place = ordered[i].place
        tied = [r for r in ordered[i:] if r.place == place]
        filled = range(place, place + len(tied))
        awarded = placed is None or place <= placed
        share = _share([table[p - 1] for p in filled if p <= len(table)], len(tied)) if awarded and table else Fraction(0)
        prize = (_share([Fraction(prizes.amounts[p - 1]) for p in filled if p <= len(prizes.amounts)], len(tied))
                 if awarded and prizes is not None and place <= len(prizes.amounts) else None)
        for r in tied:
            out.append(Placing(event_code, place, r.unit, r.label, share,
                               MEDALS.get(place) if medals and awarded else None, awarded, r.key, r.score, prize))
        i += len(tied)
    return out


def _share(values: list[Fraction], ways: int) -> Fraction:
    return Fraction(sum(values, Fraction(0)), ways) if ways else Fraction(0)


# --- the units' tables ----------------------------------------------------------------

def standings(placings: list[Placing], outside: list[OutsideMedal] = ()) -> list[UnitStanding]:
    """Medal and points tables of the units (outside medals counted, and kept apart), in
    medal-table order; equal counts and equal exact totals share a rank."""
    units: dict[str, UnitStanding] = {}
    for p in placings:
        if not p.awarded:
            continue
        u = units.setdefault(p.unit, UnitStanding(p.unit))
        u.placings.append(p)
        u.points += p.points
        if p.medal:
            setattr(u, p.medal, getattr(u, p.medal) + 1)
    for m in outside:
        u = units.setdefault(m.unit, UnitStanding(m.unit))
        u.outside.append(m)
        setattr(u, m.medal, getattr(u, m.medal) + 1)
    rows = list(units.values())
    _rank(rows, lambda u: (u.gold, u.silver, u.bronze), "medal_rank")
    _rank(rows, lambda u: u.points, "points_rank")
    return sorted(rows, key=lambda u: (u.medal_rank, u.points_rank, u.unit))


def _rank(rows: list, key, attr: str, reverse: bool = True) -> None:
    ordered = sorted(rows, key=key, reverse=reverse)
    for i, u in enumerate(ordered):
        setattr(u, attr, i + 1 if i == 0 or key(ordered[i - 1]) != key(u) else getattr(ordered[i - 1], attr))


# --- team events computed from individual results -----------------------------------------

@dataclass
class Team:
    key: str
    unit: str
    label: str
    members: list[tuple[str, str]]  # (entrant key, gender)


def team_from_individuals(definition: GamesDefinition, rule: TeamFromIndividuals, event_code: str,
                          teams: list[Team], individual: dict[str, Placing]) -> list[Result]:
    """The team event's ranking from its members' individual results (`individual`: entrant
    key -> his placing in his individual event): the best `rule.best[g]` of each gender
    count, their points (积分) added; ties as `rule.tie_breaks` say; still equal: shared."""
    scored = []
    for team in teams:
        counted = []
        for gender, n in rule.best.items():
            mine = sorted((individual[k] for k, g in team.members if g == gender and k in individual),
                          key=lambda p: p.place)
            counted += [(gender, p) for p in mine[:n]]
        total = sum((p.score or Fraction(0) for _g, p in counted), Fraction(0))
        ties = []
        for tie in rule.tie_breaks:
            if tie == "individual_places":
                ties.append(tuple(-p for p in sorted(p.place for _g, p in counted)))
            elif tie == "gender_place":
                first = [p.place for g, p in counted if g == rule.gender_first]
                ties.append(-min(first) if first else -10**9)
        scored.append((team, total, tuple(ties), counted))
    def key(item):
        return (item[1], item[2])
    ordered = sorted(scored, key=key, reverse=True)
    out, place = [], 0
    for i, item in enumerate(ordered):
        if i == 0 or key(ordered[i - 1]) != key(item):
            place = i + 1
        team, total, _ties, counted = item
        out.append(Result(place, team.unit, team.label, team.key, total,
                          {"counted": [(p.label, p.event, p.place) for _g, p in counted]}))
    return out


# --- standings derived from an event's results --------------------------------------------

def group_standing(rule: GroupStanding, placings: list[Placing], groups: dict[str, str]) -> list[StandingRow]:
    """Clubs or units ranked by their best `best_of` results (`groups`: entrant key -> the
    club or unit he plays for). A group with fewer results than `best_of` ranks after the
    complete ones."""
    by_group: dict[str, list[Placing]] = {}
    for p in placings:
        g = groups.get(p.key)
        if g:
            by_group.setdefault(g, []).append(p)
    rows = []
    for g, mine in by_group.items():
        best = sorted(mine, key=lambda p: p.place)[:rule.best_of]
        if rule.score == "points":
            score = sum((p.score or Fraction(0) for p in best), Fraction(0))
        else:
            score = Fraction(sum(p.place for p in best))
        rows.append(StandingRow(0, g, best[0].unit if best else "", score, best))
    def key(row):
        return (len(row.counted), row.score if rule.score == "points" else -row.score)
    _rank(rows, key, "rank")
    rows.sort(key=lambda r: (r.rank, r.who))
    for r in rows:
        r.awarded = rule.places is None or r.rank <= rule.places
    return rows


def age_standing(rule: AgeStanding, placings: list[Placing], born: dict[str, dt.date]) -> list[StandingRow]:
    """The entrants at most `max_age` on `age_on`, in the order of their places; equal
    places share a rank."""
    young = [p for p in placings if p.key in born and age_on(born[p.key], rule.age_on) <= rule.max_age]
    young.sort(key=lambda p: (p.place, p.label))
    rows = []
    for i, p in enumerate(young):
        rank = i + 1 if i == 0 or young[i - 1].place != p.place else rows[-1].rank
        rows.append(StandingRow(rank, p.label, p.unit, p.score or Fraction(0), [p],
                                rule.places is None or rank <= rule.places))
    return rows


def standing_prizes(definition: GamesDefinition, code: str, rows: list[StandingRow]) -> None:
    """Prize of each awarded row of the standing `code` (ties share the amounts of the
    places they fill)."""
    prizes = next((p for p in of_kind(definition.awards, PrizesAward) if p.standing == code), None)
    if prizes is None:
        return
    i = 0
    while i < len(rows):
        tied = [r for r in rows[i:] if r.rank == rows[i].rank]
        amounts = [Fraction(prizes.amounts[p - 1]) for p in range(rows[i].rank, rows[i].rank + len(tied))
                   if p <= len(prizes.amounts)]
        for r in tied:
            r.prize = _share(amounts, len(tied)) if r.awarded and amounts else None
        i += len(tied)


def as_decimal(value: Fraction | None, places: int = 2) -> Decimal | None:
    """An exact value printed: rounded half up only here, at the end."""
    if value is None:
        return None
    exact = Decimal(value.numerator) / Decimal(value.denominator)
    return exact.quantize(Decimal(1).scaleb(-places), rounding=ROUND_HALF_UP)


def shown(value: Fraction | None) -> str:
    """26, 6.5, 8.33: as few decimals as the exact value needs, at most two."""
    if value is None:
        return ""
    if value.denominator == 1:
        return str(value.numerator)
    text = f"{as_decimal(value):f}".rstrip("0").rstrip(".")
    return text
