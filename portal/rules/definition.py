"""The Games definition: a regulation as data.

A fixture (YAML) is validated into `GamesDefinition`. The rules engine reads only this
object; nothing here touches Flask or a database. Rules are a list of kinds with
parameters (`kind: quota`, `kind: team_makeup`, ...), so a new regulation needs a new
fixture, not new code.
"""
from __future__ import annotations

import datetime as dt
import re
from decimal import Decimal
from typing import Annotated, Literal

from pydantic import BaseModel, ConfigDict, Field, field_validator, model_validator

from ..text import Text as Words, TextError
from .ages import age_on
from .awards import Award, CompetitionRule, TeamFromIndividuals, event_codes

Gender = Literal["M", "F"]
EventGender = Literal["M", "F", "X"]
# joint: several institutions of one province entering as one team (a joint university
# team); university: one university entering in its own name.
UnitKind = Literal["province", "city", "xpcc", "pla", "industry", "joint", "university"]
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

    @model_validator(mode="before")
    @classmethod
    def _empty_means_none(cls, data):
        return empty_sections_default(cls, data)


def empty_sections_default(cls, data):
    """A section written with nothing under it (`awards:`) is that section empty, as its
    default says, not a type error."""
    if isinstance(data, dict) and any(v is None for v in data.values()):
        fields = cls.model_fields
        data = {k: v for k, v in data.items()
                if not (v is None and k in fields and not fields[k].is_required()
                        and fields[k].get_default(call_default_factory=True) is not None)}
    return data


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
    # The portal's kinds (UnitKind) or those the fixture names in `unit_kind_names`.
    unit_kinds: list[str] = []
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

    # The instant entries open ("报名时间：6月1日9:00起"): nothing is submitted before it.
    entries_open: dt.datetime | None = None
    declaration_closes: dt.datetime | None = None
    names_closes: dt.datetime | None = None
    substitutions_closes: dt.datetime | None = None
    # From this instant no change at all is accepted (youth-gomoku-2015: 13 Jul 00:00).
    changes_close: dt.datetime | None = None
    changes_need_approval: bool = True
    # Once submitted, an athlete is replaced only by an approved substitution (with its
    # fee), even before the names deadline; other edits stay free.
    replacing_after_submission_needs_approval: bool = False
    # Hours before a stage closes at which a delegation with work left is reminded (and the
    # organisers' daily digest runs in the last of them, up to a week).
    reminder_hours: list[int] = Field(default=[168, 24, 3], max_length=10)

    @field_validator("entries_open", "declaration_closes", "names_closes", "substitutions_closes", "changes_close")
    @classmethod
    def _need_offset(cls, value):
        return None if value is None else _aware(value)


class Dates(Strict):
    start: dt.date
    end: dt.date
    report: dt.date | None = None
    depart: dt.date | None = None
    # Instants with their hour, China time in the fixture ("9月19日9:00-17:00到达报到"; "报到截止
    # 8月20日17:00"; the day the entry list is published): shown to leaders to the minute, and
    # check-in closes at `report_closes`.
    report_opens: dt.datetime | None = None
    report_closes: dt.datetime | None = None
    entry_list_published: dt.datetime | None = None

    @field_validator("report_opens", "report_closes", "entry_list_published")
    @classmethod
    def _need_offset(cls, value):
        return None if value is None else _aware(value)


class NamedKind(Strict):
    """A kind a regulation names beyond the portal's own: code and name."""
    code: str = Field(pattern=r"^[a-z][a-z0-9_]{1,39}$")
    name: Text


class GradeSystemDef(Strict):
    """A federation's grades in order, lowest first, as a regulation names them (a ladder
    the portal lacks, or one that replaces its own): `aliases` map other ways of writing a
    grade onto the ladder's word."""
    code: str = Field(pattern=r"^[a-z][a-z0-9_]{1,39}$")
    name: Text
    ladder: list[str] = Field(min_length=1)
    ladder_en: list[str] = []  # the ladder in English, rung for rung
    aliases: dict[str, str] = {}

    @model_validator(mode="after")
    def _rung_for_rung(self):
        if self.ladder_en and len(self.ladder_en) != len(self.ladder):
            raise ValueError("grade_systems: ladder_en names each rung of ladder, in its order")
        return self


