"""What a regulation awards after play, and how play is organised, as typed kinds with
parameters (like the entry rules): each kind names its clause, and a key no kind knows is
refused when the Games is loaded, so a regulation never says something the portal
silently ignores.

`awards` (录取名次与奖励):
- `places`: how many places an event awards, fixed or by the number of entrants
  (youth-gomoku-2015 十(一): 12 with 30 or more, 8 with 10-29, N-1 with 9 or fewer);
- `points`: the units' points table per place (nmsg-2009 总则 九(三)), with the table of
  team events with three or more on the board and the table of events placing fewer;
- `medals`: places 1-3 count as gold, silver and bronze in the units' medal table;
- `prizes`: prize money (or prizes of that value) per place of an event or a standing;
- `team_from_individuals`: a team event scored from its members' individual results
  (youth-gomoku-2015 八(六)2: the best boy's plus the best girl's points);
- `group_standing`: a ranking of clubs or units from their best N individual results
  (shaanxi-mind-2025 三 and 八3);
- `age_standing`: a ranking of the entrants of an age, in the order of an event's results
  (shaanxi-mind-2025 三 and 八2: 16 and under);
- `outside_medals`: medals won at another competition that count in the medal table
  (nmsg-2009 总则 九(八): the World Mind Sports Games);
- `qualifies`, `grade_by_place`, `promotion_by_record`, `federation_points`: what a result
  earns the player beyond these Games (a place in another, a grade or title, points),
  carried into the player register when the results are entered (youth-gomoku-2015 十(三):
  获得名次的棋手可按《中国五子棋段级位制》获得相应的段、级位称号).

`competition` (竞赛办法):
- `rounds`: an event's number of rounds and who is no longer paired (shaanxi-mind-2025
  六(一)2: 两轮未到者不再编排).

(An entry void without its fee, youth-gomoku-2015 十一(四) 不予编排, is the money section's
`entry_valid_when_paid`: the draw leaves such entries out.)

Pure: no Flask, no database."""
from __future__ import annotations

import datetime as dt
from decimal import Decimal
from typing import Annotated, Literal

from pydantic import BaseModel, ConfigDict, Field, model_validator


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    @model_validator(mode="before")
    @classmethod
    def _empty_means_none(cls, data):
        if isinstance(data, dict):  # `table:` with nothing under it: the default (see definition.Strict)
            data = {k: v for k, v in data.items()
                    if not (v is None and k in cls.model_fields and not cls.model_fields[k].is_required()
                            and cls.model_fields[k].get_default(call_default_factory=True) is not None)}
        return data


class _Text(_Strict):
    zh: str
    en: str


class _Selects(_Strict):
    """Which events a kind applies to: listed, or all of a kind, or (neither) all."""
    clause: str | None = None
    events: list[str] | None = None
    event_kind: Literal["individual", "team"] | None = None

    def applies_to(self, event) -> bool:
        if self.events is not None:
            return event.code in self.events
        if self.event_kind is not None:
            return event.kind == self.event_kind
        return True


class PlacesStep(_Strict):
    min_entrants: int = Field(ge=0)
    places: int | Literal["n-1"]

    def count(self, entrants: int) -> int:
        return max(entrants - 1, 0) if self.places == "n-1" else self.places


class PlacesAward(_Selects):
    """录取名次: `places` fixed, or `by_entrants` (the first step whose min_entrants the
    number of entrants reaches, steps from the largest)."""
    kind: Literal["places"]
    places: int | None = Field(default=None, ge=1)
    by_entrants: list[PlacesStep] = []

    @model_validator(mode="after")
    def _one_way(self):
        if (self.places is None) == (not self.by_entrants):
            raise ValueError("places: give `places` or `by_entrants`, one of them")
        return self

    def count(self, entrants: int) -> int:
        if self.places is not None:
            return self.places
        for step in sorted(self.by_entrants, key=lambda s: -s.min_entrants):
            if entrants >= step.min_entrants:
                return step.count(entrants)
        return 0


class FewEntrants(_Strict):
    """Events with fewer than `below` entrants place only `places`, scoring `table`."""
    below: int = Field(ge=1)
    places: int = Field(ge=1)
    table: list[Decimal] | None = None


class TeamTable(_Strict):
    """Team events with at least `min_on_board` players on the board score `table`
    (the events listed, or those whose boards or starters reach that number)."""
    min_on_board: int = Field(ge=1)
    table: list[Decimal]
    events: list[str] | None = None


class PointsAward(_Selects):
    """积分: points per place for the units' points table; tied entrants share the average
    of the points of the places they fill (nmsg-2009 总则 九(四))."""
    kind: Literal["points"]
    table: list[Decimal]
    team: TeamTable | None = None
    few_entrants: FewEntrants | None = None


class MedalsAward(_Selects):
    """Places 1-3 win gold, silver and bronze; `table`: counted in a medal table of the
    units (nmsg-2009 总则 九(三)), not only handed out (youth-gomoku-2015 十(二)1)."""
    kind: Literal["medals"]
    table: bool = True


class PrizesAward(_Selects):
    """Prize per place (1st, 2nd...) of the events selected, or of a standing (`standing`:
    the code of a group_standing or age_standing)."""
    kind: Literal["prizes"]
    standing: str | None = None
    amounts: list[Decimal]
    # What is handed over, when it is not money itself ("与奖金同等价值奖品").
    form: _Text | None = None


