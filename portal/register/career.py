"""What the register knows of a delegation's people, for the rules: their grades and ratings
added to what the document gives, and which of them qualified for these Games. A person is
the register's player only when the identity number and the name both match: typing an
identity number alone never tells a leader what the register holds about someone else.
Three queries whatever the delegation's size."""
from __future__ import annotations

from sqlalchemy import select

from ..extensions import db
from ..rules.document import GradeHeld, ParsedPerson, RatingHeld
from ..rules.idnumber import normalise
from .models import PlayerGrade, PlayerRating, Qualification, RatingList, RegisteredPlayer, RegisterRevision

SOURCE = "棋手档案"


def revision() -> int:
    """The register's count of changes (0 before the first)."""
    return db.session.scalar(select(RegisterRevision.revision).where(RegisterRevision.id == 1)) or 0


def _same_name(a: str | None, b: str | None) -> bool:
    return bool(a) and bool(b) and "".join(a.split()).lower() == "".join(b.split()).lower()


def _players(people: list[ParsedPerson]) -> dict[int, list[ParsedPerson]]:
    """Register player id -> the people of the documents he is (number and name both match)."""
    by_number: dict[str, list[ParsedPerson]] = {}
    for p in people:
        if p.id_number:
            by_number.setdefault(normalise(p.id_number), []).append(p)
    if not by_number:
        return {}
    out: dict[int, list[ParsedPerson]] = {}
    numbers = list(by_number)
    for start in range(0, len(numbers), 5000):
        for player_id, number, name in db.session.execute(
                select(RegisteredPlayer.id, RegisteredPlayer.id_number, RegisteredPlayer.name)
                .where(RegisteredPlayer.id_number.in_(numbers[start:start + 5000]))):
            matched = [p for p in by_number.get(number, []) if _same_name(p.name, name)]
            if matched:
                out[player_id] = matched
    return out


def add_career(people: list[ParsedPerson]) -> dict[int, list[ParsedPerson]]:
    """Add the register's grades and ratings to the people (in place); returns who matched."""
    players = _players(people)
    if not players:
        return players
    ids = list(players)
    for player_id, system, grade, awarded_on, source in db.session.execute(
            select(PlayerGrade.player_id, PlayerGrade.system, PlayerGrade.grade, PlayerGrade.awarded_on,
                   PlayerGrade.source)
            .where(PlayerGrade.player_id.in_(ids), PlayerGrade.withdrawn_at.is_(None)).order_by(PlayerGrade.id)):
        for person in players[player_id]:
            person.grades.append(GradeHeld(system, grade, awarded_on, f"{SOURCE}：{source}"))
    for player_id, code, published_on, value in db.session.execute(
            select(PlayerRating.player_id, RatingList.list_code, RatingList.published_on, PlayerRating.value)
            .join(RatingList, PlayerRating.list_id == RatingList.id)
            .where(PlayerRating.player_id.in_(ids)).order_by(RatingList.published_on)):
        for person in players[player_id]:
            person.ratings.setdefault(code, []).append(RatingHeld(value, published_on, SOURCE))
    return players


def qualified_among(players: dict[int, list[ParsedPerson]], slug: str, series: str) -> frozenset[tuple[str, str, str]]:
    """(identity number, qualifier's slug, its series) of the matched people qualified for
    these Games (by slug) or for any Games of their series."""
    if not players:
        return frozenset()
    rows = db.session.execute(
        select(Qualification.player_id, Qualification.from_games, Qualification.from_series)
        .where(Qualification.player_id.in_(list(players)), Qualification.target.in_([slug, series]),
               Qualification.withdrawn_at.is_(None)))
    return frozenset((normalise(players[pid][0].id_number), games, from_series) for pid, games, from_series in rows)


def known_to_register(people: list[ParsedPerson], slug: str, series: str) -> frozenset[tuple[str, str, str]]:
    """add_career() and then qualified_among(): what the rules need from the register."""
    return qualified_among(add_career(people), slug, series)