class DocumentKindDef(Strict):
    """A kind of document a regulation asks for beyond the portal's own (a sealed entry
    form, a staff card, a signed fitness declaration): a fixture line, not a release."""
    code: str = Field(pattern=r"^[a-z][a-z0-9_]{1,39}$")
    name: Text


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
    # The regulation's clause this rule enforces, as the regulation numbers it ("四(二)2"):
    # shown with the rule's sentence in the read-back (readback.py), so that the organiser
    # proof-reads each against its source.
    clause: str | None = Field(default=None, max_length=60)
    note: str | None = None  # a remark shown after the rule's sentence


class AgeBracketRule(RuleBase):
    kind: Literal["age_bracket"]
    events: list[str]
    born_from: dt.date | None = None
    born_to: dt.date | None = None

    @model_validator(mode="after")
    def _someone_fits(self):
        if self.born_from is not None and self.born_to is not None and self.born_from > self.born_to:
            raise TextError(Words(f"出生日期不早于 {self.born_from} 又不晚于 {self.born_to}：没有人能报这个组，"
                                  f"是否把两个日期填反了？",
                                  f"born on or after {self.born_from} and on or before {self.born_to}: nobody "
                                  f"fits; are the two dates the wrong way round?"))
        return self


class PlacedBonus(Strict):
    """More for a unit placed in the first `top` of `events` (the rule's own when none) at
    the series' previous edition ("上届前三名的单位可多报1人", "上届前六名可增报1队")."""
    top: int = Field(ge=1)
    extra: int = Field(ge=1)
    events: list[str] = []

    def for_unit(self, placed_before: dict[str, int] | None, rule_events: list[str]) -> int:
        """`extra` when the unit's best places last edition (event -> place) put it in the
        first `top` of the bonus's events, else nothing."""
        if not placed_before:
            return 0
        return self.extra if any(placed_before.get(e, self.top + 1) <= self.top for e in self.events or rule_events) else 0


class QuotaRule(RuleBase):
    """At most `max` entrants per unit in each of `events` (`per: event`), or athletes in
    all of them together (`per: unit`, "每单位运动员总数不超过12人"; every event when none
    is listed); `max_by_unit`: another number for named units ("北京、天津各3人，河北6人")."""

    kind: Literal["quota"]
    events: list[str] = []
    per: Literal["event", "unit"] = "event"
    max: int = Field(ge=0)
    max_by_unit: dict[str, int] = {}
    # A cap on each gender within `max`, for an event open to both ("每单位限报4人，其中女子
    # 不超过1人"; "男女各限报2人" is max 4 with M: 2, F: 2).
    max_by_gender: dict[Gender, int] = {}
    # Players qualified for these Games by an earlier competition (the register's, or put on
    # the list by hand) are not counted ("上届前八名选手不占名额"): `qualified_by` names
    # the qualifier (slugs or series, any when empty) and `qualified_name` says it.
    qualified_exempt: bool = False
    qualified_by: list[str] = []
    qualified_name: Text | None = None
    placed_bonus: PlacedBonus | None = None

    @model_validator(mode="after")
    def _events_for_each(self):
        if (self.qualified_by or self.qualified_name) and not self.qualified_exempt:
            raise TextError(Words("只有“晋级选手不占名额”时才写资格赛；请勾选它，或删去资格赛",
                                  "a qualifier is named only when qualified players are not counted: "
                                  "set qualified_exempt, or remove the qualifier"))
        if self.per == "event" and not self.events:
            raise TextError(Words("请列出限报人数的项目；各项目合计限报时，“按”选“整个单位”",
                                  "list the events the quota is for; for all events together, choose per: "
                                  "the whole unit"))
        return self


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
    # Another number of teams for named units ("北京、天津各3队，河北6队"): unit code -> teams.
    max_teams_by_unit: dict[str, int] = {}
    # A cap on each gender in a mixed team ("男女各2至3人": min_by_gender 2, max_by_gender 3).
    max_by_gender: dict[Gender, int] | None = None
    # Players from outside the unit (registered or employed elsewhere) per team ("外援不超过2人").
    max_from_outside: int | None = Field(default=None, ge=0)
    # More teams for a unit placed at the previous edition ("上届前三名的单位可增报1队").
    placed_bonus: PlacedBonus | None = None

    @model_validator(mode="after")
    def _bonus_on_a_limit(self):
        if self.placed_bonus is not None and self.max_teams is None:
            raise TextError(Words("只有限定了每单位队数，才能给上届名次靠前的单位多报：请填写每单位最多队数",
                                  "more teams for units placed last time needs teams per unit: give max_teams"))
        return self


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
    """A player enters at most `max_events` of these events, one unless it says more
    ("每名运动员最多兼报两项"); `says`: the regulation's reason, told to the leader
    ("参赛选手不能跨年龄、跨性别报组")."""

    kind: Literal["one_of"]
    events: list[str]
    max_events: int = Field(default=1, ge=1)
    says: Text | None = None

    @model_validator(mode="after")
    def _limits(self):
        # A limit as large as the list forbids nothing: the regulation would say what the
        # portal ignores.
        if self.max_events >= len(set(self.events)):
            n = len(set(self.events))
            raise TextError(Words(f"每人最多报 {self.max_events} 项，而所列项目只有 {n} 个：这条规则什么也不限制；"
                                  f"请少写项数或多列项目",
                                  f"at most {self.max_events} events a player, of only {n} listed: the rule limits "
                                  f"nothing; lower the number or list more events"))
        return self


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


