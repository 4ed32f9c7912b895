"""Reading a delegation document (shared/spec/delegation-format.md) into plain objects.

Every problem becomes a SCHEMA_INVALID violation naming the field path; a bad field is
dropped (set to None) so that the rest of the document can still be checked, and the
leader sees every broken rule at once.
"""
from __future__ import annotations

import datetime as dt
import re
from dataclasses import dataclass, field
from decimal import Decimal
from typing import Any

from .violations import Violation, schema_error

FORMAT = "delegation/1"
ID_TYPES = ("resident_id", "passport", "hk_macau_permit", "taiwan_permit",
            "foreign_permanent_id", "household_register")
_KIND = re.compile(r"[a-z][a-z0-9_]{1,39}")
DOCUMENTS = ("id_copy", "photo", "health_certificate", "insurance_proof", "safety_pledge",
             "student_status_proof")
OFFICIAL_ROLES = ("leader", "coach", "leader_coach")
STAFF_ROLES = ("head", "deputy_head", "staff")
_ISO_DATE = re.compile(r"^\d{4}-\d{2}-\d{2}$")


@dataclass
class ParsedPerson:
    ref: str
    name: str | None = None
    gender: str | None = None
    birth_date: dt.date | None = None
    id_type: str | None = None
    id_number: str | None = None
    registration_unit: str | None = None
    registration_year: int | None = None
    registration_date: dt.date | None = None
    university_code: str | None = None
    full_time: bool | None = None
    graduation_date: dt.date | None = None
    fide_rating: int | None = None
    fide_list: dt.date | None = None
    documents: set[str] = field(default_factory=set)
    other_documents: list[tuple[int, str]] = field(default_factory=list)  # (index, code) not the portal's own
    club: str | None = None
    has_university: bool = False
    index: int = 0
    # The player's career (optional; the player register adds what it knows): grades and
    # titles, ratings by list, residence, nationality, employment.
    grades: list[GradeHeld] = field(default_factory=list)
    ratings: dict[str, list[RatingHeld]] = field(default_factory=dict)
    places: list[PlaceHeld] = field(default_factory=list)  # the register's only, never the document's
    points: dict[str, Decimal] = field(default_factory=dict)  # federation points held, by kind: the register's only
    residence_region: str | None = None
    residence_since: dt.date | None = None
    nationality: str | None = None
    employment_unit: str | None = None
    employment_kind: str | None = None
    employment_since: dt.date | None = None

    def profile(self) -> dict | None:
        """The career fields as the document writes them (what a save stores), None when empty;
        what the register added is not the document's and is left out."""
        out: dict = {}
        grades = [g for g in self.grades if g.source is None]
        if grades:
            out["grades"] = [{"system": g.system, "grade": g.grade,
                              "awarded_on": g.awarded_on.isoformat() if g.awarded_on else None,
                              **({"awarded_by": g.awarded_by} if g.awarded_by else {})} for g in grades]
        ratings = {k: [r for r in v if r.source is None] for k, v in self.ratings.items() if k != "fide"}
        ratings = {k: v[0] for k, v in ratings.items() if v}
        if ratings:
            out["ratings"] = {k: {"value": r.value, "list": r.list_date.isoformat() if r.list_date else None}
                              for k, r in sorted(ratings.items())}
        if self.residence_region or self.residence_since:
            out["residence"] = {"province": self.residence_region,
                                "since": self.residence_since.isoformat() if self.residence_since else None}
        if self.nationality:
            out["nationality"] = self.nationality
        if self.employment_unit or self.employment_kind:
            out["employment"] = {"unit": self.employment_unit, "kind": self.employment_kind,
                                 "since": self.employment_since.isoformat() if self.employment_since else None}
        return out or None

    @property
    def label(self) -> str:
        return self.name or self.ref

    def rating_on(self, list_code: str) -> list[RatingHeld]:
        """The ratings held on a list, the FIDE rating given beside the others included."""
        held = list(self.ratings.get(list_code, []))
        if list_code == "fide" and self.fide_rating is not None and not any(r.source is None for r in held):
            held.append(RatingHeld(self.fide_rating, self.fide_list))
        return held


