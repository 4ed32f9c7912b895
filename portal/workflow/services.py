"""The registration workflow: submitting, approving or returning, extensions, substitutions,
withdrawals and sanctions, the capacity cap and wait list (saving within the stage is the
delegation's own: delegations/saving.py).

Every function takes plain values and model objects, does its work inside one
`write_transaction()` (lock, check, write), records the audit, and returns an Outcome;
a refused action changes nothing.
"""
from __future__ import annotations

import copy
import datetime as dt
import os
from typing import TYPE_CHECKING

from sqlalchemy import String, bindparam, case, cast, func, literal, null, select, true

from ..audit.services import Actor, document_changes, record
from ..db_tx import lock_row, transactional
from ..delegations.edit import athletes, entry_people
from ..delegations.files import UploadedFile, check_upload, store
from ..delegations.identity_checks import compare_new_numbers
from ..delegations.models import Delegation, DelegationStatus
from ..delegations.saving import new_delegation, save
from ..delegations.services import export_document, judge, replace_contents
from ..delegations.stage import change_window_closed, extensions_of, names_deadline_violation, stage_of
from ..delegations.tied_events import tied_events
from ..extensions import db
from ..games.models import Games, utcnow
from ..games.services import definition_of
from ..money.services import assign_payment_reference, charge_fee, sync_charges
from ..outcome import Outcome, Refusal, Status
from ..rules import parse_document
from ..rules.definition import document_names
from ..rules.engine import CHINA
from ..rules.stages import (
    CLOSED,
    DECLARATION,
    NAMES,
    SUBSTITUTIONS,
    closes_at,
    may_edit_names,
)
from ..rules.violations import Violation, dedupe
from . import messages
from .models import (
    ArrivalTicket,
    Extension,
    ExtensionRequest,
    Place,
    PlaceStatus,
    RequestStatus,
    ReviewNote,
    Sanction,
    Substitution,
    SubstitutionStatus,
    TicketStatus,
    Withdrawal,
)

if TYPE_CHECKING:
    from ..rules.document import ParsedDelegation

# --- submitting, approving, returning -------------------------------------------------------

@transactional
def submit(delegation: Delegation, actor: Actor, at: dt.datetime,
           received_at: dt.datetime | None = None, place_given: bool = False) -> Outcome:
    """Submit for approval. Judged at `received_at` (materials received) when given.
    `place_given`: its place under the cap was taken as it arrived (an arrival ticket), so
    the cap is neither counted nor locked again."""
    when = received_at or at
    games = delegation.games
    definition = definition_of(games)
    d = lock_row(Delegation, delegation.id)
    if d.status in (DelegationStatus.SUBMITTED, DelegationStatus.APPROVED):
        return Outcome(True, status=Status(d.status), delegation=d,
                       message=("报名已提交。", "Already submitted."))
    if d.status == DelegationStatus.WITHDRAWN:
        raise Refusal("state", "该报名已退出。", "This registration has been withdrawn.", delegation=d)
    info = stage_of(d, when)
    if not may_edit_names(info):
        raise Refusal("deadline", violations=[names_deadline_violation(d)], delegation=d)
    document = export_document(d)
    if not document["entries"] and not any(x["count"] for x in document["declarations"]):
        raise Refusal("state", "还没有报任何项目，不能提交。请先在“报项”或“报名与组队”中填写。",
                       "Nothing is entered yet: declare events or enter athletes before submitting.", delegation=d)
    doc, _ = parse_document(document)
    violations = dedupe(judge(games, doc, when, exclude_delegation_id=d.id))
    if any(v.is_error for v in violations):
        raise Refusal("rules", violations=violations, delegation=d)
    status = "submitted"
    if definition.capacity is not None and place_given:
        status, extra = _given_place(d, definition.capacity)
        violations += extra
    elif definition.capacity is not None:
        status, extra = _take_place(d, games, definition.capacity, len(athletes(document)), when)
        violations += extra
    d.status = status
    d.submitted_at, d.received_at = at, when
    d.first_received_at = d.first_received_at or when
    record(actor, "delegation.submit", "delegation", str(d.id), delegation=d,
           after={"status": status, "received_at": when.isoformat()})
    assign_payment_reference(d)
    sync_charges(d, actor)
    messages.submitted(d, at, waitlisted=status == "waitlisted")  # the receipt, with what was entered
    return Outcome(True, violations, status=Status(status), delegation=d)


