"""What a result earns a player beyond his Games (issue 36, 3): a place in another Games, a
grade or title by place or by record, federation points. Carried into the register inside
the transaction that stores an event's results; entering the results again replaces what
the earlier entry earned, never what was recorded by hand."""
from __future__ import annotations

from dataclasses import dataclass
from decimal import Decimal
from fractions import Fraction

from sqlalchemy import delete, select

from ..audit.services import Actor, record
from ..delegations.models import Delegation, Person
from ..extensions import db
from ..games.models import utcnow
from ..rules.awards import FederationPoints, GradeByPlace, PromotionByRecord, QualifiesAward, of_kind
from ..rules.grades import grade_systems
from ..rules.idnumber import normalise
from ..text import Text
from .models import PlayerGrade, PlayerPlace, PlayerPoints, Qualification
from .services import bump_revision, players_for

EARNING_KINDS = (QualifiesAward, GradeByPlace, PromotionByRecord, FederationPoints)


@dataclass
class Placed:
    """One player of an event's results: his place, his person (a team's members each), his
    score and his games won (the 胜局 column; None where the results do not say)."""
    place: int
    person_ids: list[int]
    score: Fraction | None = None
    wins: int | None = None


def _gender_places(placed: list[Placed], gender: dict[int, str | None]) -> dict[tuple[int, int], int]:
    """(index, person id) -> his place among the players of his gender (ties share a place)."""
    out = {}
    for g in ("M", "F"):
        mine = sorted(((p.place, i, pid) for i, p in enumerate(placed) for pid in p.person_ids if gender.get(pid) == g))
        for place, i, pid in mine:
            out[(i, pid)] = 1 + sum(1 for other, _j, _q in mine if other < place)
    return out


def carry(games, definition, event_code: str, placed: list[Placed], actor: Actor) -> dict:
    """Record what the event's results earn, replacing what an earlier entry of them earned;
    returns counts of what was recorded (for the audit)."""
    event = next(e for e in definition.events if e.code == event_code)
    awards = [a for kind in EARNING_KINDS for a in of_kind(definition.awards, kind) if a.applies_to(event)]
    db.session.execute(delete(PlayerGrade).where(PlayerGrade.games_slug == games.slug, PlayerGrade.event_code == event_code))
    db.session.execute(delete(PlayerPoints).where(PlayerPoints.games_slug == games.slug, PlayerPoints.event_code == event_code))
    db.session.execute(delete(Qualification).where(Qualification.from_games == games.slug,
                                                   Qualification.event_code == event_code))
    db.session.execute(delete(PlayerPlace).where(PlayerPlace.games_slug == games.slug, PlayerPlace.event_code == event_code))
    counts = {"grades": 0, "qualified": 0, "points": 0, "without_id_number": 0}
    ids = sorted({pid for p in placed for pid in p.person_ids})
    people = {row.id: row for row in db.session.execute(
        select(Person.id, Person.name, Person.gender, Person.birth_date, Person.id_number, Person.profile,
               Delegation.unit_code).join(Delegation, Delegation.id == Person.delegation_id)
        .where(Person.id.in_(ids or [-1])))}
    gender = {pid: row.gender for pid, row in people.items()}
    by_gender = _gender_places(placed, gender)
    systems = grade_systems(definition)
    sport = next((s for s in definition.sports if s.code == event.sport), None)
    event_name = (sport.name.zh if sport else "") + event.name.zh
    day = definition.dates.end
    # Every placed player is the register's (his places are kept): read, locked and made at once.
    registered = players_for([(row.id_number, row.name, row.gender, row.birth_date, row.unit_code)
                              for row in people.values() if row.id_number])

    def player(pid, counted: bool = True):
        row = people.get(pid)
        if row is None or not row.id_number:
            counts["without_id_number"] += counted
            return None
        return registered[normalise(row.id_number)]

    # Every place, whatever these Games award: a later Games may bar earlier placers.
    for p in placed:
        for pid in p.person_ids:
            if (who := player(pid, counted=False)) is not None:
                db.session.add(PlayerPlace(
                    player_id=who.id, games_slug=games.slug, series=games.series, edition=games.edition,
                    event_code=event_code, place=p.place, games_name_zh=games.name_zh[:200],
                    games_name_en=games.name_en[:200], event_name_zh=event_name[:200],
                    event_name_en=(f"{sport.name.en} " if sport else "") + event.name.en[:150], recorded_at=utcnow()))

    for award in awards:
        for i, p in enumerate(placed):
            for pid in p.person_ids:
                place = by_gender.get((i, pid), p.place) if getattr(award, "by_gender", False) else p.place
                source = f"{games.name_zh} {event_name} 第{place}名"
                if isinstance(award, QualifiesAward) and place <= award.top:
                    if (who := player(pid)) is not None:
                        db.session.add(Qualification(player_id=who.id, target=award.to, from_games=games.slug,
                                                     from_series=games.series, event_code=event_code, place=place,
                                                     recorded_by=actor.label, recorded_at=utcnow()))
                        counts["qualified"] += 1
                elif isinstance(award, GradeByPlace) and place in award.grades:
                    if (who := player(pid)) is not None:
                        word = systems[award.system].word(award.grades[place])
                        db.session.add(PlayerGrade(player_id=who.id, system=award.system, grade=word, awarded_on=day,
                                                   awarded_by=award.awarded_by, source=source, games_slug=games.slug,
                                                   event_code=event_code, recorded_by=actor.label, recorded_at=utcnow()))
                        counts["grades"] += 1
                elif isinstance(award, PromotionByRecord) and award.earned_by(
                        p.wins, None if p.score is None else Decimal(p.score.numerator) / p.score.denominator):
                    if (who := player(pid)) is not None:
                        word = _promoted(systems[award.system], award, who.id, people[pid].profile)
                        if word is not None:
                            db.session.add(PlayerGrade(
                                player_id=who.id, system=award.system, grade=word, awarded_on=day,
                                awarded_by=award.awarded_by, source=f"{games.name_zh} {event_name} " + (
                                    f"胜 {p.wins} 局" if award.min_wins is not None else f"积分 {_decimal(p.score)}"),
                                games_slug=games.slug, event_code=event_code, recorded_by=actor.label,
                                recorded_at=utcnow()))
                            counts["grades"] += 1
                elif (isinstance(award, FederationPoints) and place <= len(award.table)
                      and (who := player(pid)) is not None):
                    db.session.add(PlayerPoints(player_id=who.id, points=award.points, points_name=award.name.zh,
                                                amount=award.table[place - 1], games_slug=games.slug,
                                                event_code=event_code, place=place, recorded_at=utcnow()))
                    counts["points"] += 1
    bump_revision()
    record(actor, "register.earned", "event", event_code, after=counts).games_slug = games.slug
    return counts