@dataclass(frozen=True)
class GradeHeld:
    system: str
    grade: str
    awarded_on: dt.date | None = None
    source: str | None = None  # None: the document says so; else where the register has it from
    awarded_by: str | None = None  # the body that awarded it, as its certificate names it


@dataclass(frozen=True)
class PlaceHeld:
    """A place the player took at an earlier Games, as the register holds it."""
    series: str
    edition: int
    event: str
    place: int
    source: tuple[str, str]  # (zh, en): "2025年全国围棋锦标赛 男子个人 第2名"


@dataclass(frozen=True)
class RatingHeld:
    value: int
    list_date: dt.date | None = None
    source: str | None = None


@dataclass
class Slot:
    person: str
    board: int | None = None
    reserve: bool = False


@dataclass
class ParsedEntry:
    event: str
    index: int
    people: list[str] = field(default_factory=list)
    team: str | None = None
    lineup: list[Slot] | None = None

    @property
    def is_team_entry(self) -> bool:
        return self.lineup is not None

    def all_people(self) -> list[str]:
        if self.lineup is not None:
            return [s.person for s in self.lineup]
        return list(self.people)


@dataclass
class Role:
    person: str
    role: str
    sport: str | None = None
    accompanies: str | None = None


@dataclass
class ParsedDelegation:
    games: str | None
    unit: Any  # unit code, {"name", "kind"} for an open unit, None for an individual
    declarations: list[tuple[str, int]] = field(default_factory=list)
    people: list[ParsedPerson] = field(default_factory=list)
    entries: list[ParsedEntry] = field(default_factory=list)
    officials: list[Role] = field(default_factory=list)
    staff: list[Role] = field(default_factory=list)
    companions: list[Role] = field(default_factory=list)

    @property
    def unit_code(self) -> str | None:
        return self.unit if isinstance(self.unit, str) else None


class _Reader:
    def __init__(self):
        self.violations: list[Violation] = []

    def err(self, path, zh, en):
        self.violations.append(schema_error(path, zh, en))

    def obj(self, value, path, required=True) -> dict | None:
        if value is None:
            if required:
                self.err(path, "缺少此项", "is required")
            return None
        if not isinstance(value, dict):
            self.err(path, "应为对象", "must be an object")
            return None
        return value

    def lst(self, value, path) -> list:
        if value is None:
            return []
        if not isinstance(value, list):
            self.err(path, "应为列表", "must be a list")
            return []
        return value

    def text(self, d, key, path, required=False) -> str | None:
        value = d.get(key)
        if isinstance(value, str):  # first: a document's every person has a dozen texts
            value = value.strip()
            if value:
                return value
        elif value is not None:
            self.err(f"{path}.{key}", "应为文本", "must be a string")
            return None
        if required:
            self.err(f"{path}.{key}", "缺少此项", "is required")
        return None

    def choice(self, d, key, path, options, required=False) -> str | None:
        value = self.text(d, key, path, required)
        if value is not None and value not in options:
            self.err(f"{path}.{key}", f"“{value}”不是可选值（{'、'.join(options)}）",
                     f"{value!r} is not one of {', '.join(options)}")
            return None
        return value

    def date(self, d, key, path, required=False) -> dt.date | None:
        value = d.get(key)
        if value is None:
            if required:
                self.err(f"{path}.{key}", "缺少此项", "is required")
            return None
        if isinstance(value, str) and _ISO_DATE.match(value):
            try:
                return dt.date.fromisoformat(value)
            except ValueError:
                pass
        self.err(f"{path}.{key}", f"日期“{value}”无效，应写成 YYYY-MM-DD，如 2005-03-02",
                 f"{value!r} is not a valid date; write YYYY-MM-DD, e.g. 2005-03-02")
        return None

    def integer(self, d, key, path, required=False, minimum=None) -> int | None:
        value = d.get(key)
        if value is None:
            if required:
                self.err(f"{path}.{key}", "缺少此项", "is required")
            return None
        if isinstance(value, bool) or not isinstance(value, int):
            self.err(f"{path}.{key}", "应为整数", "must be a whole number")
            return None
        if minimum is not None and value < minimum:
            self.err(f"{path}.{key}", f"不能小于 {minimum}", f"must be at least {minimum}")
            return None
        return value

    def boolean(self, d, key, path) -> bool | None:
        value = d.get(key)
        if value is None:
            return None
        if not isinstance(value, bool):
            self.err(f"{path}.{key}", "应为 true 或 false", "must be true or false")
            return None
        return value


