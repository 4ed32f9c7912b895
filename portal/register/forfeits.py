"""The series' ladder of sanctions for forfeits (issue 36, 4): each round a player is
recorded absent counts, across the Games of the series; the step his count reaches is a
warning or bars him from the series' next edition, where the rules refuse his entry.
Recorded in the transaction that stores the event's absences; recording them again
replaces what the earlier record counted."""
from __future__ import annotations

from sqlalchemy import delete, func, select

from ..audit.services import Actor, record
from ..delegations.models import Delegation, Person
from ..extensions import db
from ..games.models import utcnow
from .models import PlayerForfeit, PlayerSanction
from .services import bump_revision, player_for


def carry_forfeits(games, definition, event_code: str, missed: dict[int, set[int]], actor: Actor) -> int:
    """`missed`: person id -> the rounds of the event he was absent from. Returns how many
    players a sanction now reaches."""
    steps = sorted(definition.sanctions.forfeits, key=lambda s: s.count)
    db.session.execute(delete(PlayerForfeit).where(PlayerForfeit.games_slug == games.slug,
                                                   PlayerForfeit.event_code == event_code))
    if not steps:
        return 0
    people = {row.id: row for row in db.session.execute(
        select(Person.id, Person.name, Person.gender, Person.birth_date, Person.id_number, Delegation.unit_code)
        .join(Delegation, Delegation.id == Person.delegation_id)
        .where(Person.id.in_(list(missed) or [-1]), Person.id_number.is_not(None)))}
    players = {}
    for pid, rounds in missed.items():
        row = people.get(pid)
        if row is None:
            continue
        player = player_for(row.id_number, row.name, row.gender, row.birth_date, row.unit_code)
        players[player.id] = player
        db.session.add_all([PlayerForfeit(player_id=player.id, series=games.series, edition=games.edition,
                                          games_slug=games.slug, event_code=event_code, round_no=n,
                                          recorded_at=utcnow()) for n in sorted(rounds)])
    db.session.flush()
    # Every player this Games sanctioned is judged again: a forfeit struck off lifts its sanction.
    touched = set(players) | set(db.session.scalars(select(PlayerSanction.player_id).where(
        PlayerSanction.source_games == games.slug, PlayerSanction.lifted_at.is_(None))))
    db.session.execute(delete(PlayerSanction).where(PlayerSanction.source_games == games.slug,
                                                    PlayerSanction.player_id.in_(list(touched) or [-1])))
    counts = dict(db.session.execute(
        select(PlayerForfeit.player_id, func.count()).where(PlayerForfeit.player_id.in_(list(touched) or [-1]),
                                                            PlayerForfeit.series == games.series)
        .group_by(PlayerForfeit.player_id)).all())
    reached = 0
    for player_id in touched:
        n = counts.get(player_id, 0)
        step = next((s for s in reversed(steps) if n >= s.count), None)
        if step is None:
            continue
        barred = step.sanction == "barred_next_edition"
        db.session.add(PlayerSanction(player_id=player_id, series=games.series,
                                      edition=games.edition + 1 if barred else games.edition,
                                      kind="barred" if barred else "warning", source_games=games.slug, forfeits=n,
                                      clause=definition.sanctions.clause, created_at=utcnow()))
        reached += 1
    bump_revision()
    record(actor, "register.forfeits", "event", event_code,
           after={"players": len(players), "sanctioned": reached}).games_slug = games.slug
    return reached
