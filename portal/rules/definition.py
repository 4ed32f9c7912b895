"""The Games definition: a regulation as data.

A fixture (YAML) is validated into `GamesDefinition`. The rules engine reads only this
object; nothing here touches Flask or a database. Rules are a list of kinds with
parameters (`kind: quota`, `kind: team_makeup`, ...), so a new regulation needs a new
fixture, not new code.
"""
from __future__ import annotations

import datetime as dt
from decimal import Decimal
from typing import Annotated, Any, Literal, Union

from pydantic import BaseModel, ConfigDict, Field, field_validator, model_validator

from .awards import Award, CompetitionRule, TeamFromIndividuals, event_codes

Gender = Literal["M", "F"]
EventGender = Literal["M", "F", "X"]
UnitKind = Literal["province", "city", "xpcc", "pla", "industry"]
IdType = Literal[
    "resident_id", "passport", "hk_macau_permit", "taiwan_permit",
    "foreign_permanent_id", "household_register",
]
DocumentKind = Literal[
    "id_copy", "photo", "health_certificate", "insurance_proof", "safety_pledge",
    "student_status_proof",
]
# Who a rule applies to inside a delegation.
Who = Literal["athletes", "officials", "staff", "companions", "participants"]


class Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class Text(Strict):
    zh: str
    en: str


def _aware(value: dt.datetime) -> dt.datetime:
    if value.tzinfo is None:
        raise ValueError("a deadline needs its UTC offset, e.g. 2019-05-31T23:59:59+08:00")
    return value


class Sport(Strict):
    code: str
    name: Text


class Session(Strict):
    start: dt.datetime
    end: dt.datetime


class Event(Strict):
    code: str
    sport: str
    name: Text
    gender: EventGender
    kind: Literal["individual", "team"]
    sessions: list[Session] = []

    @property
    def is_team(self) -> bool:
        return self.kind == "team"


class Participation(Strict):
    unit_kinds: list[UnitKind] = []
    # An invitation list: these units (codes) may enter besides those of `unit_kinds`, or
    # alone when `unit_kinds` is empty ("only these ten provinces and the sponsor's team").
    invited: list[str] = []
    invited_name: Text | None = None
    # Clubs, schools, cities... registering as `{"name": ..., "kind": ...}`.
    open_units: bool = False
    # A person registering alone (`"unit": null`).
    individuals: bool = False


class Stages(Strict):
    """Stage boundaries as the instants at which they close (exclusive): "names by
    31 Aug" closes at 1 Sep 00:00 +08:00, so 31 Aug 23:59:59.999 is still accepted."""

    declaration_closes: dt.datetime | None = None
    names_closes: dt.datetime | None = None
    substitutions_closes: dt.datetime | None = None
    # From this instant no change at all is accepted (youth-gomoku-2015: 13 Jul 00:00).
    changes_close: dt.datetime | None = None
    changes_need_approval: bool = True
    # Once submitted, an athlete is replaced only by an approved substitution (with its
    # fee), even before the names deadline; other edits stay free.
    replacing_after_submission_needs_approval: bool = False

    @field_validator("declaration_closes", "names_closes", "substitutions_closes", "changes_close")
    @classmethod
    def _need_offset(cls, value):
        return None if value is None else _aware(value)


class Dates(Strict):
    start: dt.date
    end: dt.date
    report: dt.date | None = None
    depart: dt.date | None = None


class Contact(Strict):
    """Whom to ask or write to, as the regulation prints it (the programme book's
    contacts page)."""
    role: Text
    name: str | None = None
    phone: str | None = None
    email: str | None = None
    address: str | None = None


class LeadersMeeting(Strict):
    """The meeting the evening before play where each unit's leader confirms its names
    (youth-gomoku-2015 十一(十): 开赛前一天晚7点30分 ... 领队会召开的时间为报到最后期限)."""
    name: Text = Text(zh="领队会议", en="Leaders' meeting")
    at: dt.datetime | None = None  # None: the date is known, the hour "另行通知"
    date: dt.date | None = None  # (`on` would read as true in YAML)
    confirms_names: bool = True
    closes_checkin: bool = False  # arrivals after the meeting are refused
    leaders_must_attend: bool = False

    @field_validator("at")
    @classmethod
    def _need_offset(cls, value):
        return None if value is None else _aware(value)

    @model_validator(mode="after")
    def _when(self):
        if self.at is None and self.date is None:
            raise ValueError("leaders_meeting: give `at` (date and time) or `date`")
        return self

    @property
    def day(self) -> dt.date:
        return self.date or self.at.astimezone(dt.timezone(dt.timedelta(hours=8))).date()