def _take_place(d: Delegation, games: Games, capacity: int, entrants: int, when) -> tuple[str, list]:
    lock_row(Games, games.id)  # the cap is the limited thing: lock it, count, write
    place = db.session.scalar(select(Place).where(Place.delegation_id == d.id))
    if place is not None and place.status == PlaceStatus.ACCEPTED:
        return "submitted", []
    place, position = take_place(games, capacity, entrants, when, place, delegation_id=d.id)
    if place.status == PlaceStatus.ACCEPTED:
        return "submitted", []
    return "waitlisted", [capacity_full(capacity, position)]


def _given_place(d: Delegation, capacity: int) -> tuple[str, list]:
    place = db.session.scalar(select(Place).where(Place.delegation_id == d.id))
    if place.status == PlaceStatus.ACCEPTED:
        return "submitted", []
    ahead = db.session.scalar(select(func.count(Place.id)).where(
        Place.games_id == place.games_id, Place.status == PlaceStatus.WAITLISTED, Place.seq < place.seq))
    return "waitlisted", [capacity_full(capacity, ahead + 1)]


# One statement, built once: the rush takes this for every arrival.
_PLACES_TAKEN = select(func.coalesce(func.sum(case((Place.status == PlaceStatus.ACCEPTED, Place.entrants), else_=0)), 0),
                       func.count(case((Place.status == PlaceStatus.WAITLISTED, 1))),
                       func.max(Place.seq)).where(Place.games_id == bindparam("games_id"))
# The same, with the arrival tickets the worker has still to finish: an arrival's answer
# tells how many are ahead of it, and under the cap's lock every statement counts.
_PLACES_AND_TICKETS = _PLACES_TAKEN.add_columns(
    select(func.count(ArrivalTicket.id)).where(ArrivalTicket.status == TicketStatus.PENDING).scalar_subquery())


def take_place(games: Games, capacity: int, entrants: int, when, place: Place | None = None,
               delegation_id: int | None = None) -> tuple[Place, int | None]:
    """A place under the cap, or one on the wait list, in order of arrival; with its
    position on the wait list. The caller holds the Games' lock."""
    taken, waiting, last = db.session.execute(_PLACES_TAKEN, {"games_id": games.id}).one()
    return _place_in_order(games, capacity, entrants, when, place, delegation_id, taken, waiting, last)


_INSERT_PLACE = Place.__table__.insert()  # built once: every arrival in a rush writes one


def take_arrival_place(games_id: int, capacity: int, entrants: int, when) -> tuple[int, int | None, int]:
    """take_place() for an arrival ticket as one INSERT, without the ORM's unit of work (under
    the cap's lock, in a rush, it cost more than the statement): the new place's id, its
    position on the wait list, and the tickets still waiting for the worker (all arrived
    before it), counted by the same statement as the places. The caller holds the Games' lock."""
    taken, waiting, last, tickets = db.session.execute(_PLACES_AND_TICKETS, {"games_id": games_id}).one()
    accepted = _accepted(capacity, entrants, taken, waiting, None)
    place_id = db.session.execute(_INSERT_PLACE, {
        "games_id": games_id, "delegation_id": None, "seq": (last or 0) + 1, "requested_at": when, "entrants": entrants,
        "status": PlaceStatus.ACCEPTED if accepted else PlaceStatus.WAITLISTED}).inserted_primary_key[0]
    return place_id, None if accepted else waiting + 1, tickets