class EventMinimumRule(RuleBase):
    """An event of `events` is played only with `min` entrants across the Games ("报名不足6人
    （队）的项目不设比赛"): players or teams (`count: entrants`), or units entering it (`count:
    units`, "不足4个单位报名的项目取消"); `says`: what the regulation does then ("与相邻组别合并").
    It binds the Games, not a delegation: the organisers' overview counts it; no delegation is
    refused for what the others enter."""

    kind: Literal["event_minimum"]
    events: list[str] = Field(min_length=1)
    min: int = Field(ge=2)
    count: Literal["entrants", "units"] = "entrants"
    says: Text | None = None


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
    unit_kinds: list[str] = []
    units: list[str] = []
    open_units: bool = False
    individuals: bool = False
    name: Text | None = None  # how the regulation names the list ("特邀单位")


class RegistrationRule(RuleBase):
    """Athletes registered to the unit for `year`; `registered_by`: and registered on or
    before that date ("注册时间截至2月28日")."""
    kind: Literal["registration"]
    year: int
    sports: list[str] | None = None
    registered_by: dt.date | None = None


class UniversityRule(RuleBase):
    kind: Literal["university"]
    events: list[str]
    # The universities list's values (公办, 民办, 中外合作, 港澳台合作): chosen, never typed, so that
    # "公办、民办" typed as words cannot refuse every student (issue 37, 1).
    ownership: list[Literal["public", "private", "sino_foreign", "hk_macau_taiwan"]] = ["public"]
    full_time: bool = True
    # The athlete must not graduate before this date.
    not_graduated_before: dt.date | None = None


class GradeRule(RuleBase):
    """Players of `events` hold a grade of `system` from `lowest` to `highest` (either open), or
    `below` a grade ("尚未获得象棋大师称号者": below 象棋大师); the highest grade counts, of
    those awarded on or before `held_on` ("以2025年6月30日前确认的段位为准"). `ungraded`: a
    player with no grade of the system is refused, or admitted (as the lowest)."""

    kind: Literal["grade"]
    events: list[str]
    system: str
    lowest: str | None = None
    highest: str | None = None
    below: str | None = None
    held_on: dt.date | None = None
    ungraded: Literal["refused", "admitted"] = "refused"
    # Only grades awarded by these bodies count ("在本省获得的段位": 甘肃省围棋协会), matched as
    # part of the awarding body's name.
    awarded_by: list[str] = []

    @model_validator(mode="after")
    def _a_bound(self):
        if self.lowest is None and self.highest is None and self.below is None:
            raise ValueError("grade: give lowest, highest or below")
        return self


