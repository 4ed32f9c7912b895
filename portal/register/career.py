"""What the register knows of a delegation's people, for the rules: their grades and ratings
added to what the document gives, and which of them qualified for these Games. A person is
the register's player only when the identity number and the name both match and the player
has represented the delegation's unit before: typing a stranger's number and name never
tells a leader whether the register knows him (not one bit per guess). Organisers' pages
read it without the unit (`unit=ANY_UNIT`). Three queries whatever the delegation's size (one more
for earlier places and one for points, where a rule reads them)."""
from __future__ import annotations

from dataclasses import dataclass, field
from decimal import Decimal

from sqlalchemy import and_, func, select

from ..extensions import db
from ..games.models import Games
from ..games.services import definition_of
from ..rules.definition import PlacedBeforeRule, PointsRule, RatingRule
from ..rules.document import GradeHeld, ParsedPerson, PlaceHeld, RatingHeld
from ..rules.idnumber import normalise
from ..sql_lists import ListStatement
from .models import (
    NamedRating,
    PlayerGrade,
    PlayerPlace,
    PlayerPoints,
    PlayerRating,
    PlayerSanction,
    Qualification,
    RatingList,
    RegisteredPlayer,
    RegisterRevision,
)

SOURCE = "棋手档案"
ANY_UNIT = object()  # the organisers' pages: every matching player, whichever unit he represented
BY_HAND = "*"  # a qualification the organisers recorded by hand (rules.checks.career.qualified)


def revision() -> int:
    """The register's count of changes (0 before the first)."""
    return db.session.scalar(select(RegisterRevision.revision).where(RegisterRevision.id == 1)) or 0


def revision_column():
    """revision() as a column another statement may select (NULL before the first change)."""
    return select(RegisterRevision.revision).where(RegisterRevision.id == 1).scalar_subquery()


# The two reads every judgement and person form makes, built once and bound per call.
# Each binds a delegation's whole list as one parameter where the database can (sql_lists).
_PLAYERS = ListStatement(lambda one_of: select(RegisteredPlayer.id, RegisteredPlayer.id_number, RegisteredPlayer.name,
                                               RegisteredPlayer.units)
                         .where(one_of(RegisteredPlayer.id_number, "numbers")))
_NAMED = ListStatement(lambda one_of: select(NamedRating.list_id, NamedRating.name, NamedRating.unit_code,
                                             NamedRating.gender, NamedRating.value, RatingList.list_code,
                                             RatingList.published_on)
                       .join(RatingList, RatingList.id == NamedRating.list_id)
                       .where(one_of(NamedRating.name, "names")))
REMEMBERED_MOST = 100_000  # numbers and names kept at one revision (a national Games has about 7,000 people)


@dataclass
class _AtRevision:
    """The two reads' rows, by number and by name, as the register stood at one revision."""
    revision: int
    players: dict[str, tuple] = field(default_factory=dict)
    named: dict[str, tuple] = field(default_factory=dict)


_remembered = _AtRevision(-1)


def forget() -> None:
    """Nothing remembered (what a process starts with): a test counting a page's statements."""
    global _remembered
    _remembered = _AtRevision(-1)


def _rows_by(kind: str, statement: ListStatement, parameter: str, keys: list[str], revision: int | None,
             key_of) -> dict[str, tuple]:
    """The rows of `statement` for each key, read in lists of 5,000. With the register's
    `revision` as the caller read it earlier in its transaction (judged.outside_facts), what
    this process read at that revision is not read again: on deadline night every save and
    every person form read the same people, and every change to the register raises the
    revision (services.bump_revision) in the transaction that makes it. A read made after the
    revision's is never older than it: what is kept under a revision is at least as new."""
    global _remembered
    memo = None
    if revision is not None:
        if _remembered.revision != revision or len(_remembered.players) + len(_remembered.named) > REMEMBERED_MOST:
            _remembered = _AtRevision(revision)
        memo = _remembered
    kept = getattr(memo, kind) if memo is not None else {}
    missing = [k for k in keys if k not in kept]
    found: dict[str, list] = {k: [] for k in missing}
    for start in range(0, len(missing), 5000):
        for row in db.session.execute(statement(db.session), {parameter: missing[start:start + 5000]}):
            found.setdefault(key_of(row), []).append(tuple(row))
    if memo is None:
        return {k: tuple(v) for k, v in found.items()}
    kept.update((k, tuple(v)) for k, v in found.items())
    return {k: kept[k] for k in keys}