def arrival_ticket_statement():
    """take_arrival_place() and the ticket's INSERT and its audit record as one statement, for
    PostgreSQL (a data-modifying WITH): under the cap's lock the rush then waits for three
    round trips (the lock, this, the commit), not six, and on a busy machine each round trip
    waits for a core twice. The counts are read by this statement, after the lock's: in READ
    COMMITTED its snapshot is taken when it starts, so they are the committed ones.
    Returns (ticket id, place id, answer, position, tickets ahead)."""
    from ..audit.models import AuditLog
    place, ticket, audit = Place.__table__, ArrivalTicket.__table__, AuditLog.__table__
    counts = _PLACES_AND_TICKETS.cte("counts")
    taken, waiting, last, ahead = counts.c
    accepted = (taken + bindparam("entrants") <= bindparam("capacity")) & (waiting == 0)
    placed = (place.insert().from_select(
        ["games_id", "delegation_id", "seq", "requested_at", "entrants", "status"],
        select(bindparam("games_id"), null(), func.coalesce(last, 0) + 1, bindparam("at", type_=place.c.requested_at.type),
               bindparam("entrants"), case((accepted, PlaceStatus.ACCEPTED), else_=PlaceStatus.WAITLISTED)))
        .returning(place.c.id, place.c.status).cte("placed"))
    answer = case((placed.c.status == PlaceStatus.ACCEPTED, "submitted"), else_="waitlisted")
    position = case((placed.c.status == PlaceStatus.ACCEPTED, None), else_=waiting + 1)
    given = ["games_id", "status", "display_name", "username", "email", "id_number", "document", "sealed_password",
             "address", "created_at"]
    ticketed = (ticket.insert().from_select(
        ["place_id", "answer", "position", *given],
        select(placed.c.id, answer, position,
               *(bindparam(c if c != "created_at" else "at", type_=ticket.c[c].type) for c in given))
        .select_from(placed.join(counts, true())))
        .returning(ticket.c.id, ticket.c.place_id, ticket.c.answer, ticket.c.position).cte("ticketed"))
    recorded = (audit.insert().from_select(
        ["at", "actor", "user_id", "ip", "action", "object_type", "object_key", "after"],
        select(bindparam("at", type_=audit.c.at.type), bindparam("display_name"), null(), bindparam("address"),
               literal("registration.arrive"), literal("arrival_ticket"), cast(ticketed.c.id, String),
               func.json_build_object("answer", ticketed.c.answer, "position", ticketed.c.position)))
        .cte("recorded"))
    return (select(ticketed.c.id, ticketed.c.place_id, ticketed.c.answer, ticketed.c.position, ahead)
            .select_from(ticketed.join(counts, true())).add_cte(recorded))


def _accepted(capacity: int, entrants: int, taken: int, waiting: int, place: Place | None) -> bool:
    """Within the cap, and nobody waiting before it (a place already on the wait list may move up)."""
    return taken + entrants <= capacity and (waiting == 0 or (place is not None and place.status == PlaceStatus.WAITLISTED))


def _place_in_order(games: Games, capacity: int, entrants: int, when, place: Place | None, delegation_id: int | None,
                    taken: int, waiting: int, last: int | None) -> tuple[Place, int | None]:
    accepted = _accepted(capacity, entrants, taken, waiting, place)
    if place is None:
        seq = (last or 0) + 1
        place = Place(games_id=games.id, delegation_id=delegation_id, seq=seq, requested_at=when)
        db.session.add(place)
        position = waiting + 1
    else:
        position = waiting
    place.entrants = entrants
    place.status = PlaceStatus.ACCEPTED if accepted else PlaceStatus.WAITLISTED
    return place, None if accepted else position


def capacity_full(capacity: int, position: int | None) -> Violation:
    return Violation(
        "CAPACITY_FULL",
        f"本次比赛限 {capacity} 人，名额已满（按报名先后顺序）。您已列入候补名单，有名额空出时按顺序递补。",
        f"These Games take {capacity} entrants, first come first served, and are full. You are on the "
        f"wait list and will be moved up in order when a place frees.", extra={"position": position})


def release_place(place: Place, games: Games, actor: Actor) -> None:
    """A place given back (a withdrawal, a registration that could not be finished): the
    wait list moves up into it."""
    was, place.status = place.status, PlaceStatus.RELEASED
    capacity = definition_of(games).capacity
    if was == PlaceStatus.ACCEPTED and capacity is not None:
        lock_row(Games, games.id)
        _promote(games, capacity, actor)


