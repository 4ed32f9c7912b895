"""An event that the submitted entries leave short of the regulation's minimum
(event_minimum: "报名不足6人（队）的项目不设比赛"): the organisers tell every delegation
entered in it, in one step, from the overview that counts it (overview.event_minimums), so that
its leaders can move their players before the names close. Each is told once for a count:
telling again after nothing changed sends nothing."""
from __future__ import annotations

import datetime as dt

from sqlalchemy import select

from ..audit.services import Actor, record
from ..db_tx import lock_row, transactional
from ..delegations.models import Delegation, Entry
from ..extensions import db
from ..games.models import Games
from ..games.services import definition_of
from ..notify.services import tell_delegation
from ..outcome import Outcome, Refusal
from ..rules.readback import event_names
from .overview import SUBMITTED, event_minimums


@transactional
def tell_short_event(games: Games, event_code: str, actor: Actor, at: dt.datetime) -> Outcome:
    """Queue the notice to each submitted delegation entered in the event, while it is short."""
    games = lock_row(Games, games.id)  # two organisers pressing at once tell each delegation once
    definition = definition_of(games)
    if event_code not in {e.code for e in definition.events}:
        raise Refusal("input", "本比赛没有这个项目。", "These Games have no such event.")
    name = event_names(definition, [event_code])
    short = [m for m in event_minimums(games, definition).get(event_code, []) if m["short"]]
    if not short:
        raise Refusal("state", f"{name[0]}已提交的报名已达到规程规定的开赛人数，无需通知。",
                      f"{name[1]} has the entries the regulation asks to be played: nobody was told.")
    entered = delegations_entered(games, event_code)
    count = "-".join(str(m["have"]) for m in short)
    told = 0
    for d in entered:
        if tell_delegation(d, "event_short", dedupe=f"event_short:{games.id}:{event_code}:{count}",
                           event=name, minimums=short):
            told += 1
    record(actor, "event.short_notice", "event", event_code, after={
        "delegations": len(entered), "told": told, "have": [m["have"] for m in short], "min": [m["min"] for m in short],
        "at": at.isoformat()}).games_slug = games.slug
    if not entered:
        return Outcome(True, message=(f"{name[0]}还没有已提交的报名，没有要通知的代表团。",
                                      f"No submitted entry is in {name[1]} yet: there is nobody to tell."))
    return Outcome(True, message=(
        f"已通知{name[0]}的 {told} 个代表团" + (f"（另 {len(entered) - told} 个此前已就同样的人数通知过，或没有邮箱）" if told < len(entered) else "") + "。",
        f"{told} delegations entered in {name[1]} were told"
        + (f" ({len(entered) - told} more were told of the same count before, or have no address)" if told < len(entered) else "")
        + "."))


def delegations_entered(games: Games, event_code: str) -> list[Delegation]:
    """The submitted (or returned, or approved) delegations with an entry in the event, by unit."""
    return list(db.session.scalars(
        select(Delegation).where(Delegation.games_id == games.id, Delegation.status.in_(SUBMITTED),
                                 Delegation.id.in_(select(Entry.delegation_id).where(Entry.event_code == event_code)))
        .order_by(Delegation.unit_code, Delegation.id)))
