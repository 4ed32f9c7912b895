"""The leaders' meeting (领队会议) the evening before play: each unit's leader answers the
roll call and confirms the delegation's final names (youth-gomoku-2015 十一(十):
通报有关情况并核实参赛人员名单 ... 各单位领队必须参加; nmsg-2009 七(五): the technical meeting).
What was confirmed is kept as a snapshot, audited. Where the meeting closes check-in
(领队会召开的时间为报到最后期限), the desk refuses later arrivals (venue/arrivals.py)."""
from __future__ import annotations

import datetime as dt
from dataclasses import dataclass, field

from sqlalchemy import select

from ..audit.services import Actor, record
from ..db_tx import lock_row, transactional
from ..delegations.edit import athletes, entry_people
from ..delegations.models import Delegation, DelegationStatus
from ..delegations.queries import approved_delegations
from ..delegations.services import export_document, export_documents
from ..extensions import db
from ..games.services import definition_of, unit_names
from ..outcome import Outcome, Refusal, Status
from .arrivals import arrivals, arrived as arrived_refs, when
from .models import RollCall

CHINA = dt.timezone(dt.timedelta(hours=8))
LEADER_ROLES = ("head", "leader", "leader_coach")


@dataclass
class Entrant:
    ref: str
    name: str
    events: list[str] = field(default_factory=list)
    arrived: bool = False


def final_names(definition, doc: dict, arrived: set[str]) -> list[Entrant]:
    """The delegation's entrants in document order, each with the events entered (team
    events with the team and board), and whether checked in."""
    events = {e.code: e for e in definition.events}
    sports = {s.code: s for s in definition.sports}
    played: dict[str, list[str]] = {}
    for e in doc["entries"]:
        ev = events.get(e["event"])
        label = f"{sports[ev.sport].name.zh}{ev.name.zh}" if ev else e["event"]
        for slot in (e.get("lineup") or []):
            board = f" 第{slot['board']}台" if slot.get("board") else (" 替补" if slot.get("reserve") else "")
            played.setdefault(slot["person"], []).append(f"{label}（{e.get('team') or ''}队{board}）")
        if e.get("lineup") is None:
            for ref in entry_people(e):
                played.setdefault(ref, []).append(label)
    return [Entrant(p["ref"], p["name"], played[p["ref"]], p["ref"] in arrived)
            for p in doc["people"] if p["ref"] in played]


def leaders_of(doc: dict) -> list[str]:
    names = {p["ref"]: p["name"] for p in doc["people"]}
    return [names[o["person"]] for o in doc.get("officials") or [] if o["role"] in LEADER_ROLES
            and o["person"] in names]


def roll(games) -> list[dict]:
    """Per approved delegation: its leaders, entrants, arrivals and its roll call, from one
    query per kind of row for the whole Games."""
    units = unit_names()
    delegations = approved_delegations(games)
    documents = export_documents(delegations)
    arrived = arrivals(games)
    calls = {c.delegation_id: c for c in db.session.scalars(
        select(RollCall).join(Delegation, RollCall.delegation_id == Delegation.id).where(Delegation.games_id == games.id))}
    out = []
    for d in delegations:
        doc = documents[d.id]
        entrants = athletes(doc)
        out.append({"d": d, "unit": units.get(d.unit_code, d.unit_name or d.unit_code or ""),
                    "leaders": leaders_of(doc), "entrants": len(entrants),
                    "arrived": len(entrants & arrived.get(d.id, set())), "call": calls.get(d.id), "doc": doc,
                    "arrived_refs": arrived.get(d.id, set())})
    return out


@transactional
def confirm(d: Delegation, attended_by: str, actor: Actor, at: dt.datetime) -> Outcome:
    """Record the roll call of one delegation and the names its leader confirmed."""
    definition = definition_of(d.games)
    meeting = definition.leaders_meeting
    if meeting is None:
        raise Refusal("state", "本届规程没有领队会议", "the regulation has no leaders' meeting")
    attended_by = (attended_by or "").strip()[:100]
    d = lock_row(Delegation, d.id)
    if d.status != DelegationStatus.APPROVED:
        raise Refusal("state", "该代表团的报名未获批准", "the entry is not approved")
    if at.astimezone(CHINA).date() < meeting.day:
        raise Refusal("deadline", f"{meeting.name.zh}于 {when(meeting)} 召开，届时再点名",
                      f"the {meeting.name.en.lower()} is on {when(meeting)}")
    if meeting.leaders_must_attend and not attended_by:
        raise Refusal.of_field("attended_by", "规程要求各单位领队必须参加：请填写到会领队的姓名",
                               "the leader must attend: enter who came")
    doc = export_document(d)
    names = [[e.name, e.events, e.arrived] for e in final_names(definition, doc, arrived_refs(d.id))]
    call = db.session.scalar(select(RollCall).where(RollCall.delegation_id == d.id))
    before = {"attended_by": call.attended_by, "count": len(call.names)} if call else None
    if call is None:
        call = RollCall(delegation_id=d.id)
        db.session.add(call)
    call.attended_by, call.names = attended_by or None, names
    call.confirmed_at, call.confirmed_by = at, actor.label
    db.session.flush()
    record(actor, "meeting.confirm", "delegation", str(d.id), delegation=d, before=before,
           after={"attended_by": attended_by or None, "count": len(names),
                  "not_arrived": [n for n, _events, came in names if not came][:50]})
    return Outcome(True, status=Status.SAVED, delegation=d,
                   message=(f"已确认 {len(names)} 名运动员的名单", f"{len(names)} names confirmed"))


def summary(rows: list[dict]) -> dict:
    return {"delegations": len(rows), "confirmed": sum(1 for r in rows if r["call"] and r["call"].confirmed_at),
            "entrants": sum(r["entrants"] for r in rows), "arrived": sum(r["arrived"] for r in rows)}