def _promote(games: Games, capacity: int, actor: Actor) -> list[Delegation]:
    """Fill freed places from the wait list, in order of arrival."""
    promoted = []
    while True:
        taken = db.session.scalar(select(func.coalesce(func.sum(Place.entrants), 0)).where(
            Place.games_id == games.id, Place.status == PlaceStatus.ACCEPTED))
        nxt = db.session.scalar(select(Place).where(Place.games_id == games.id, Place.status == PlaceStatus.WAITLISTED)
                                .order_by(Place.seq).limit(1))
        if nxt is None or taken + nxt.entrants > capacity:
            return promoted
        nxt.status = PlaceStatus.ACCEPTED
        if nxt.delegation_id is None:
            continue  # an arrival ticket's place: its delegation, when made, finds it accepted
        d = db.session.get(Delegation, nxt.delegation_id)
        d.status = DelegationStatus.SUBMITTED
        record(actor, "place.promote", "delegation", str(d.id), delegation=d,
               before={"status": "waitlisted"}, after={"status": "submitted"})
        db.session.flush()
        from ..money.services import sync_charges
        sync_charges(d, actor)  # the place is given now: so is the deposit due
        promoted.append(d)


@transactional
def approve(delegation: Delegation, actor: Actor, at: dt.datetime) -> Outcome:
    d = lock_row(Delegation, delegation.id)
    if d.status != DelegationStatus.SUBMITTED:
        raise Refusal("state", "只能批准已提交的报名。", "Only a submitted delegation can be approved.", delegation=d)
    doc, _ = parse_document(export_document(d))
    violations = dedupe(judge(d.games, doc, d.received_at or at, exclude_delegation_id=d.id, all_numbers=True,
                               reveal=True))
    if any(v.is_error for v in violations):
        raise Refusal("rules", violations=violations, delegation=d)
    d.status, d.approved_at, d.approved_by = "approved", at, actor.label
    for note in db.session.scalars(select(ReviewNote).where(ReviewNote.delegation_id == d.id,
                                                            ReviewNote.resolved.is_(False))):
        note.resolved = True
    record(actor, "delegation.approve", "delegation", str(d.id), delegation=d,
           before={"status": "submitted"}, after={"status": "approved"})
    from ..money.services import sync_charges
    sync_charges(d, actor)
    messages.approved(d, at)
    return Outcome(True, violations, status=Status.APPROVED, delegation=d)


@transactional
def return_for_changes(delegation: Delegation, actor: Actor, notes: list[tuple[str, str | None, str]]) -> Outcome:
    """Return a submitted (or approved) delegation with reasons on the items concerned:
    notes are (item_type, item_key, reason)."""
    notes = [(t, k, r.strip()) for t, k, r in notes if r and r.strip()]
    if not notes:
        raise Refusal("input", "退回时须说明理由。", "Give a reason when returning a delegation.", delegation=delegation)
    d = lock_row(Delegation, delegation.id)
    if d.status not in (DelegationStatus.SUBMITTED, DelegationStatus.APPROVED):
        raise Refusal("state", "只能退回已提交或已批准的报名。", "Only a submitted or approved delegation can be returned.", delegation=d)
    before = d.status
    d.status = DelegationStatus.RETURNED
    for item_type, key, reason in notes:
        db.session.add(ReviewNote(delegation_id=d.id, item_type=item_type, item_key=key, reason=reason,
                                  author=actor.label))
    record(actor, "delegation.return", "delegation", str(d.id), delegation=d,
           before={"status": before}, after={"status": "returned", "notes": [list(n) for n in notes]})
    messages.returned(d, notes, closes_at(definition_of(d.games).stages, NAMES, extensions_of(d)))
    return Outcome(True, status=Status.RETURNED, delegation=d)


@transactional
def grant_extension(delegation: Delegation, stage: str, until: dt.datetime, reason: str, actor: Actor) -> Outcome:
    if stage not in (DECLARATION, NAMES, SUBSTITUTIONS):
        raise Refusal("input", "未知的阶段。", "Unknown stage.", delegation=delegation)
    if until.tzinfo is None:
        raise Refusal("input", "延期时间须带时区。", "The extension needs a UTC offset.", delegation=delegation)
    if not reason or not reason.strip():
        raise Refusal("input", "延期须说明理由。", "Give a reason for the extension.", delegation=delegation)
    d = lock_row(Delegation, delegation.id)
    row = db.session.scalar(select(Extension).where(Extension.delegation_id == d.id, Extension.stage == stage))
    before = {"until": row.until.isoformat(), "reason": row.reason} if row else None
    if row is None:
        row = Extension(delegation_id=d.id, stage=stage)
        db.session.add(row)
    row.until, row.reason, row.granted_by = until, reason.strip(), actor.label
    record(actor, "deadline.extend", "extension", stage, delegation=d, before=before,
           after={"until": until.isoformat(), "reason": reason.strip()}, reason=reason.strip())
    # Whatever the leader asked for this stage is answered by it.
    for req in db.session.scalars(select(ExtensionRequest).where(
            ExtensionRequest.delegation_id == d.id, ExtensionRequest.stage == stage,
            ExtensionRequest.status == RequestStatus.PENDING)):
        req.status, req.answered_by, req.answered_at = RequestStatus.GRANTED, actor.label, utcnow()
        req.answer = reason.strip()[:1000]
    messages.extension_granted(d, stage, until, reason.strip())
    return Outcome(True, status=Status.EXTENDED, delegation=d)


