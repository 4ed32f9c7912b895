"""Who will play an event: the players of approved delegations, as their entries stand after
substitutions, less withdrawals, the waiting list and entries void without their fee
(youth-gomoku-2015 十一(四)). The draw, the results, the rounds and the pairing exports all
read this one list, and each entry left out is listed with the reason, in words."""
from __future__ import annotations

import datetime as dt
from dataclasses import dataclass, field

from sqlalchemy import select

from ..delegations.models import Delegation, Entry, EntryMember, Person
from ..extensions import db
from ..games.services import definition_of, unit_names
from ..workflow.models import Withdrawal
from ..workflow.plays import why_not_playing
from .models import Draw

EVENT_WITHDRAWN = ("已退出该项目", "withdrawn from this event")


@dataclass
class Player:
    key: str                  # "p<person id>" (individual) or "e<entry id>" (team)
    delegation_id: int
    unit: str                 # the unit's name
    unit_en: str
    name: str                 # the player, or the team's label
    gender: str | None = None
    birth_date: dt.date | None = None
    club: str | None = None
    number: int | None = None
    members: list[tuple[str, str | None]] = field(default_factory=list)  # team: (person key, gender)
    distinguish: str = ""     # "（浙江省，2006 年生）" where two players share a name

    @property
    def person_id(self) -> int | None:
        return int(self.key[1:]) if self.key.startswith("p") else None


@dataclass
class LeftOut:
    name: str
    unit: str
    why: tuple[str, str]
    delegation_id: int | None = None


def _unit(code, name, names, names_en):
    return names.get(code, name or code or ""), names_en.get(code, name or code or "")


def players(games, event_code: str) -> tuple[list[Player], list[LeftOut]]:
    """The event's players (ordered by drawn number, then unit and name) and the entries
    left out with the reason; a fixed number of queries whatever the size."""
    definition = definition_of(games)
    event = next((e for e in definition.events if e.code == event_code), None)
    if event is None:
        return [], []
    names, names_en = unit_names(), unit_names("en")
    rows = db.session.execute(
        select(Entry.id, Entry.team, Delegation.id, Delegation.status, Delegation.unit_code, Delegation.unit_name,
               Person.id, Person.name, Person.gender, Person.birth_date, Person.club, EntryMember.reserve)
        .join(EntryMember, EntryMember.entry_id == Entry.id).join(Person, EntryMember.person_id == Person.id)
        .join(Delegation, Entry.delegation_id == Delegation.id)
        .where(Delegation.games_id == games.id, Entry.event_code == event_code)
        .order_by(Entry.delegation_id, Entry.position, EntryMember.position)).all()
    delegation_ids = sorted({r[2] for r in rows})
    withdrawn = {did for did, in db.session.execute(select(Withdrawal.delegation_id).where(
        Withdrawal.delegation_id.in_(delegation_ids),
        (Withdrawal.event_code == event_code) | Withdrawal.event_code.is_(None)))}
    # The one judgement of who plays (workflow/plays.py), the desk's and the cards' too.
    not_playing = why_not_playing(games, db.session.scalars(select(Delegation).where(
        Delegation.id.in_(delegation_ids))).all()) if delegation_ids else {}
    numbers = {}
    draw = db.session.scalar(select(Draw).where(Draw.games_id == games.id, Draw.event_code == event_code,
                                                Draw.superseded.is_(False)).order_by(Draw.id.desc()).limit(1))
    if draw is not None:
        numbers = {row[1]: row[0] for row in draw.numbers}
    out: dict[str, Player] = {}
    left: dict[str, LeftOut] = {}
    for entry_id, team, did, status, code, unit_name, pid, name, gender, born, club, _reserve in rows:
        unit, unit_en = _unit(code, unit_name, names, names_en)
        key = f"e{entry_id}" if event.is_team else f"p{pid}"
        label = (f"{unit}{team or ''}队" if event.is_team else name)
        why = not_playing.get(did)
        if did in withdrawn and status == "approved":
            why = EVENT_WITHDRAWN
        if why is not None:
            left.setdefault(key, LeftOut(label, unit, why, did))
            continue
        player = out.get(key)
        if player is None:
            player = out[key] = Player(key, did, unit, unit_en, label, None if event.is_team else gender,
                                       None if event.is_team else born, club, numbers.get(pid) if not event.is_team else None)
        if event.is_team:
            player.members.append((f"p{pid}", gender))
    listed = list(out.values())
    _tell_apart(listed)
    listed.sort(key=lambda p: (p.number is None, p.number or 0, p.unit, p.name))
    # Once each: the same person entered again (a withdrawn delegation, then a new one) is
    # not left out twice, nor left out beside his place among the players.
    shown = {(p.name, p.unit) for p in listed}
    left_out = []
    for x in sorted(left.values(), key=lambda x: (x.unit, x.name)):
        if (x.name, x.unit) not in shown:
            shown.add((x.name, x.unit))
            left_out.append(x)
    return listed, left_out


def _tell_apart(listed: list[Player]) -> None:
    """Players who share a name are shown with their unit and year of birth."""
    by_name: dict[str, list[Player]] = {}
    for p in listed:
        by_name.setdefault(p.name, []).append(p)
    for same in by_name.values():
        if len(same) > 1:
            for p in same:
                year = f"，{p.birth_date.year} 年生" if p.birth_date else ""
                p.distinguish = f"（{p.unit}{year}）"
