"""Reading the register for the organisers' page: the Games' people a page at a time, with
what the register holds of each (a fixed number of queries per page)."""
from __future__ import annotations

from dataclasses import dataclass, field
from decimal import Decimal

from sqlalchemy import func, select

from ..delegations.models import Delegation, DelegationStatus, Person
from ..extensions import db
from ..games.models import Unit
from ..games.services import unit_names
from ..rules.document import GradeHeld, ParsedPerson, RatingHeld
from .career import ANY_UNIT, add_career
from .models import PlayerGrade, PlayerPoints, RatingList

PAGE = 50


@dataclass
class Row:
    delegation_id: int
    ref: str
    name: str
    unit: str
    has_number: bool
    grades: list[tuple[int, GradeHeld]] = field(default_factory=list)  # (register row id, grade)
    ratings: dict[str, RatingHeld] = field(default_factory=dict)  # the latest of each list
    points: dict[str, str] = field(default_factory=dict)  # kind's name -> total held, as shown


def people_page(games, q: str = "", page: int = 1, en: bool = False) -> tuple[list[Row], int]:
    """One page of the Games' people (of delegations not withdrawn) and how many there are."""
    where = [Delegation.games_id == games.id, Delegation.status != DelegationStatus.WITHDRAWN]
    if q:
        where.append(Person.name.contains(q[:50]))
    total = db.session.scalar(select(func.count(Person.id)).join(Delegation, Delegation.id == Person.delegation_id)
                             .where(*where))
    units = dict(db.session.execute(select(Unit.code, Unit.name_en if en else Unit.name_zh)).all())
    rows = db.session.execute(
        select(Person.delegation_id, Person.ref, Person.name, Person.id_number, Delegation.unit_code, Delegation.unit_name)
        .join(Delegation, Delegation.id == Person.delegation_id).where(*where).order_by(Delegation.unit_code, Delegation.unit_name, Person.position, Person.id)
        .limit(PAGE).offset((max(page, 1) - 1) * PAGE)).all()
    people = [ParsedPerson(ref=f"{r.delegation_id}:{r.ref}", name=r.name, id_number=r.id_number) for r in rows]
    unit_of = {p.ref: r.unit_code for p, r in zip(people, rows, strict=True)}
    # The organisers of these Games see all their people; lists by name read each person's unit.
    matched = add_career(people, ANY_UNIT, unit_of=lambda p: unit_of.get(p.ref))
    ids = {id(p): pid for pid, ps in matched.items() for p in ps}
    grade_ids = _grade_ids(list(matched))
    points: dict[int, dict[str, str]] = {}
    for pid, name, held in db.session.execute(
            select(PlayerPoints.player_id, PlayerPoints.points_name, func.sum(PlayerPoints.amount))
            .where(PlayerPoints.player_id.in_(list(matched) or [-1]))
            .group_by(PlayerPoints.player_id, PlayerPoints.points_name)):
        points.setdefault(pid, {})[name] = f"{Decimal(held).normalize():f}"
    out = []
    for r, p in zip(rows, people, strict=True):
        row = Row(r.delegation_id, r.ref, r.name, units.get(r.unit_code, r.unit_name or r.unit_code or ""), bool(r.id_number))
        mine = grade_ids.get(ids.get(id(p)), [])
        row.grades = [(gid, g) for gid, g in zip(mine, p.grades, strict=False)]
        row.ratings = {code: held[-1] for code, held in p.ratings.items()}
        row.points = points.get(ids.get(id(p)), {})
        out.append(row)
    return out, total or 0


def _grade_ids(player_ids: list[int]) -> dict[int, list[int]]:
    """Each player's standing grade rows' ids, in the order add_career reads them."""
    out: dict[int, list[int]] = {}
    for gid, pid in db.session.execute(select(PlayerGrade.id, PlayerGrade.player_id).where(
            PlayerGrade.player_id.in_(player_ids or [-1]), PlayerGrade.withdrawn_at.is_(None)).order_by(PlayerGrade.id)):
        out.setdefault(pid, []).append(gid)
    return out


def rating_editions() -> list[RatingList]:
    return list(db.session.scalars(select(RatingList).order_by(RatingList.published_on.desc()).limit(20)))


def unit_name_of(delegation, en: bool = False) -> str:
    if not delegation.unit_code:
        return delegation.unit_name or ""
    return unit_names("en" if en else "zh").get(delegation.unit_code, delegation.unit_name or delegation.unit_code)


def person_of(games, delegation_id: int, ref: str) -> Person | None:
    return db.session.scalar(select(Person).join(Delegation, Delegation.id == Person.delegation_id).where(
        Delegation.games_id == games.id, Person.delegation_id == delegation_id, Person.ref == ref))


@dataclass
class Qualifier:
    id: int
    name: str
    number: str  # masked
    source: str  # the qualifier's name, or who put him on the list
    place: int | None
    by_hand: bool
    units: str = ""  # the units he has represented, in words (whose delegations may enter him)


def qualifiers_for(games, en: bool = False) -> list[Qualifier]:
    """Who is on these Games' list of qualified players (for its slug or its series), from
    one query: the places earned elsewhere and those put on it by hand."""
    from ..games.models import Games
    from ..privacy import mask_id
    from .models import Qualification, RegisteredPlayer
    rows = db.session.execute(
        select(Qualification.id, RegisteredPlayer.name, RegisteredPlayer.id_number, Qualification.from_games,
               Qualification.place, Qualification.event_code, Games.name_zh, RegisteredPlayer.units)
        .join(RegisteredPlayer, RegisteredPlayer.id == Qualification.player_id)
        .outerjoin(Games, Games.slug == Qualification.from_games)
        .where(Qualification.target.in_([games.slug, games.series]), Qualification.withdrawn_at.is_(None))
        .order_by(Qualification.from_games, Qualification.place, RegisteredPlayer.name).limit(2000)).all()
    names = unit_names("en" if en else "zh") if rows else {}
    return [Qualifier(r.id, r.name, mask_id(r.id_number), r.name_zh or r.from_games, r.place, r.event_code is None,
                      "、".join(names.get(u, u) for u in (r.units or [])))
            for r in rows]


def units_to_choose(games, definition, en: bool = False) -> list[tuple[str, str]]:
    """(code, name) of the units a wild card may be given for: those of these Games'
    delegations and every unit of the kinds the Games admits."""
    kinds = list(definition.participation.unit_kinds) or ["-"]
    codes = set(db.session.scalars(select(Delegation.unit_code).where(Delegation.games_id == games.id,
                                                                      Delegation.unit_code.is_not(None))))
    rows = db.session.execute(select(Unit.code, Unit.name_en if en else Unit.name_zh)
                              .where((Unit.kind.in_(kinds)) | (Unit.code.in_(codes or {"-"})))
                              .order_by(Unit.code).limit(500)).all()
    return [(code, name) for code, name in rows]