@transactional
def request_extension(delegation: Delegation, stage: str, reason: str, actor: Actor) -> Outcome:
    """A leader asks for more time on a stage that has closed; one request waits at a time."""
    if stage not in (DECLARATION, NAMES, SUBSTITUTIONS):
        raise Refusal("input", "未知的阶段。", "Unknown stage.", delegation=delegation)
    reason = (reason or "").strip()
    if not reason:
        raise Refusal("input", "请说明需要延期的原因。", "Say why more time is needed.", delegation=delegation)
    d = lock_row(Delegation, delegation.id)
    waiting = db.session.scalar(select(ExtensionRequest.id).where(
        ExtensionRequest.delegation_id == d.id, ExtensionRequest.stage == stage, ExtensionRequest.status == RequestStatus.PENDING))
    if waiting:
        raise Refusal("state", "已有一份延期申请等待组委会答复。", "A request is already waiting for the organisers' answer.", delegation=d)
    db.session.add(ExtensionRequest(delegation_id=d.id, stage=stage, reason=reason[:1000], requested_by=actor.label))
    record(actor, "extension.request", "delegation", str(d.id), delegation=d, after={"stage": stage}, reason=reason)
    return Outcome(True, status=Status.REQUESTED, delegation=d)


@transactional
def decline_extension(req: ExtensionRequest, reason: str, actor: Actor) -> Outcome:
    reason = (reason or "").strip()
    d = lock_row(Delegation, req.delegation_id)
    if not reason:
        raise Refusal("input", "拒绝延期须说明理由。", "Give a reason when declining.", delegation=d)
    req = lock_row(ExtensionRequest, req.id)
    if req.status != RequestStatus.PENDING:
        raise Refusal("state", "该申请已答复。", "This request has been answered.", delegation=d)
    req.status, req.answer, req.answered_by, req.answered_at = RequestStatus.DECLINED, reason[:1000], actor.label, utcnow()
    record(actor, "extension.decline", "delegation", str(d.id), delegation=d, after={"stage": req.stage}, reason=reason)
    return Outcome(True, status=Status.DECLINED, delegation=d)


# --- substitutions -----------------------------------------------------------------------------

def apply_substitution(document: dict, event: str, out_ref: str, incoming: dict,
                       tied: set[str] | None = None) -> dict:
    """The document as it would be after replacing out_ref by the incoming person in event,
    and in the events tied to it (pure). `incoming` is a person object; its ref may name an
    existing person."""
    tied = tied or {event}
    doc = copy.deepcopy(document)
    refs = {p["ref"] for p in doc["people"]}
    in_ref = incoming.get("ref")
    if in_ref not in refs:
        if not in_ref:
            n = 1
            while f"s{n}" in refs:
                n += 1
            in_ref = f"s{n}"
        doc["people"].append(dict(incoming, ref=in_ref))
    for entry in doc["entries"]:
        if entry["event"] not in tied:
            continue
        if entry.get("lineup") is not None:
            for slot in entry["lineup"]:
                if slot["person"] == out_ref:
                    slot["person"] = in_ref
        else:
            entry["people"] = [in_ref if r == out_ref else r for r in entry["people"]]
    still_used = out_ref in athletes(doc)
    still_used |= any(x.get("person") == out_ref or x.get("accompanies") == out_ref
                      for section in ("officials", "staff", "companions") for x in doc.get(section) or [])
    if not still_used:
        doc["people"] = [p for p in doc["people"] if p["ref"] != out_ref]
    return doc