class RatingRule(RuleBase):
    """Players of `events` rated from `min_rating` to `max_rating` on rating list `list` (fide, or a
    national list), the edition of `list_on` when given ("以2025年7月国家等级分为准");
    `unrated`: a player without a rating on that list is refused, or admitted."""

    kind: Literal["rating"]
    events: list[str]
    list: str
    min_rating: int | None = Field(default=None, ge=0)
    max_rating: int | None = Field(default=None, ge=0)
    list_on: dt.date | None = None
    unrated: Literal["refused", "admitted"] = "refused"

    @model_validator(mode="after")
    def _a_bound(self):
        if self.min_rating is None and self.max_rating is None:
            raise ValueError("rating: give min_rating, max_rating or both")
        return self


class PointsRule(RuleBase):
    """Players of `events` hold `min_points` or more, or fewer than `below_points`, of a
    federation's points (`points`: the kind's code, as a federation_points award records
    them; `name`: the regulation's word, 大师分) ("累计大师分10分以上的棋手方可报名大师组";
    "大师分满30分者不得参加业余组"). The register's totals, matched as its grades are; a
    player it does not know holds none."""

    kind: Literal["points"]
    events: list[str] = Field(min_length=1)
    points: str = Field(pattern=r"^[a-z][a-z0-9_]{1,39}$")
    name: Text
    min_points: Decimal | None = Field(default=None, ge=0)
    below_points: Decimal | None = Field(default=None, gt=0)

    @model_validator(mode="after")
    def _a_bound(self):
        if self.min_points is None and self.below_points is None:
            raise TextError(Words("请填写积分下限或上限（未满多少分）", "give the fewest points a player needs, the points that bar him, or both"))
        if self.min_points is not None and self.below_points is not None and self.min_points >= self.below_points:
            raise TextError(Words("积分下限不小于上限：没有人能报名", "the fewest points needed are not below the points that bar: nobody fits"))
        return self


class ResidenceRule(RuleBase):
    """Athletes (of `events`, or all) live in one of `regions` (administrative-division
    codes: 620000 is the province, 620100 a city), resident since `since_by` or earlier
    ("甘肃省户籍或在甘工作、学习一年以上"); `name`: the regulation's words for them."""

    kind: Literal["residence"]
    events: list[str] = []
    regions: list[str] = Field(min_length=1)
    since_by: dt.date | None = None
    name: Text | None = None
    who: Who = "athletes"

    @field_validator("regions")
    @classmethod
    def _codes(cls, regions):
        from .grades import PROVINCES
        for code in regions:
            if not re.fullmatch(r"\d{2}(\d{4})?", code) or code[:2] not in PROVINCES:
                raise TextError(Words(f"“{code}”不是行政区划代码（6 位，如 620000 甘肃省）",
                                      f"{code!r} is not an administrative-division code (e.g. 620000)"))
        return regions


class NationalityRule(RuleBase):
    """Participants (athletes by default) of one of `nationalities` (ISO 3166 alpha-3,
    "CHN"); a PRC identity document shows Chinese nationality."""

    kind: Literal["nationality"]
    nationalities: list[str] = Field(min_length=1)
    events: list[str] = []
    who: Who = "athletes"


class QualifiedRule(RuleBase):
    """Only players qualified for these Games by an earlier competition may enter `events`
    (`by`: the qualifier's slug or series, any when empty; `name`: how the regulation names
    it, "2025年预选赛前8名"). The qualifiers are recorded by that competition's award."""

    kind: Literal["qualified"]
    events: list[str]
    by: list[str] = []
    name: Text | None = None


class PlacedBeforeRule(RuleBase):
    """Players who placed in the first `top` of an earlier Games of `series` may not enter
    `events` ("曾获得全国业余围棋锦标赛前八名者不得参加业余组"): places in `in_events`
    (the rule's own events when none), at editions from `since` on (every earlier one
    when not given). The register holds the places, as each Games' results were stored;
    `name`: how the regulation names those barred ("历届本赛事前八名")."""

    kind: Literal["placed_before"]
    events: list[str] = Field(min_length=1)
    top: int = Field(ge=1)
    series: list[str] = Field(min_length=1)
    in_events: list[str] = []
    since: int | None = None
    name: Text  # the regulation's words for those barred: "历届本赛事前八名"

    def bars(self, place) -> bool:
        """Whether a place held (document.PlaceHeld) keeps the player out."""
        return (place.place <= self.top and place.series in self.series
                and place.event in (self.in_events or self.events)
                and (self.since is None or place.edition >= self.since))


