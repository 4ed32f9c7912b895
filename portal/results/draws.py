"""Drawing player numbers for an individual event from its players (approved, valid entries:
entrants.py): recorded with its seed (reproducible), audited, published as a list; a redraw
supersedes the last draw and needs a reason."""
from __future__ import annotations

import secrets

from sqlalchemy import select, update

from ..audit.services import Actor, record
from ..db_tx import transactional
from ..extensions import db
from ..games.services import definition_of
from ..outcome import Outcome, Refusal, Status
from ..rules.draw import draw_numbers
from .entrants import players
from .models import Draw


def current_draw(games, event_code: str) -> Draw | None:
    return db.session.scalar(select(Draw).where(Draw.games_id == games.id, Draw.event_code == event_code,
                                                Draw.superseded.is_(False)).order_by(Draw.id.desc()).limit(1))


def entrants(games, event_code: str) -> list[tuple[int, str, str]]:
    """(person id, name, unit name) of the event's players (entrants.py: approved, valid,
    not withdrawn, not wait-listed), one query per kind of row."""
    listed, _left = players(games, event_code)
    return sorted((p.person_id, p.name + p.distinguish, p.unit) for p in listed if p.person_id is not None)


@transactional
def make_draw(games, event_code: str, actor: Actor, reason: str | None = None, seed: str | None = None) -> Outcome:
    """Draw (or redraw, with a reason) the numbers of the event's players; the Outcome's
    details["draw"] is the draw made."""
    event = next((e for e in definition_of(games).events if e.code == event_code), None)
    if event is None or event.is_team:
        raise Refusal("input", "只能为个人项目抽签", "numbers are drawn for individual events")
    reason = (reason or "").strip()
    last = current_draw(games, event_code)
    if last is not None and not reason:
        raise Refusal.of_field("reason", "重新抽签须说明理由", "a redraw needs a reason")
    people = entrants(games, event_code)
    if not people:
        raise Refusal("state", "该项目还没有可参赛的选手（须是已批准的有效报名）",
                      "nobody in this event may play yet (approved, valid entries only)")
    seed = seed or secrets.token_hex(8)
    by_key = {str(pid): (pid, name, unit) for pid, name, unit in people}
    numbers = [[n, *by_key[key]] for n, key in draw_numbers(list(by_key), seed)]
    if last is not None:
        db.session.execute(update(Draw).where(Draw.id == last.id).values(superseded=True))
    draw = Draw(games_id=games.id, event_code=event_code, seed=seed, numbers=numbers,
                reason=reason or None, drawn_by=actor.label)
    db.session.add(draw)
    db.session.flush()
    record(actor, "draw.redraw" if last else "draw.make", "event", event_code,
           before={"seed": last.seed} if last else None,
           after={"seed": seed, "entrants": len(numbers), "games": games.slug}, reason=reason or None)
    return Outcome(True, status=Status.SAVED, details={"draw": draw})