def _check_substitution_window(d: Delegation, at: dt.datetime) -> None:
    """Refuses unless substitutions may be asked for now."""
    info = stage_of(d, at)
    stages = definition_of(d.games).stages
    if info.stage == NAMES and stages.replacing_after_submission_needs_approval and d.submitted_at is not None:
        return  # 报名后如需更换运动员须经组委会同意: a change, even before the names deadline
    if info.stage in (DECLARATION, NAMES):
        raise Refusal("state", "名单截止之前，请直接在报名表中修改人员，无需申请更换。",
                       "Before the names deadline, change the names directly; no substitution is needed.", delegation=d)
    if info.stage == CLOSED:
        stages = definition_of(d.games).stages
        raise Refusal("deadline", violations=[change_window_closed(
            closes_at(stages, SUBSTITUTIONS, extensions_of(d)) or stages.changes_close or stages.names_closes)],
            delegation=d)


@transactional
def request_substitution(delegation: Delegation, event: str, out_ref: str, incoming: dict, reason: str,
                         actor: Actor, at: dt.datetime, documents: list[tuple[str, str, bytes]] = ()) -> Outcome:
    """Ask to replace `out_ref` in `event` by `incoming` (a person of the delegation, or a new
    one with the documents the regulation asks of him: (kind, file name, bytes), stored
    with the request and judged with it)."""
    if not reason or not reason.strip():
        raise Refusal("input", "请说明更换理由。", "Give the reason for the substitution.", delegation=delegation)
    checked = []
    for kind, filename, data in documents:
        content_type, ext = check_upload(data)
        if content_type is None:
            zh, en = ext
            raise Refusal("input", f"{filename}：{zh}", f"{filename}: {en}", delegation=delegation)
        checked.append((kind, filename, data, content_type, ext))
    if checked:
        incoming = {**incoming, "documents": sorted(set(incoming.get("documents") or []) | {k for k, *_ in checked})}
    d = lock_row(Delegation, delegation.id)
    if d.status == DelegationStatus.WITHDRAWN:
        raise Refusal("state", "该报名已退出。", "This registration has been withdrawn.", delegation=d)
    _check_substitution_window(d, at)
    before = export_document(d)
    if not any(e["event"] == event and out_ref in entry_people(e) for e in before["entries"]):
        who = next((p["name"] for p in before["people"] if p["ref"] == out_ref), None) or "该人员"
        name = next((e.name for e in definition_of(d.games).events if e.code == event), None)
        raise Refusal("input", f"{who} 没有报名{name.zh if name else '该项目'}。",
                      f"{who} is not entered in {name.en if name else 'this event'}.", delegation=d)
    after = apply_substitution(before, event, out_ref, incoming, tied_events(definition_of(d.games), event))
    doc, problems = parse_document(after)
    violations = dedupe(problems + judge(d.games, doc, at, exclude_delegation_id=d.id))
    if any(v.is_error for v in violations):
        raise Refusal("rules", violations=violations, delegation=d)
    out_name = next((p["name"] for p in before["people"] if p["ref"] == out_ref), None)
    sub = Substitution(delegation_id=d.id, event_code=event, out_ref=out_ref, out_name=out_name, in_person=incoming,
                       reason=reason.strip(), requested_by=actor.label, requested_at=at)
    db.session.add(sub)
    db.session.flush()
    for kind, filename, data, content_type, ext in checked:  # the new person's documents, with the request
        digest = store(d.id, data, ext)
        db.session.add(UploadedFile(delegation_id=d.id, person_ref=incoming["ref"], kind=kind,
                                    filename=os.path.basename(filename or f"{kind}.{ext}")[:200],
                                    content_type=content_type, size=len(data), sha256=digest, uploaded_by=actor.label))
    record(actor, "substitution.request", "substitution", str(sub.id), delegation=d,
           after={"event": event, "out": out_ref, "in": incoming, "documents": [k for k, *_ in checked]}, reason=reason.strip())
    return Outcome(True, violations, status=Status.PENDING, delegation=d)