EMPLOYMENT_KINDS = ("staff", "student", "graduate")
_REGION = re.compile(r"^\d{6}$")
_COUNTRY = re.compile(r"^[A-Z]{3}$")


def _career(r: _Reader, item: dict, path: str, p: ParsedPerson) -> None:
    """The optional career fields of a person (delegation-format.md)."""
    for j, g in enumerate(r.lst(item.get("grades"), f"{path}.grades")):
        gpath = f"{path}.grades[{j}]"
        g = r.obj(g, gpath)
        if g is None:
            continue
        system = r.text(g, "system", gpath, required=True)
        if system is not None and not _KIND.fullmatch(system):
            r.err(f"{gpath}.system", f"“{system}”不是段级位体系的代码（如 cwa、cxa）", f"{system!r} is not a grade system code (e.g. cwa, cxa)")
            system = None
        grade = r.text(g, "grade", gpath, required=True)
        awarded = r.date(g, "awarded_on", gpath)
        body = r.text(g, "awarded_by", gpath)  # optional: the body that awarded it
        if system and grade:
            p.grades.append(GradeHeld(system, grade[:40], awarded, awarded_by=body[:200] if body else None))
    ratings = r.obj(item.get("ratings"), f"{path}.ratings", required=False)
    for code, value in (ratings or {}).items():
        rpath = f"{path}.ratings.{code}"
        if not isinstance(code, str) or not _KIND.fullmatch(code):
            r.err(rpath, f"“{code}”不是等级分名单的代码（如 fide、cca）", f"{code!r} is not a rating list code (e.g. fide, cca)")
            continue
        value = r.obj(value, rpath)
        if value is None:
            continue
        points = r.integer(value, "value", rpath, required=True, minimum=0)
        if points is not None:
            p.ratings[code] = [RatingHeld(points, r.date(value, "list", rpath))]
    residence = r.obj(item.get("residence"), f"{path}.residence", required=False)
    if residence is not None:
        region = residence.get("province")
        if isinstance(region, int) and not isinstance(region, bool):
            region = str(region)
        if region is not None and not (isinstance(region, str) and _REGION.match(region.strip())):
            r.err(f"{path}.residence.province", f"“{region}”不是 6 位行政区划代码（如 620000）",
                  f"{region!r} is not a 6-digit administrative-division code (e.g. 620000)")
        elif region is not None:
            p.residence_region = region.strip()
        p.residence_since = r.date(residence, "since", f"{path}.residence")
    nationality = item.get("nationality")
    if nationality is not None:
        if isinstance(nationality, str) and _COUNTRY.match(nationality.strip().upper()):
            p.nationality = nationality.strip().upper()
        else:
            r.err(f"{path}.nationality", f"“{nationality}”不是三位字母的国家代码（如 CHN）",
                  f"{nationality!r} is not a 3-letter country code (e.g. CHN)")
    employment = r.obj(item.get("employment"), f"{path}.employment", required=False)
    if employment is not None:
        p.employment_unit = r.text(employment, "unit", f"{path}.employment")
        p.employment_kind = r.choice(employment, "kind", f"{path}.employment", EMPLOYMENT_KINDS)
        p.employment_since = r.date(employment, "since", f"{path}.employment")