class TeamFromIndividuals(_Selects):
    """A team event whose result is computed from its members' results in the individual
    events its team_makeup rule names: the `best` of each gender count (their points in
    their individual event added). Ties: `individual_places` compares the counted members'
    individual places, best first; `gender_place` then the place of the counted member of
    `gender_first`."""
    kind: Literal["team_from_individuals"]
    events: list[str]
    best: dict[Literal["M", "F"], int]
    tie_breaks: list[Literal["individual_places", "gender_place"]] = []
    gender_first: Literal["M", "F"] | None = None


class GroupStanding(_Selects):
    """Clubs (the club each entrant names) or units, ranked by their best `best_of` results
    in the events selected: by points added (more first) or by places added (fewer first).
    `reading` says in words how the regulation was read, shown with the standing."""
    kind: Literal["group_standing"]
    code: str
    name: _Text
    group_by: Literal["club", "unit"]
    best_of: int = Field(ge=1)
    score: Literal["points", "places"]
    reading: _Text | None = None
    places: int | None = Field(default=None, ge=1)


class AgeStanding(_Selects):
    """The entrants of the events selected who are at most `max_age` years old on `on`,
    in the order of their results there."""
    kind: Literal["age_standing"]
    code: str
    name: _Text
    max_age: int = Field(ge=1)
    age_on: dt.date
    places: int | None = Field(default=None, ge=1)


class OutsideMedals(_Strict):
    """Medals won elsewhere that count in the medal table, shown apart."""
    kind: Literal["outside_medals"]
    clause: str | None = None
    source: _Text
    places: int = Field(default=3, ge=1, le=3)


class QualifiesAward(_Selects):
    """晋级: the first `top` of the events selected qualify for `to` (a Games' slug, or a
    series: any of its Games), becoming its list of qualified players (its `qualified`
    rule) when the results are entered; `by_gender`: the first `top` men and the first
    `top` women of a mixed event, placed apart."""
    kind: Literal["qualifies"]
    top: int = Field(ge=1)
    to: str = Field(pattern=r"^[a-z0-9][a-z0-9-]{1,79}$")
    by_gender: bool = False


class GradeByPlace(_Selects):
    """A grade or title earned by place ("获得前六名的棋手授予业余5段"): `grades` maps a place
    to a grade of `system`; carried into the player register when the results are
    entered; `by_gender`: men's and women's places of a mixed event apart."""
    kind: Literal["grade_by_place"]
    system: str
    grades: dict[int, str]
    by_gender: bool = False
    awarded_by: str | None = Field(default=None, max_length=200)  # the federation, in words


class PromotionByRecord(_Selects):
    """升段 by record: a player winning at least `min_wins` games ("7轮胜4局升一段": the
    results' 胜局 column, or the games of a TRF file), or scoring at least `min_score`
    ("积分达到5分"), moves `steps` up the ladder of `system` from his highest grade there,
    never beyond `up_to`."""
    kind: Literal["promotion_by_record"]
    system: str
    min_wins: int | None = Field(default=None, ge=1)
    min_score: Decimal | None = Field(default=None, ge=0)
    steps: int = Field(default=1, ge=1)
    up_to: str | None = None
    awarded_by: str | None = Field(default=None, max_length=200)

    @model_validator(mode="after")
    def _one_record(self):
        if (self.min_wins is None) == (self.min_score is None):
            raise ValueError("promotion_by_record: give `min_wins` or `min_score`, one of them")
        return self

    def earned_by(self, wins: int | None, score) -> bool:
        if self.min_wins is not None:
            return wins is not None and wins >= self.min_wins
        return score is not None and score >= self.min_score


class FederationPoints(_Selects):
    """Points a federation credits by place (大师分, 等级积分): `table` gives the 1st place's,
    the 2nd's...; carried into the player register."""
    kind: Literal["federation_points"]
    points: str = Field(pattern=r"^[a-z][a-z0-9_]{1,39}$")
    name: _Text
    table: list[Decimal]


Award = Annotated[
    PlacesAward | PointsAward | MedalsAward | PrizesAward | TeamFromIndividuals | GroupStanding | AgeStanding | OutsideMedals
    | QualifiesAward | GradeByPlace | PromotionByRecord | FederationPoints,
    Field(discriminator="kind"),
]


class Rounds(_Selects):
    """The events' rounds; a player absent from `unpaired_after_absences` rounds is no
    longer paired (and left out of the pairing export)."""
    kind: Literal["rounds"]
    count: int | None = Field(default=None, ge=1)
    unpaired_after_absences: int | None = Field(default=None, ge=1)


CompetitionRule = Annotated[Rounds, Field(discriminator="kind")]


def of_kind(items, kind: type) -> list:
    return [a for a in items if isinstance(a, kind)]


def event_codes(items) -> list[tuple[int, str, str]]:
    """(index, field, code) of every event code the kinds name, for the fixture's checks."""
    out = []
    for i, a in enumerate(items):
        for code in getattr(a, "events", None) or []:
            out.append((i, "events", code))
        team = getattr(a, "team", None)
        for code in (team.events if team is not None and team.events else []):
            out.append((i, "team.events", code))
    return out