@transactional
def decide_substitution(sub: Substitution, approve_it: bool, actor: Actor, at: dt.datetime,
                        reason: str | None = None) -> Outcome:
    d = lock_row(Delegation, sub.delegation_id)
    sub = lock_row(Substitution, sub.id)
    if sub.status != SubstitutionStatus.PENDING:
        raise Refusal("state", "该申请已处理。", "This request has already been decided.", delegation=d)
    if not approve_it:
        if not reason or not reason.strip():
            raise Refusal("input", "驳回时须说明理由。", "Give a reason when rejecting.", delegation=d)
        sub.status, sub.decided_by, sub.decided_at, sub.decision_reason = SubstitutionStatus.REJECTED, actor.label, at, reason.strip()
        record(actor, "substitution.reject", "substitution", str(sub.id), delegation=d,
               before={"status": "pending"}, after={"status": "rejected"}, reason=reason.strip())
        messages.substitution_decided(d, sub.event_code, sub.out_name or sub.out_ref, sub.in_person.get("name", ""),
                                      False, reason.strip())
        return Outcome(True, status=Status.REJECTED, delegation=d)
    before = export_document(d)
    after = apply_substitution(before, sub.event_code, sub.out_ref, sub.in_person,
                               tied_events(definition_of(d.games), sub.event_code))
    doc, problems = parse_document(after)
    violations = dedupe(problems + judge(d.games, doc, at, exclude_delegation_id=d.id, all_numbers=True,
                                          reveal=True))
    if any(v.is_error for v in violations):
        raise Refusal("rules", violations=violations, delegation=d)
    after = replace_contents(d, doc)
    compare_new_numbers(d, [(p.ref, p.name or p.ref, p.id_number) for p in doc.people if p.id_number], actor, at)
    d.version += 1
    sub.status, sub.decided_by, sub.decided_at = SubstitutionStatus.APPROVED, actor.label, at
    sub.decision_reason = (reason or "").strip() or None
    record(actor, "substitution.approve", "substitution", str(sub.id), delegation=d,
           before={"changes": document_changes(before, after)}, after={"status": "approved"})
    charge_fee(d, "person_changed", 1, actor, source_key=f"substitution:{sub.id}",
               description=f"人员变更 {sub.event_code}: {sub.out_ref} → {sub.in_person.get('name', '')}")
    messages.substitution_decided(d, sub.event_code, sub.out_name or sub.out_ref, sub.in_person.get("name", ""),
                                  True, sub.decision_reason)
    return Outcome(True, violations, status=Status.APPROVED, delegation=d)


# --- withdrawals and sanctions -----------------------------------------------------------------