class OfficialsRequiredRule(RuleBase):
    """At least `count` officials of `roles` (any of them) per unit, per team (of `events`,
    or every team event) or per sport entered ("每队须报领队1名"); `employed_as`: each official
    of those roles is employed by the unit as one of these ("教练须为本校在编教职工")."""

    kind: Literal["officials_required"]
    roles: list[Literal["leader", "coach", "leader_coach"]]
    per: Literal["unit", "team", "sport"] = "unit"
    count: int = Field(default=1, ge=0)
    events: list[str] = []
    employed_as: list[Literal["staff", "student", "graduate"]] = []


class EmploymentRule(RuleBase):
    """Athletes of `events` are the unit's own: its students, its staff (教职工) or its
    graduates of the last `graduated_within_years` years before the Games begin ("毕业两年内
    的校友"), as `kinds` allows."""

    kind: Literal["employment"]
    events: list[str]
    kinds: list[Literal["student", "staff", "graduate"]] = Field(min_length=1)
    graduated_within_years: int | None = Field(default=None, ge=1)


class JointTeamRule(RuleBase):
    """联队: players of other institutions (a university by its code, else the unit a player
    is registered with) may join the delegation's athletes of `events` (all when empty) as
    one joint team: with the organisers' approval (`needs_approval`, recorded on the
    delegation; "须经组委会批准"), of at most `max_institutions` institutions counting the
    unit's own, all within the unit's province or city (`within`, universities only)."""

    kind: Literal["joint_team"]
    events: list[str] = []
    needs_approval: bool = True
    max_institutions: int | None = Field(default=None, ge=2)
    within: Literal["province", "city"] | None = None


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
    """`documents` due from each of `who`, or (`who: delegation`) from the delegation itself
    ("报名表须加盖单位公章")."""
    kind: Literal["documents"]
    # The portal's kinds (DocumentKind) or those the fixture names in `document_kinds`.
    documents: list[str]
    who: Literal["athletes", "officials", "staff", "companions", "participants", "delegation"] = "athletes"
    events: list[str] | None = None  # athletes of these events only
    due: Literal["entry", "checkin"] = "entry"
    # Of an age only, on `age_on` (the Games' first day when not given): `under_age` for
    # "未满18周岁的须提交监护人同意书", `min_age` for "60岁以上的须提交体检证明".
    min_age: int | None = Field(default=None, ge=1)
    under_age: int | None = Field(default=None, ge=1)
    age_on: dt.date | None = None

    @model_validator(mode="after")
    def _ages(self):
        if self.age_on is not None and self.min_age is None and self.under_age is None:
            raise TextError(Words("写了年龄计算日，却没有写年龄：请填写“年满几岁”或“未满几岁”，或删去计算日",
                                  "a day to count ages on without an age: give the age from which, or under which, "
                                  "the documents are due, or remove the day"))
        if self.min_age is not None and self.under_age is not None and self.min_age >= self.under_age:
            raise TextError(Words(f"年满 {self.min_age} 岁又未满 {self.under_age} 岁的人不存在：这条规则对谁都不适用",
                                  f"nobody is {self.min_age} or older and under {self.under_age}: the rule "
                                  f"applies to no one"))
        if (self.min_age is not None or self.under_age is not None) and self.who == "delegation":
            raise TextError(Words("代表团本身没有年龄：按年龄要求的材料请选择人员",
                                  "a delegation has no age: documents by age are asked of people"))
        return self

    def of_age(self, born: dt.date | None, first_day: dt.date) -> bool:
        """Whether a person born on `born` is of the ages the rule asks it of (any age when
        it names none; someone of unknown birth is not, until his birth date is known)."""
        if self.min_age is None and self.under_age is None:
            return True
        if born is None:
            return False
        age = age_on(born, self.age_on or first_day)
        return (self.min_age is None or age >= self.min_age) and (self.under_age is None or age < self.under_age)


class IdRequiredRule(RuleBase):
    kind: Literal["id_required"]
    who: Who = "participants"


class AcceptedIdTypesRule(RuleBase):
    kind: Literal["accepted_id_types"]
    types: list[str]  # the portal's (IdType) or those the fixture names in `id_types`
    who: Who = "participants"