def _same_name(a: str | None, b: str | None) -> bool:
    return bool(a) and bool(b) and "".join(a.split()).lower() == "".join(b.split()).lower()


def _players(people: list[ParsedPerson], unit, revision: int | None = None) -> dict[int, list[ParsedPerson]]:
    """Register player id -> the people of the documents he is (number and name both match,
    and he has represented `unit`: a unit code, or a callable giving each person's)."""
    by_number: dict[str, list[ParsedPerson]] = {}
    for p in people:
        if p.id_number:
            by_number.setdefault(normalise(p.id_number), []).append(p)
    if not by_number:
        return {}
    out: dict[int, list[ParsedPerson]] = {}
    rows = _rows_by("players", _PLAYERS, "numbers", list(by_number), revision, lambda row: row[1])
    for number_rows in rows.values():
        for player_id, number, name, units in number_rows:
            matched = [p for p in by_number.get(number, []) if _same_name(p.name, name)
                       and (unit is ANY_UNIT or (unit(p) if callable(unit) else unit) in (units or []))]
            if matched:
                out[player_id] = matched
    return out


def add_career(people: list[ParsedPerson], unit, unit_of=None, by_name: bool = True,
               revision: int | None = None) -> dict[int, list[ParsedPerson]]:
    """Add the register's grades and ratings to the people (in place) of `unit` (a code, a
    callable giving each person's, or ANY_UNIT; `unit_of` then gives each person's own for
    the ratings published by name and unit, read unless `by_name` is False: no rule reads
    a rating); returns who matched by identity number. `revision`: the register's, as the
    caller's transaction read it before (see _rows_by)."""
    if by_name:
        _named_ratings(people, unit_of or (unit if callable(unit) else None if unit is ANY_UNIT else (lambda _p: unit)),
                       revision)
    players = _players(people, unit, revision)
    if not players:
        return players
    ids = list(players)
    for player_id, system, grade, awarded_on, source, body in db.session.execute(
            select(PlayerGrade.player_id, PlayerGrade.system, PlayerGrade.grade, PlayerGrade.awarded_on,
                   PlayerGrade.source, PlayerGrade.awarded_by)
            .where(PlayerGrade.player_id.in_(ids), PlayerGrade.withdrawn_at.is_(None)).order_by(PlayerGrade.id)):
        for person in players[player_id]:
            person.grades.append(GradeHeld(system, grade, awarded_on, f"{SOURCE}：{source}", awarded_by=body))
    for player_id, code, published_on, value in db.session.execute(
            select(PlayerRating.player_id, RatingList.list_code, RatingList.published_on, PlayerRating.value)
            .join(RatingList, PlayerRating.list_id == RatingList.id)
            .where(PlayerRating.player_id.in_(ids)).order_by(RatingList.published_on)):
        for person in players[player_id]:
            person.ratings.setdefault(code, []).append(RatingHeld(value, published_on, SOURCE))
    return players


def _named_ratings(people: list[ParsedPerson], unit_of, revision: int | None = None) -> None:
    """Ratings of lists published without identity numbers (姓名, 单位, 等级分), added to the
    person of that name in that unit's delegation: public by name, and only his own unit's
    row is read. An edition with two such rows (namesakes) is read for neither."""
    if unit_of is None:
        return
    wanted: dict[tuple[str, str], list[ParsedPerson]] = {}
    for p in people:
        unit = unit_of(p)
        if p.name and unit:
            wanted.setdefault(("".join(p.name.split()), unit), []).append(p)
    if not wanted:
        return
    names = sorted({name for name, _unit in wanted})
    found: dict[tuple, list] = {}
    for name_rows in _rows_by("named", _NAMED, "names", names, revision, lambda row: row[1]).values():
        for list_id, name, unit, gender, value, code, published in name_rows:
            if (name, unit) in wanted:
                found.setdefault((list_id, name, unit), []).append((gender, value, code, published))
    for (_list_id, name, unit), rows in sorted(found.items(), key=lambda kv: kv[1][0][3]):
        if len(rows) != 1:
            continue
        gender, value, code, published = rows[0]
        for person in wanted[(name, unit)]:
            if gender and person.gender and gender != person.gender:
                continue
            person.ratings.setdefault(code, []).append(RatingHeld(value, published, SOURCE))


