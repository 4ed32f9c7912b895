"""A player's whole career as the register holds it, for the organisers of a Games he
entered: every grade and title (corrections with their reasons), each rating list's
editions, his places, the points and qualifications his results earned, his forfeits and sanctions.
A fixed number of queries."""
from __future__ import annotations

import datetime as dt
from dataclasses import dataclass, field
from decimal import Decimal

from sqlalchemy import select

from ..extensions import db
from ..games.models import Games
from ..games.services import definition_of, unit_names
from ..privacy import mask_id
from ..rules.idnumber import normalise
from .models import (
    PlayerForfeit,
    PlayerGrade,
    PlayerPlace,
    PlayerPoints,
    PlayerRating,
    PlayerSanction,
    Qualification,
    RatingList,
    RegisteredPlayer,
)


@dataclass
class Career:
    name: str
    number: str  # masked
    units: list[str]
    grades: list[PlayerGrade] = field(default_factory=list)  # newest first, withdrawn ones too
    ratings: dict[str, list[tuple[dt.date, int]]] = field(default_factory=dict)  # list -> (published, value), newest first
    places: list[tuple[str, str, int]] = field(default_factory=list)  # (games, event, place), the latest edition first
    points: list[tuple[str, str, str, int, Decimal]] = field(default_factory=list)  # (kind, games, event, place, amount)
    totals: dict[str, Decimal] = field(default_factory=dict)
    qualifications: list[tuple[Qualification, str, str]] = field(default_factory=list)  # (row, from, for) in words
    forfeits: list[tuple[str, int, str, str, int]] = field(default_factory=list)  # (series, edition, games, event, round)
    sanctions: list[tuple[PlayerSanction, str]] = field(default_factory=list)


def career_of(person, en: bool = False) -> Career | None:
    """The register's player this person is (identity number and name both matching), None
    when the register does not know him."""
    if not person.id_number:
        return None
    player = db.session.scalar(select(RegisteredPlayer).where(RegisteredPlayer.id_number == normalise(person.id_number)))
    if player is None or "".join(player.name.split()) != "".join((person.name or "").split()):
        return None
    names = unit_names("en" if en else "zh")
    out = Career(player.name, mask_id(player.id_number), [names.get(u, u) for u in player.units or []])
    out.grades = list(db.session.scalars(select(PlayerGrade).where(PlayerGrade.player_id == player.id)
                                         .order_by(PlayerGrade.awarded_on.desc(), PlayerGrade.id.desc())))
    for code, published, value in db.session.execute(
            select(RatingList.list_code, RatingList.published_on, PlayerRating.value)
            .join(RatingList, RatingList.id == PlayerRating.list_id).where(PlayerRating.player_id == player.id)
            .order_by(RatingList.published_on.desc())):
        out.ratings.setdefault(code, []).append((published, value))
    games = {g.slug: g for g in db.session.scalars(select(Games))}

    def called(slug: str) -> str:
        g = games.get(slug)
        return (g.name_en if en else g.name_zh) if g else slug

    def target(slug_or_series: str) -> str:
        """A Games by its name; a series by the name of its latest edition, as a series."""
        if slug_or_series in games:
            return called(slug_or_series)
        editions = sorted((g for g in games.values() if g.series == slug_or_series), key=lambda g: g.edition)
        if not editions:
            return slug_or_series
        return (f"any edition of {editions[-1].name_en}" if en else f"{editions[-1].name_zh}（该系列各届）")

    def event(slug: str, code: str) -> str:
        """The event's name in its Games (a sport's name and the event's), never its code."""
        g = games.get(slug)
        if g is None:
            return ""
        definition = definition_of(g)
        e = next((x for x in definition.events if x.code == code), None)
        if e is None:
            return ""
        sport = next((s.name for s in definition.sports if s.code == e.sport), None)
        return (f"{sport.en} {e.name.en}" if sport else e.name.en) if en else (sport.zh if sport else "") + e.name.zh

    # Places as their results named them: the Games' and the event's names were kept with them.
    for row in db.session.scalars(select(PlayerPlace).where(PlayerPlace.player_id == player.id)
                                  .order_by(PlayerPlace.edition.desc(), PlayerPlace.id)):
        out.places.append((row.games_name_en if en else row.games_name_zh, row.event_name_en if en else row.event_name_zh,
                           row.place))
    for row in db.session.scalars(select(PlayerPoints).where(PlayerPoints.player_id == player.id)
                                  .order_by(PlayerPoints.recorded_at.desc())):
        out.points.append((row.points_name, called(row.games_slug), event(row.games_slug, row.event_code), row.place,
                           row.amount))
        out.totals[row.points_name] = out.totals.get(row.points_name, Decimal(0)) + row.amount
    for row in db.session.scalars(select(Qualification).where(Qualification.player_id == player.id)
                                  .order_by(Qualification.recorded_at.desc())):
        out.qualifications.append((row, called(row.from_games), target(row.target)))
    for row in db.session.scalars(select(PlayerForfeit).where(PlayerForfeit.player_id == player.id)
                                  .order_by(PlayerForfeit.edition.desc(), PlayerForfeit.round_no)):
        out.forfeits.append((row.series, row.edition, called(row.games_slug), event(row.games_slug, row.event_code),
                             row.round_no))
    for row in db.session.scalars(select(PlayerSanction).where(PlayerSanction.player_id == player.id)
                                  .order_by(PlayerSanction.created_at.desc())):
        out.sanctions.append((row, called(row.source_games)))
    return out