@transactional
def withdraw(delegation: Delegation, event: str | None, excused: bool, actor: Actor, at: dt.datetime,
             reason: str | None = None) -> Outcome:
    """Withdraw one event (or, with event None, the whole registration). After the names
    deadline an unexcused withdrawal records a sanction for the next edition."""
    games = delegation.games
    definition = definition_of(games)
    d = lock_row(Delegation, delegation.id)
    if d.status == DelegationStatus.WITHDRAWN:
        raise Refusal("state", "该报名已退出。", "This registration has already been withdrawn.", delegation=d)
    before = export_document(d)
    entered = [e["event"] for e in before["entries"]] + [x["event"] for x in before["declarations"] if x["count"]]
    if event is not None and event not in entered:
        raise Refusal("input", f"本单位没有报名 {event}。", f"The unit has not entered {event}.", delegation=d)
    events = [event] if event else list(dict.fromkeys(entered))
    explanation = definition.sanctions.explanation
    if excused and explanation and explanation not in (d.documents or []):
        names = document_names(definition)[explanation]
        raise Refusal("input", f"按有故退出处理须先由领队在报名首页上传{names[0]}。",
                      f"An excused withdrawal needs the {names[1]} first, uploaded by the leader on the dashboard.",
                      delegation=d)
    late = _late_notice(definition, events, at)
    if late is not None and excused:
        # Announced too late, a withdrawal is not excused whatever the reason (the regulation's notice).
        excused = False
    db.session.add(Withdrawal(delegation_id=d.id, event_code=event, at=at, excused=excused,
                              reason=(reason or "").strip() or None, recorded_by=actor.label))
    sanctioned = []
    names_closes = definition.stages.names_closes
    if (not excused and d.unit_code and definition.sanctions.loses == "event_next_edition"
            and names_closes is not None and at >= names_closes):
        for code in events:
            exists = db.session.scalar(select(Sanction).where(
                Sanction.series == games.series, Sanction.edition == games.edition + 1,
                Sanction.unit_code == d.unit_code, Sanction.event_code == code))
            if exists is None:
                db.session.add(Sanction(series=games.series, edition=games.edition + 1, unit_code=d.unit_code,
                                        event_code=code, source_games=games.slug, reason=reason))
                sanctioned.append(code)
    if event is None:
        d.status = DelegationStatus.WITHDRAWN
        place = db.session.scalar(select(Place).where(Place.delegation_id == d.id))
        if place is not None:
            release_place(place, games, actor)
        from ..money.services import forfeit_on_withdrawal
        forfeit_on_withdrawal(d, actor)
    else:
        after = copy.deepcopy(before)
        after["entries"] = [e for e in after["entries"] if e["event"] != event]
        after["declarations"] = [x for x in after["declarations"] if x["event"] != event]
        doc, _ = parse_document(after)
        replace_contents(d, doc)
        d.version += 1
    loses_awards = not excused and definition.sanctions.loses_award_eligibility
    record(actor, "delegation.withdraw", "delegation", str(d.id), delegation=d, before={"events": events},
           after={"excused": excused, "sanctions": sanctioned, "late_notice": late is not None,
                  "loses_award_eligibility": loses_awards}, reason=reason)
    names = {e.code: e for e in definition.events}
    sports = {s.code: s.name for s in definition.sports}
    named = [(sports[names[c].sport].zh + names[c].name.zh, sports[names[c].sport].en + " " + names[c].name.en)
             for c in sanctioned if c in names]
    zh = ["已记录退出"]
    en = ["Withdrawal recorded"]
    if late is not None:
        zh.append(f"未在赛前 {definition.sanctions.notice_hours} 小时通知（截至 {late}），按无故退出处理")
        en.append(f"not announced {definition.sanctions.notice_hours} hours before play (by {late}): unexcused")
    zh.append("取消下届参赛资格：" + "、".join(n[0] for n in named) if named else "下届不受影响")
    en.append("barred at the next edition: " + ", ".join(n[1] for n in named) if named else "the next edition is not affected")
    if loses_awards:
        zh.append("本单位失去本届团体总分和奖牌榜的录取资格")
        en.append("the unit loses its place in these Games' unit tables")
    return Outcome(True, status=Status.WITHDRAWN, delegation=d, message=("；".join(zh) + "。", "; ".join(en) + "."))


def _late_notice(definition, events: list[str], at: dt.datetime) -> str | None:
    """When the regulation asks for notice hours before play: the last instant a withdrawal
    of these events could be announced, as shown, if `at` is after it; else None."""
    hours = definition.sanctions.notice_hours
    if not hours:
        return None
    starts = [s.start for e in definition.events if e.code in events for s in e.sessions]
    first = min(starts) if starts else dt.datetime.combine(definition.dates.start, dt.time(0), CHINA)
    last = first - dt.timedelta(hours=hours)
    return f"{last.astimezone(CHINA):%Y-%m-%d %H:%M}" if at > last else None


# --- bulk import (paper and provincial systems) -------------------------------------------------

def find_for_document(games: Games, doc: ParsedDelegation) -> Delegation | None:
    q = select(Delegation).where(Delegation.games_id == games.id)
    if isinstance(doc.unit, str):
        return db.session.scalar(q.where(Delegation.unit_code == doc.unit))
    if isinstance(doc.unit, dict):
        return db.session.scalar(q.where(Delegation.unit_code.is_(None), Delegation.unit_name == doc.unit.get("name"),
                                         Delegation.unit_kind == (doc.unit.get("kind") or "club")))
    return None  # a person registering alone: every document is a new registration


@transactional
def import_document(games: Games, data: dict, received_at: dt.datetime, actor: Actor) -> Outcome:
    """Store and submit a delegation document as if it arrived at `received_at`."""
    doc, problems = parse_document(data)
    if doc is None or problems:
        raise Refusal(Refusal.INVALID, violations=problems)
    delegation = find_for_document(games, doc) or new_delegation(games, doc.unit)
    saved = save(delegation, data, actor, received_at)
    if not saved.ok:
        return saved
    return submit(saved.delegation, actor, received_at, received_at=received_at)