# --- rule kinds ------------------------------------------------------------------------

class RuleBase(Strict):
    note: str | None = None


class AgeBracketRule(RuleBase):
    kind: Literal["age_bracket"]
    events: list[str]
    born_from: dt.date | None = None
    born_to: dt.date | None = None


class QuotaRule(RuleBase):
    """At most `max` entrants per unit in each of `events`."""

    kind: Literal["quota"]
    events: list[str]
    max: int = Field(ge=0)


class TeamMakeupRule(RuleBase):
    kind: Literal["team_makeup"]
    events: list[str]
    max_teams: int | None = Field(default=None, ge=0)
    # Exact number of starters by gender; `None` leaves the starters free.
    starters: dict[Gender, int] | None = None
    # Reserves allowed: a total, and/or a cap per gender.
    max_reserves: int | None = Field(default=None, ge=0)
    max_reserves_by_gender: dict[Gender, int] | None = None
    # Both genders required (youth-gomoku-2015): at least n of each.
    min_by_gender: dict[Gender, int] | None = None
    # Each member must also be entered in this individual event (per gender).
    members_entered_in: dict[Gender, str] | None = None
    # Team events open only to units, not to a person registering alone.
    requires_unit: bool = False


class BoardRule(RuleBase):
    """Starters play boards 1..boards, each once; `board_gender` pins a gender to a board."""

    kind: Literal["boards"]
    events: list[str]
    boards: int = Field(ge=1)
    board_gender: dict[int, Gender] = {}


class ExclusiveRule(RuleBase):
    """A player of any of these events enters no other event; `says`: the regulation's
    words for it, when it gives a reason."""

    kind: Literal["exclusive"]
    events: list[str]
    says: Text | None = None


class OneOfRule(RuleBase):
    """A player enters at most one of these events; `says`: the regulation's reason, told to
    the leader ("参赛选手不能跨年龄、跨性别报组")."""

    kind: Literal["one_of"]
    events: list[str]
    says: Text | None = None


class RatingExceptionRule(RuleBase):
    """Players of `gender` rated `min_rating` or more on list `list` may enter `events`."""

    kind: Literal["rating_exception"]
    gender: Gender
    min_rating: int
    list: dt.date
    events: list[str]


class TeamSizeRule(RuleBase):
    """Each team (or pair) of `events` has `min`..`max` players whatever their gender ("a team
    of 4 to 6", "a pair of 2"); `count: starters` leaves the reserves out of the count."""

    kind: Literal["team_size"]
    events: list[str]
    min: int | None = Field(default=None, ge=1)
    max: int | None = Field(default=None, ge=1)
    count: Literal["all", "starters"] = "all"

    @model_validator(mode="after")
    def _bounds(self):
        if self.min is None and self.max is None:
            raise ValueError("team_size: give min, max or both")
        if self.min is not None and self.max is not None and self.min > self.max:
            raise ValueError("team_size: min is more than max")
        return self


class EntryMinimumRule(RuleBase):
    """At least `min` athletes: in each of `events` the unit enters (`per: event`), in each
    of its teams there (`per: team`), or in the whole delegation (`per: unit`)."""

    kind: Literal["entry_minimum"]
    events: list[str] = []
    per: Literal["event", "team", "unit"] = "event"
    min: int = Field(ge=1)


class EntryRequiresRule(RuleBase):
    """More than `beyond` entrants in `events` (0: any) only alongside an entry in one of
    `requires` ("three more players in the individual event only with a team")."""

    kind: Literal["entry_requires"]
    events: list[str]
    requires: list[str]
    beyond: int = Field(default=0, ge=0)


class CompulsoryRule(RuleBase):
    """Every delegation enters each of `events` (or, `any_of`, at least one of them)."""

    kind: Literal["compulsory"]
    events: list[str]
    any_of: bool = False


class OfficialsRatioRule(RuleBase):
    """At most one official of `roles` per `per_athletes` athletes (of `sport`, or all),
    rounded `up` or `down`, and never fewer than `at_least` ("one leader or coach per 6
    athletes")."""

    kind: Literal["officials_ratio"]
    roles: list[Literal["leader", "coach", "leader_coach"]]
    per_athletes: int = Field(ge=1)
    rounding: Literal["up", "down"] = "up"
    at_least: int = Field(default=1, ge=0)
    sport: str | None = None


