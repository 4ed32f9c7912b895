"""What the Games and set-up pages read of the Games and units beside a Games' definition."""
from __future__ import annotations

from sqlalchemy import not_, select

from ..access import scope
from ..delegations.models import Delegation  # a model is data every area may read
from ..extensions import db
from .models import Games, Unit, University


def all_games() -> list[Games]:
    return list(db.session.scalars(select(Games).order_by(Games.slug)))


def all_units() -> list[Unit]:
    return db.session.scalars(select(Unit).order_by(Unit.kind, Unit.code)).all()


def units_by_code(codes: list[str]) -> dict[str, Unit]:
    return {u.code: u for u in db.session.scalars(select(Unit).where(Unit.code.in_(codes)))} if codes else {}


def unit_names_and_codes() -> list[tuple[str, str, str]]:
    """(code, Chinese name, English name) of every unit."""
    return db.session.execute(select(Unit.code, Unit.name_zh, Unit.name_en)).all()


def units_used_elsewhere(codes: list[str]) -> set[str]:
    """Which of these units the delegations of Games the reader does not serve use."""
    return set(db.session.scalars(select(Delegation.unit_code).where(
        Delegation.unit_code.in_(codes), not_(scope.games_clause(Delegation.games_id))).distinct())) if codes else set()


def sample_unit(definition) -> Unit | None:
    """A unit that may enter these Games, for a sample delegation: the first of a kind that
    may, or the first invited."""
    unit = db.session.scalar(select(Unit).where(Unit.kind.in_(definition.participation.unit_kinds or ["-"]))
                             .order_by(Unit.code).limit(1))
    if unit is None and definition.participation.invited:  # an invitation list only
        unit = db.session.scalar(select(Unit).where(Unit.code == definition.participation.invited[0]))
    return unit


def sample_university(unit: Unit | None) -> str | None:
    """A public undergraduate university, of the unit's province where it has one."""
    return db.session.scalar(
        select(University.code).where(University.ownership == "public", University.level == "undergraduate",
                                      *((University.province_code == unit.province_code,)
                                        if unit is not None and unit.province_code else ()))
        .order_by(University.code).limit(1))