Rule = Annotated[
    AgeBracketRule | QuotaRule | TeamMakeupRule | BoardRule | ExclusiveRule | OneOfRule | RatingExceptionRule | RegistrationRule | UniversityRule | OfficialsRule | StaffRatioRule | DocumentsRule | IdRequiredRule | AcceptedIdTypesRule | TeamSizeRule | EntryMinimumRule | EventMinimumRule | EntryRequiresRule | CompulsoryRule | OfficialsRatioRule | CrossGenderRule | CompanionRequiredRule | EventUnitsRule | GradeRule | RatingRule | PointsRule | ResidenceRule | NationalityRule | QualifiedRule | PlacedBeforeRule | OfficialsRequiredRule | EmploymentRule | JointTeamRule,
    Field(discriminator="kind"),
]


# --- money, rooms, stay: data for the workflow and the accounts -----------------------

class Fee(Strict):
    code: str
    name: Text
    amount: Decimal
    # participant_day: each person of the delegation for each of `days` days (board, a
    # daily fee), those beyond the staff allowance at `amount_beyond` ("80 a day within the
    # quota, 160 beyond").
    # team_entry: each team (or pair) entered, a unit's second team too ("每队报名费500元").
    # individual_entry: each athlete in each individual event he enters ("每人每项100元").
    # late_athlete: each athlete of a delegation whose entry first arrived after the names
    # deadline, under an extension granted ("逾期报名每人加收报名费100元").
    per: Literal["athlete", "individual_entry", "team_group", "team_entry", "person_changed", "entrant", "appeal",
                 "delegation", "participant_day", "late_athlete"]
    # The events a fee per athlete, entry, team or team group is charged for ("个人赛报名费每人
    # 200元，团体赛每队500元"): those entered in them only; every event when none is listed.
    events: list[str] = []
    # after_event: returned once play is over, unless kept for a reason of `forfeited_on`.
    refundable: Literal["never", "after_checkin", "after_event", "if_upheld"] = "never"
    # Kept when the unit withdraws (shaanxi-mind-2025), for each player who did not finish
    # all rounds, or for misconduct the organisers record ("未下完全部比赛或违反赛风赛纪者不予退还").
    forfeited_on: list[Literal["withdrawal", "unfinished", "misconduct"]] = []
    days: int | None = Field(default=None, ge=1)  # participant_day: the Games' days when not given
    amount_beyond: Decimal | None = None

    @model_validator(mode="after")
    def _events_only_where_counted(self):
        if self.events and self.per not in FEES_BY_EVENT:
            raise TextError(Words("只有按运动员、每人每项、每支参赛队或每个团体组别收取的费用才能限定项目",
                                  "only a fee per athlete, per entry, per team or per team group is charged "
                                  "for some events"))
        return self


FEES_BY_EVENT = ("athlete", "individual_entry", "team_entry", "team_group", "late_athlete")


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


class ForfeitStep(Strict):
    """The `count`-th round a player forfeits without notice, counted across the series'
    Games: a `warning`, or barred from the series' next edition (`barred_next_edition`)."""
    count: int = Field(ge=1)
    sanction: Literal["warning", "barred_next_edition"]


class Sanctions(Strict):
    """What withdrawing and forfeiting cost (nmsg-2009 总则 十(二)): after the names close, an
    unexcused withdrawal bars the unit from that event at the series' next edition (`loses`),
    and may cost the unit its award eligibility at these Games; a withdrawal is excused only
    when announced `notice_hours` before the event's first session ("须于赛前24小时书面通知");
    the player's forfeits climb `forfeits` ("第一次无故弃权警告，第二次取消下届参赛资格")."""
    unexcused_withdrawal_after: Literal["names_closes"] = "names_closes"
    loses: Literal["event_next_edition"] | None = None
    notice_hours: int | None = Field(default=None, ge=1, le=24 * 60)
    loses_award_eligibility: bool = False
    forfeits: list[ForfeitStep] = []
    # A withdrawal is excused only with the unit's written explanation on file (a document
    # kind the delegation uploads: "须提交书面说明").
    explanation: str | None = Field(default=None, pattern=r"^[a-z][a-z0-9_]{1,39}$")
    clause: str | None = Field(default=None, max_length=60)


class Payee(Strict):
    """The account fees are paid into (the regulation's 收款单位、开户行、账号)."""
    name: str
    bank: str | None = None
    account: str | None = None