class CrossGenderRule(RuleBase):
    """Players of `gender` may enter `events`, which keep their own gender label ("women may
    enter men's events; men may not enter women's")."""

    kind: Literal["cross_gender"]
    gender: Gender
    events: list[str]


class CompanionRequiredRule(RuleBase):
    """Athletes `min_age` or older on `age_on` (the Games' first day when not given) come with
    a companion of the delegation who accompanies them ("entrants over 70 come with a family
    member")."""

    kind: Literal["companion_required"]
    min_age: int = Field(ge=1)
    age_on: dt.date | None = None
    who: Who = "athletes"


class EventUnitsRule(RuleBase):
    """Only these may enter `events`: units of `unit_kinds`, the units listed in `units`,
    clubs and other open units (`open_units`), individuals (`individuals`)."""

    kind: Literal["event_units"]
    events: list[str]
    unit_kinds: list[UnitKind] = []
    units: list[str] = []
    open_units: bool = False
    individuals: bool = False
    name: Text | None = None  # how the regulation names the list ("特邀单位")


class RegistrationRule(RuleBase):
    kind: Literal["registration"]
    year: int
    sports: list[str] | None = None


class UniversityRule(RuleBase):
    kind: Literal["university"]
    events: list[str]
    ownership: list[str] = ["public"]
    full_time: bool = True
    # The athlete must not graduate before this date.
    not_graduated_before: dt.date | None = None


class OfficialsTier(Strict):
    min_events: int = Field(ge=0)
    leaders: int = 0
    coaches: int = 0
    # One person who is both leader and coach, instead of separate ones.
    leader_coaches: int = 0


class OfficialsRule(RuleBase):
    kind: Literal["officials"]
    sport: str | None = None
    tiers: list[OfficialsTier]

    @field_validator("tiers")
    @classmethod
    def _highest_first(cls, tiers):
        return sorted(tiers, key=lambda t: -t.min_events)


class StaffTier(Strict):
    max_athletes: int | None = None  # None: no upper bound
    head: int = 0
    deputy_head: int = 0
    staff: int = 0
    # One staff member per this many athletes (floor), added to `staff`.
    staff_per_athletes: int | None = None


class StaffRatioRule(RuleBase):
    kind: Literal["staff_ratio"]
    tiers: list[StaffTier]


class DocumentsRule(RuleBase):
    kind: Literal["documents"]
    documents: list[DocumentKind]
    who: Who = "athletes"
    events: list[str] | None = None  # athletes of these events only
    due: Literal["entry", "checkin"] = "entry"


class IdRequiredRule(RuleBase):
    kind: Literal["id_required"]
    who: Who = "participants"


class AcceptedIdTypesRule(RuleBase):
    kind: Literal["accepted_id_types"]
    types: list[IdType]
    who: Who = "participants"


Rule = Annotated[
    Union[
        AgeBracketRule, QuotaRule, TeamMakeupRule, BoardRule, ExclusiveRule, OneOfRule,
        RatingExceptionRule, RegistrationRule, UniversityRule, OfficialsRule,
        StaffRatioRule, DocumentsRule, IdRequiredRule, AcceptedIdTypesRule,
        TeamSizeRule, EntryMinimumRule, EntryRequiresRule, CompulsoryRule, OfficialsRatioRule,
        CrossGenderRule, CompanionRequiredRule, EventUnitsRule,
    ],
    Field(discriminator="kind"),
]


# --- money, rooms, stay: data for the workflow and the accounts -----------------------

class Fee(Strict):
    code: str
    name: Text
    amount: Decimal
    per: Literal["athlete", "team_group", "person_changed", "entrant", "appeal", "delegation"]
    refundable: Literal["never", "after_checkin", "if_upheld"] = "never"
    forfeited_on: list[str] = []


class RoomType(Strict):
    code: str
    hotel: str
    name: Text
    rate: Decimal
    per: Literal["person_night", "room_night"] = "person_night"
    inventory: int | None = None


class StayRule(Strict):
    who: Literal["delegation_head", "team", "athletes", "all"]
    arrive_days_before: int
    arrive_relative_to: Literal["opening", "event_start", "competition_start"]
    depart_days_after: int | None = None
    depart_relative_to: Literal["closing", "event_end", "competition_end"] | None = None
    earliest_arrival_strict: bool = False