def add_places(players: dict[int, list[ParsedPerson]], slug: str, own_series: str, own_edition: int) -> None:
    """The matched players' places at earlier Games than the Games `slug` (never its own,
    nor a later edition's of its series), added to their people."""
    for player_id, series, edition, event, place, games_zh, games_en, event_zh, event_en in db.session.execute(
            select(PlayerPlace.player_id, PlayerPlace.series, PlayerPlace.edition, PlayerPlace.event_code,
                   PlayerPlace.place, PlayerPlace.games_name_zh, PlayerPlace.games_name_en, PlayerPlace.event_name_zh,
                   PlayerPlace.event_name_en)
            .where(PlayerPlace.player_id.in_(list(players)), PlayerPlace.games_slug != slug,
                   ~and_(PlayerPlace.series == own_series, PlayerPlace.edition >= own_edition))
            .order_by(PlayerPlace.edition, PlayerPlace.id)):
        held = PlaceHeld(series, edition, event, place,
                         (f"{games_zh} {event_zh} 第{place}名", f"place {place} in {event_en} at {games_en}"))
        for person in players[player_id]:
            person.places.append(held)


def add_points(players: dict[int, list[ParsedPerson]]) -> None:
    """The matched players' federation points, totalled by kind, added to their people."""
    for player_id, kind, total in db.session.execute(
            select(PlayerPoints.player_id, PlayerPoints.points, func.sum(PlayerPoints.amount))
            .where(PlayerPoints.player_id.in_(list(players))).group_by(PlayerPoints.player_id, PlayerPoints.points)):
        for person in players[player_id]:
            person.points[kind] = Decimal(total)


def qualified_among(players: dict[int, list[ParsedPerson]], slug: str, series: str) -> frozenset[tuple[str, str, str]]:
    """(identity number, qualifier's slug, its series) of the matched people qualified for
    these Games (by slug) or for any Games of their series."""
    if not players:
        return frozenset()
    rows = db.session.execute(
        select(Qualification.player_id, Qualification.from_games, Qualification.from_series, Qualification.event_code)
        .where(Qualification.player_id.in_(list(players)), Qualification.target.in_([slug, series]),
               Qualification.withdrawn_at.is_(None)))
    # Put on the list by hand (no event earned it): qualified whichever qualifier a rule names.
    return frozenset((normalise(players[pid][0].id_number), games if event else BY_HAND, from_series if event else BY_HAND)
                     for pid, games, from_series, event in rows)


def barred_among(players: dict[int, list[ParsedPerson]], series: str, edition: int) -> dict[str, tuple[str, str]]:
    """Identity number -> why, of the matched people barred from this edition of the series."""
    if not players:
        return {}
    out = {}
    for pid, source, forfeits, clause, name_zh, name_en in db.session.execute(
            select(PlayerSanction.player_id, PlayerSanction.source_games, PlayerSanction.forfeits, PlayerSanction.clause,
                   Games.name_zh, Games.name_en)
            .outerjoin(Games, Games.slug == PlayerSanction.source_games)
            .where(PlayerSanction.player_id.in_(list(players)), PlayerSanction.series == series,
                   PlayerSanction.edition == edition, PlayerSanction.kind == "barred", PlayerSanction.lifted_at.is_(None))):
        where = (name_zh or source, name_en or source)
        out[normalise(players[pid][0].id_number)] = (
            f"截至{where[0]}已无故弃权 {forfeits} 次" + (f"（规程 {clause}）" if clause else ""),
            f"{forfeits} forfeits without notice, the last at {where[1]}" + (f" (regulation {clause})" if clause else ""))
    return out


@dataclass
class Known:
    """What the rules need from the register about a delegation's people."""
    qualified: frozenset[tuple[str, str, str]]
    barred: dict[str, tuple[str, str]]


def known_to_register(people: list[ParsedPerson], games, unit, revision: int | None = None) -> Known:
    """add_career() (grades and ratings added to the people of `unit`), then who of them
    qualified for these Games and who is barred from them. (`revision`: see add_career.)"""
    # Ratings listed by name are read only where a rule reads a rating (one query saved elsewhere),
    # places only where a rule bars earlier placers.
    definition = definition_of(games)
    players = add_career(people, unit, by_name=bool(definition.rules_of(RatingRule)), revision=revision)
    if players and definition.rules_of(PlacedBeforeRule):
        add_places(players, games.slug, games.series, games.edition)
    if players and definition.rules_of(PointsRule):
        add_points(players)
    return Known(qualified_among(players, games.slug, games.series), barred_among(players, games.series, games.edition))