class Money(Strict):
    currency: Literal["CNY"] = "CNY"
    fees: list[Fee] = []
    # Participants beyond the staff allowance pay the full rate (nmsg-2009).
    staff_excess_full_rate: bool = False
    # An entry counts only once its fee is received by the deadline (youth-gomoku-2015).
    entry_valid_when_paid: bool = False
    insurance: Literal["organiser_buys", "each_participant", "none"] = "none"
    # Where transfers go (as the regulation prints it).
    payee: Payee | None = None


class GamesDefinition(Strict):
    slug: str
    series: str
    edition: int
    name: Text
    # The regulation's text file under fixtures/regulations/ (its clauses shown to leaders).
    regulation: str | None = Field(default=None, pattern=r"^[A-Za-z0-9_.-]{1,100}$")
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
    # Units this regulation adds to the national list (a joint team, an invited club with a
    # code): loaded with the Games.
    units: list[UnitInfo] = []
    # Kinds of documents this regulation asks for beyond the portal's own.
    document_kinds: list[DocumentKindDef] = []
    # Identity documents and kinds of units it names beyond the portal's own (军官证; 企业).
    id_types: list[NamedKind] = []
    unit_kind_names: list[NamedKind] = []
    # What is awarded after play, and how play is organised (awards.py): typed kinds.
    awards: list[Award] = []
    competition: list[CompetitionRule] = []
    # Grade ladders and rating lists this regulation names beyond the portal's (grades.py).
    grade_systems: list[GradeSystemDef] = []
    rating_lists: list[NamedKind] = []
    sanctions: Sanctions = Sanctions()

    @model_validator(mode="after")
    def _late_fee_has_a_deadline(self):
        if self.stages.names_closes is None and any(f.per == "late_athlete" for f in self.money.fees):
            raise TextError(Words("逾期报名费须有报名截止时间：请在“报名阶段”填写报名截止，或删除这项费用",
                                  "a late-entry fee needs the names deadline: set it under stages, or remove the fee"))
        return self

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
        unit_kinds = set(UnitKind.__args__) | {k.code for k in self.unit_kind_names}
        for i, kind in enumerate(self.participation.unit_kinds):
            if kind not in unit_kinds:
                raise ValueError(f"participation.unit_kinds[{i}]: unknown unit kind {kind!r} (add it to unit_kind_names)")
        for i, unit in enumerate(self.units):
            if unit.kind not in unit_kinds:
                raise ValueError(f"units[{i}].kind: unknown unit kind {unit.kind!r} (add it to unit_kind_names)")
        id_types = set(IdType.__args__) | {k.code for k in self.id_types}
        for i, rule in enumerate(self.rules):
            for kind in getattr(rule, "unit_kinds", None) or []:
                if kind not in unit_kinds:
                    raise ValueError(f"rules[{i}].unit_kinds: unknown unit kind {kind!r} (add it to unit_kind_names)")
            if isinstance(rule, AcceptedIdTypesRule):
                for kind in rule.types:
                    if kind not in id_types:
                        raise ValueError(f"rules[{i}].types: unknown identity document {kind!r} (add it to id_types)")
        kinds = set(DocumentKind.__args__) | {k.code for k in self.document_kinds}
        if self.sanctions.explanation and self.sanctions.explanation not in kinds:
            raise ValueError(f"sanctions.explanation: unknown document kind {self.sanctions.explanation!r} "
                             f"(add it to document_kinds)")
        for i, rule in enumerate(self.rules):
            for code in getattr(rule, "documents", None) or []:
                if code not in kinds:
                    raise ValueError(f"rules[{i}].documents: unknown document kind {code!r} "
                                     f"(add it to document_kinds)")
        self._grades_resolve(unit_kinds)
        for section in ("awards", "competition"):
            for i, field, code in event_codes(getattr(self, section)):
                if code not in known:
                    raise ValueError(f"{section}[{i}].{field}: unknown event {code!r}")
        for i, fee in enumerate(self.money.fees):
            for code in fee.events:
                if code not in known:
                    raise ValueError(f"money.fees[{i}].events: unknown event {code!r}")
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

    def _grades_resolve(self, unit_kinds) -> None:
        from .grades import grade_systems, rating_lists
        systems, lists = grade_systems(self), rating_lists(self)

        def no_system(where, code):
            names = "、".join(f"{c}（{s.name[0]}）" for c, s in systems.items())
            return TextError(Words(f"没有“{code}”这个段级位体系，可选：{names}；其他体系请在 grade_systems 中列出",
                                   f"unknown grade system {code!r} (one of {', '.join(systems)}, or add it to grade_systems)"),
                             where)

        def not_on_ladder(where, word, system):
            return TextError(Words(f"“{word}”不是{system.name[0]}中的等级，可选：{'、'.join(system.ladder)}",
                                   f"{word!r} is not a grade of the {system.name[1]} ({', '.join(system.ladder)})"), where)

        for i, rule in enumerate(self.rules):
            if isinstance(rule, GradeRule):
                system = systems.get(rule.system)
                if system is None:
                    raise no_system(f"rules[{i}].system", rule.system)
                for bound in ("lowest", "highest", "below"):
                    word = getattr(rule, bound)
                    if word is not None and system.rank(word) is None:
                        raise not_on_ladder(f"rules[{i}].{bound}", word, system)
            if isinstance(rule, RatingRule) and rule.list not in lists:
                names = "、".join(f"{c}（{n[0]}）" for c, n in lists.items())
                raise TextError(Words(f"没有“{rule.list}”这个等级分名单，可选：{names}",
                                      f"unknown rating list {rule.list!r} (one of {', '.join(lists)}, or add it to "
                                      f"rating_lists)"), f"rules[{i}].list")
        for i, award in enumerate(self.awards):
            code = getattr(award, "system", None)
            if code is None:
                continue
            if code not in systems:
                raise no_system(f"awards[{i}].system", code)
            for word in (getattr(award, "grades", None) or {}).values():
                if systems[code].rank(word) is None:
                    raise not_on_ladder(f"awards[{i}].grades", word, systems[code])
            up_to = getattr(award, "up_to", None)
            if up_to is not None and systems[code].rank(up_to) is None:
                raise not_on_ladder(f"awards[{i}].up_to", up_to, systems[code])

    def rules_of(self, kind: type) -> list:
        return [r for r in self.rules if isinstance(r, kind)]