class Money(Strict):
    currency: Literal["CNY"] = "CNY"
    fees: list[Fee] = []
    # Participants beyond the staff allowance pay the full rate (nmsg-2009).
    staff_excess_full_rate: bool = False
    # An entry counts only once its fee is received by the deadline (youth-gomoku-2015).
    entry_valid_when_paid: bool = False
    insurance: Literal["organiser_buys", "each_participant", "none"] = "none"
    # Where transfers go (as the regulation prints it).
    payee: dict[str, str] | None = None


class GamesDefinition(Strict):
    slug: str
    series: str
    edition: int
    name: Text
    regulation: str | None = None
    venue: Text | None = None
    dates: Dates
    participation: Participation
    stages: Stages = Stages()
    # Entrants cap, first come first served (shaanxi-mind-2025: 160).
    capacity: int | None = None
    companions_per_athlete: int | None = None
    sports: list[Sport]
    events: list[Event]
    rules: list[Rule] = []
    money: Money = Money()
    rooms: list[RoomType] = []
    # Who must stay in the designated hotel (youth-gomoku-2015 十二(三): all players).
    rooms_required_for: Literal["athletes", "all"] | None = None
    stay: list[StayRule] = []
    leaders_meeting: LeadersMeeting | None = None
    contacts: list[Contact] = []
    # What is awarded after play, and how play is organised (awards.py): typed kinds.
    awards: list[Award] = []
    competition: list[CompetitionRule] = []
    sanctions: dict[str, Any] = {}

    @model_validator(mode="after")
    def _references_resolve(self):
        sports = {s.code for s in self.sports}
        codes = [e.code for e in self.events]
        seen = set()
        for i, event in enumerate(self.events):
            if event.code in seen:
                raise ValueError(f"events[{i}].code: {event.code} appears twice")
            seen.add(event.code)
            if event.sport not in sports:
                raise ValueError(f"events[{i}].sport: unknown sport {event.sport!r}")
        known = set(codes)
        for i, rule in enumerate(self.rules):
            for field in ("events",):
                for code in getattr(rule, field, None) or []:
                    if code not in known:
                        raise ValueError(f"rules[{i}].events: unknown event {code!r}")
            for code in getattr(rule, "requires", None) or []:
                if code not in known:
                    raise ValueError(f"rules[{i}].requires: unknown event {code!r}")
            entered_in = getattr(rule, "members_entered_in", None) or {}
            for code in entered_in.values():
                if code not in known:
                    raise ValueError(f"rules[{i}].members_entered_in: unknown event {code!r}")
            sport = getattr(rule, "sport", None)
            if sport and sport not in sports:
                raise ValueError(f"rules[{i}].sport: unknown sport {sport!r}")
            for s in getattr(rule, "sports", None) or []:
                if s not in sports:
                    raise ValueError(f"rules[{i}].sports: unknown sport {s!r}")
        for section in ("awards", "competition"):
            for i, field, code in event_codes(getattr(self, section)):
                if code not in known:
                    raise ValueError(f"{section}[{i}].{field}: unknown event {code!r}")
        standings = [a.code for a in self.awards if hasattr(a, "code")]
        for i, award in enumerate(self.awards):
            if getattr(award, "standing", None) and award.standing not in standings:
                raise ValueError(f"awards[{i}].standing: no standing with code {award.standing!r}")
            if isinstance(award, TeamFromIndividuals):
                for code in award.events:
                    makeup = next((r for r in self.rules_of(TeamMakeupRule) if code in r.events), None)
                    if makeup is None or not makeup.members_entered_in:
                        raise ValueError(f"awards[{i}].events: {code} needs a team_makeup rule naming the "
                                         f"individual events its members play (members_entered_in)")
        return self

    def rules_of(self, kind: type) -> list:
        return [r for r in self.rules if isinstance(r, kind)]


class UnitInfo(Strict):
    """A unit as the engine needs it (from the units fixture)."""

    code: str
    name: Text
    kind: UnitKind
    province_code: str | None = None
    city: str | None = None
    governing_bodies: list[str] = []
    # Named institutions of the unit's sector where the authority column is too coarse
    # (university codes of the Ministry of Education's list).
    universities: list[str] = []


class UniversityInfo(Strict):
    code: str
    name: str
    province_code: str
    city: str
    governing_body: str
    level: str
    ownership: str