def wins_missing(definition, event_code: str, wins: list[int | None]) -> Text | None:
    """Why results cannot be stored: a promotion by wins applies to the event and some line
    does not say the player's wins (the sheet lacks its 胜局 column)."""
    event = next((e for e in definition.events if e.code == event_code), None)
    rule = next((a for a in of_kind(definition.awards, PromotionByRecord)
                 if event is not None and a.applies_to(event) and a.min_wins is not None), None)
    if rule is None or all(w is not None for w in wins):
        return None
    clause = f"（规程 {rule.clause}）" if rule.clause else ""
    return Text(f"成绩表缺少“胜局”列：本项目按胜局晋升段级位{clause}，请补上每名棋手的胜局数",
                "the results need a wins (胜局) column: the event promotes by games won"
                + (f" (regulation {rule.clause})" if rule.clause else ""))


def _decimal(value: Fraction | None) -> str:
    return "" if value is None else f"{(Decimal(value.numerator) / value.denominator).normalize():f}"


def _promoted(system, award: PromotionByRecord, player_id: int, profile: dict | None) -> str | None:
    """The grade a promotion by record brings the player to, None when he holds no grade
    to move up from (or is at its ceiling already)."""
    held = [g for (g,) in db.session.execute(select(PlayerGrade.grade).where(
        PlayerGrade.player_id == player_id, PlayerGrade.system == award.system, PlayerGrade.withdrawn_at.is_(None)))]
    held += [g.get("grade") for g in (profile or {}).get("grades", []) if g.get("system") == award.system]
    ranks = [r for r in (system.rank(g) for g in held if g) if r is not None]
    if not ranks:
        return None
    top = max(ranks)
    ceiling = system.rank(award.up_to) if award.up_to else len(system.ladder) - 1
    target = min(top + award.steps, ceiling)
    return system.ladder[target] if target > top else None