def parse_document(data: Any) -> tuple[ParsedDelegation | None, list[Violation]]:
    """Parse a decoded JSON document. Returns the delegation (None when nothing usable)
    and the SCHEMA_INVALID violations found."""
    r = _Reader()
    root = r.obj(data, "")
    if root is None:
        return None, r.violations
    if root.get("format") not in (None, FORMAT):
        r.err("format", f"应为“{FORMAT}”", f"must be {FORMAT!r}")
    games = r.text(root, "games", "", required=True) if "games" in root else None
    if "games" not in root:
        r.err("games", "缺少此项", "is required")
    unit = root.get("unit")
    if "unit" not in root:
        r.err("unit", "缺少此项（个人报名请写 null）", "is required (null for an individual)")
    elif isinstance(unit, dict):
        name = r.text(unit, "name", "unit", required=True)
        kind = r.text(unit, "kind", "unit")
        unit = {"name": name, "kind": kind or "club"} if name else None
    elif unit is not None and not isinstance(unit, str):
        r.err("unit", "应为单位代码、对象或 null", "must be a unit code, an object or null")
        unit = None
    d = ParsedDelegation(games=games, unit=unit.strip().lower() if isinstance(unit, str) else unit)

    for i, item in enumerate(r.lst(root.get("declarations"), "declarations")):
        path = f"declarations[{i}]"
        item = r.obj(item, path)
        if item is None:
            continue
        event = r.text(item, "event", path, required=True)
        count = r.integer(item, "count", path, required=True, minimum=0)
        if event and count is not None:
            d.declarations.append((event, count))

    refs: set[str] = set()
    for i, item in enumerate(r.lst(root.get("people"), "people")):
        path = f"people[{i}]"
        item = r.obj(item, path)
        if item is None:
            continue
        ref = r.text(item, "ref", path, required=True)
        if ref is None:
            continue
        if ref in refs:
            r.err(f"{path}.ref", f"引用“{ref}”重复", f"ref {ref!r} is used twice")
            continue
        refs.add(ref)
        p = ParsedPerson(ref=ref, index=i)
        p.name = r.text(item, "name", path, required=True)
        p.gender = r.choice(item, "gender", path, ("M", "F"))
        p.birth_date = r.date(item, "birth_date", path)
        raw_type = item.get("id_type")
        if isinstance(raw_type, str) and raw_type not in ID_TYPES and _KIND.fullmatch(raw_type):
            p.id_type = raw_type  # one a Games' fixture may name (id_types): the engine checks it
        else:
            p.id_type = r.choice(item, "id_type", path, ID_TYPES)
        idn = item.get("id_number")
        if isinstance(idn, int) and not isinstance(idn, bool):
            r.err(f"{path}.id_number", "证件号码应写成文本（加引号），以免丢失末位 X 或前导 0",
                  "must be a string (quoted), so that a trailing X or leading 0 is kept")
        else:
            p.id_number = r.text(item, "id_number", path)
        if p.id_number and p.id_type is None and "id_type" not in item:
            p.id_type = "resident_id"
        reg = r.obj(item.get("registration"), f"{path}.registration", required=False)
        if reg is not None:
            p.registration_unit = r.text(reg, "unit", f"{path}.registration")
            p.registration_year = r.integer(reg, "year", f"{path}.registration")
            p.registration_date = r.date(reg, "date", f"{path}.registration")
        uni = r.obj(item.get("university"), f"{path}.university", required=False)
        if uni is not None:
            p.has_university = True
            p.university_code = r.text(uni, "code", f"{path}.university")
            p.full_time = r.boolean(uni, "full_time", f"{path}.university")
            p.graduation_date = r.date(uni, "graduation_date", f"{path}.university")
        rating = r.obj(item.get("fide_rating"), f"{path}.fide_rating", required=False)
        if rating is not None:
            p.fide_rating = r.integer(rating, "value", f"{path}.fide_rating", required=True, minimum=0)
            p.fide_list = r.date(rating, "list", f"{path}.fide_rating")
        for j, doc in enumerate(r.lst(item.get("documents"), f"{path}.documents")):
            if doc in DOCUMENTS:
                p.documents.add(doc)
            elif isinstance(doc, str) and _KIND.fullmatch(doc):
                # A kind a regulation may name in its fixture (document_kinds): the engine
                # checks it against the Games (checks/delegation.py, document_kinds_known).
                p.documents.add(doc)
                p.other_documents.append((j, doc))
            else:
                r.err(f"{path}.documents[{j}]", f"未知的材料“{doc}”（可选：{'、'.join(DOCUMENTS)}）",
                      f"unknown document {doc!r} (one of {', '.join(DOCUMENTS)})")
        p.club = r.text(item, "club", path)
        _career(r, item, path, p)
        d.people.append(p)

    def person_ref(value, path) -> str | None:
        if not isinstance(value, str) or not value:
            r.err(path, "应为人员引用（people 中的 ref）", "must be a person ref from people")
            return None
        if value not in refs:
            r.err(path, f"人员引用“{value}”在 people 中不存在", f"unknown person ref {value!r}")
            return None
        return value

    for i, item in enumerate(r.lst(root.get("entries"), "entries")):
        path = f"entries[{i}]"
        item = r.obj(item, path)
        if item is None:
            continue
        event = r.text(item, "event", path, required=True)
        if event is None:
            continue
        entry = ParsedEntry(event=event, index=i)
        team = item.get("team")
        if team is not None and not isinstance(team, (str, int)):
            r.err(f"{path}.team", "应为文本", "must be a string")
            team = None
        entry.team = str(team) if team is not None else None
        if "lineup" in item and item["lineup"] is not None:
            entry.lineup = []
            for j, slot in enumerate(r.lst(item["lineup"], f"{path}.lineup")):
                spath = f"{path}.lineup[{j}]"
                slot = r.obj(slot, spath)
                if slot is None:
                    continue
                ref = person_ref(slot.get("person"), f"{spath}.person")
                board = r.integer(slot, "board", spath)
                reserve = r.boolean(slot, "reserve", spath) or False
                if ref:
                    entry.lineup.append(Slot(ref, board, reserve))
        else:
            if "people" not in item:
                r.err(f"{path}.people", "缺少此项（团体项目请用 lineup）",
                      "is required (use lineup for a team)")
            for j, ref in enumerate(r.lst(item.get("people"), f"{path}.people")):
                ref = person_ref(ref, f"{path}.people[{j}]")
                if ref:
                    entry.people.append(ref)
        d.entries.append(entry)

    for key, roles, target in (("officials", OFFICIAL_ROLES, d.officials),
                               ("staff", STAFF_ROLES, d.staff)):
        for i, item in enumerate(r.lst(root.get(key), key)):
            path = f"{key}[{i}]"
            item = r.obj(item, path)
            if item is None:
                continue
            ref = person_ref(item.get("person"), f"{path}.person")
            role = r.choice(item, "role", path, roles, required=True)
            sport = r.text(item, "sport", path) if key == "officials" else None
            if ref and role:
                target.append(Role(ref, role, sport))
    for i, item in enumerate(r.lst(root.get("companions"), "companions")):
        path = f"companions[{i}]"
        item = r.obj(item, path)
        if item is None:
            continue
        ref = person_ref(item.get("person"), f"{path}.person")
        acc = item.get("accompanies")
        acc = person_ref(acc, f"{path}.accompanies") if acc is not None else None
        if ref:
            d.companions.append(Role(ref, "companion", accompanies=acc))
    return d, r.violations