class UnitInfo(Strict):
    """A unit as the engine needs it (from the units fixture, or a Games' own)."""

    code: str
    name: Text
    kind: str  # UnitKind, or a kind the Games' fixture names
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


BUILTIN_DOCUMENT_NAMES = {
    "id_copy": ("身份证或户口簿复印件", "copy of the ID card or household register"),
    "photo": ("一寸免冠照片", "1-inch photo"),
    "health_certificate": ("健康证明", "health certificate"),
    "insurance_proof": ("人身意外伤害保险证明", "personal accident insurance proof"),
    "safety_pledge": ("安全责任承诺书", "signed safety pledge"),
    "student_status_proof": ("学籍证明", "proof of student status"),
}


BUILTIN_ID_TYPE_NAMES = {
    "resident_id": ("居民身份证", "resident ID card"),
    "household_register": ("户口簿", "household register"),
    "passport": ("护照", "passport"),
    "hk_macau_permit": ("港澳居民来往内地通行证", "Home Return Permit (HK/Macau)"),
    "taiwan_permit": ("台湾居民来往大陆通行证", "Taiwan Compatriot Permit"),
    "foreign_permanent_id": ("外国人永久居留身份证", "foreign permanent resident ID"),
}


def id_type_names(definition: GamesDefinition | None) -> dict[str, tuple[str, str]]:
    """Every identity document a Games knows -> (zh, en): the portal's and its fixture's."""
    out = dict(BUILTIN_ID_TYPE_NAMES)
    for k in (definition.id_types if definition is not None else []):
        out[k.code] = (k.name.zh, k.name.en)
    return out


def document_names(definition: GamesDefinition | None) -> dict[str, tuple[str, str]]:
    """Every document kind a Games knows -> (zh, en): the portal's and its fixture's."""
    out = dict(BUILTIN_DOCUMENT_NAMES)
    for k in (definition.document_kinds if definition is not None else []):
        out[k.code] = (k.name.zh, k.name.en)
    return out


GamesDefinition.model_rebuild()
