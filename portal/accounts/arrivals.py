"""Self-registration at the moment it opens (issue 27, 6): 300 people press "报名" at once
for 160 places. The answer each waits for — a place, or the wait list — is decided as he
arrives, under the cap's lock, in a request that does little else: an arrival ticket. What
is slow (the delegation stored and judged, the account and its password's scrypt hash) is
done after it by the background worker, which runs at a lower priority than the pages.

A ticket holds the person as typed and the password sealed (portal.sealed) until it is
finished; finishing erases both. Everything the entrant could be refused for is checked
before the ticket is given (the form, the regulation on the person, the username, an ID
number already registered), so that a ticket is refused afterwards only in a race (the
same person twice in one second); its place then goes to the next on the wait list."""
from __future__ import annotations

import datetime as dt
import time

from flask import current_app
from redis.exceptions import RedisError
from sqlalchemy import func, select
from sqlalchemy.exc import IntegrityError

from ..audit.services import Actor, record
from ..db_tx import lock_row, transactional, write_transaction
from ..delegations.models import Delegation, DelegationStatus, Person
from ..extensions import db
from ..games.models import Games, utcnow
from ..games.services import definition_of
from ..jobs.services import enqueue_call, redis_client
from ..outcome import Outcome, Refusal, Status
from ..rules import parse_document
from ..rules.idnumber import normalise
from ..sealed import seal, unseal
from ..workflow.models import ArrivalTicket, Place
from ..workflow.services import new_delegation, release_place, save, submit, take_place
from .models import User
from .services import create_account, hash_password

SEAL_PURPOSE = "arrival password"
SEAL_TTL = 7 * 24 * 3600  # finished within seconds; a week covers a worker stopped for days
RESUBMIT_AFTER = dt.timedelta(minutes=5)  # a pending ticket no worker took (the queue was lost)
FINISH = "portal.accounts.arrivals.finish_when_quiet"
LAST_ARRIVAL = "portal:arrivals:last"  # in the shared Redis: when the last ticket was given
_last_here = [0.0]
DRAIN = 1000  # tickets one job finishes at most (each a transaction of its own)  # the same, with the thread backend (one process)


def username_taken(username: str) -> bool:
    """An account's, or a ticket's waiting for its account (one statement)."""
    return db.session.execute(select(User.id).where(User.username == username).union_all(
        select(ArrivalTicket.id).where(ArrivalTicket.username == username)).limit(1)).first() is not None


def numbers_held(games: Games, document: dict) -> dict[str, str]:
    """The document's identity numbers that these Games already hold (a delegation not
    withdrawn, or a ticket not yet finished) -> "" (never who holds them); one statement."""
    own = {normalise(p["id_number"]) for p in document.get("people", []) if p.get("id_number")}
    if not own:
        return {}
    held = db.session.scalars(
        select(Person.id_number).join(Delegation, Person.delegation_id == Delegation.id)
        .where(Delegation.games_id == games.id, Person.id_number.in_(own),
               Delegation.status != DelegationStatus.WITHDRAWN)
        .union_all(select(ArrivalTicket.id_number).where(
            ArrivalTicket.games_id == games.id, ArrivalTicket.status == "pending",
            ArrivalTicket.id_number.in_(own))))
    return {normalise(n): "" for n in held}


def take_ticket(games: Games, document: dict, username: str, password: str, actor: Actor,
                at: dt.datetime) -> Outcome:
    """The entrant's place (or wait-list position) in order of arrival, and his ticket.
    `document` is his one-person delegation, already judged clean by the caller (the
    username too: one taken meanwhile by another ticket is refused by its unique index)."""
    try:
        return _take_ticket(games, document, username, password, actor, at)
    except IntegrityError as exc:  # rolled back already
        if "username" not in str(exc.orig):
            raise
        return Refusal("username", "该用户名已被使用", "This username is taken").outcome()


@transactional
def _take_ticket(games: Games, document: dict, username: str, password: str, actor: Actor,
                 at: dt.datetime) -> Outcome:
    lock_row(Games, games.id)  # the cap is the limited thing: lock it, count, write
    definition = definition_of(games)
    place, position = None, None
    if definition.capacity is not None:
        entrants = len({ref for e in document["entries"] for ref in e["people"]})
        place, position = take_place(games, definition.capacity, entrants, at)
        db.session.flush()
    people = document.get("people", [])
    number = normalise(people[0]["id_number"]) if people and people[0].get("id_number") else None
    ticket = ArrivalTicket(games_id=games.id, place_id=place.id if place else None, status="pending",
                           answer="waitlisted" if position else "submitted", position=position,
                           display_name=actor.label, username=username, id_number=number, document=document,
                           sealed_password=seal(password, SEAL_PURPOSE), address=actor.ip, created_at=at)
    db.session.add(ticket)
    db.session.flush()
    record(actor, "registration.arrive", "arrival_ticket", str(ticket.id),
           after={"answer": ticket.answer, "position": position})
    return Outcome(True, status=Status(ticket.answer), details={"ticket": ticket.id})


def hand_to_worker(ticket_id: int) -> None:
    _mark_arrival()
    enqueue_call(FINISH, ticket_id)


def _mark_arrival() -> None:
    client = redis_client()
    if client is None:
        _last_here[0] = time.time()
        return
    try:
        client.set(LAST_ARRIVAL, repr(time.time()), ex=600)
    except (RedisError, OSError):
        pass  # the worker then starts at once: slower answers, nothing lost


def _last_arrival() -> float:
    client = redis_client()
    if client is None:
        return _last_here[0]
    try:
        return float(client.get(LAST_ARRIVAL) or 0)
    except (RedisError, OSError, ValueError):
        return 0.0


def finish_when_quiet(ticket_id: int) -> None:
    """finish(), once arrivals have paused for ARRIVALS_QUIET_SECONDS (at most a minute):
    while people are still pressing the button, the machine answers them first, and the
    accounts (a slow hash each) are made in the quiet after."""
    quiet = float(current_app.config.get("ARRIVALS_QUIET_SECONDS", 1.0))
    give_up = time.monotonic() + 60
    while quiet > 0 and time.monotonic() < give_up and time.time() - _last_arrival() < quiet:
        time.sleep(quiet / 2)
    finish(ticket_id)
    # Then the others still waiting, in order of arrival, while this process is warm (a
    # worker's fresh child pays about a second of start-up; the next tickets' jobs find
    # them finished and end at once). One that fails is left to its own job.
    tried = {ticket_id}
    for _ in range(DRAIN):
        next_id = db.session.scalar(select(func.min(ArrivalTicket.id)).where(
            ArrivalTicket.status == "pending", ArrivalTicket.id.not_in(tried)))
        db.session.rollback()
        if next_id is None:
            return
        tried.add(next_id)
        try:
            finish(next_id)
        except Exception:
            current_app.logger.exception("arrival ticket %s not finished", next_id)
            db.session.rollback()


def finish(ticket_id: int) -> None:
    """Make the ticket's delegation and account (run by the worker; a ticket already
    finished is left alone, so a queue delivering twice does no harm)."""
    ticket = db.session.get(ArrivalTicket, ticket_id)
    if ticket is None or ticket.status != "pending":
        return
    # The slow hash first, holding no lock: a worker at low priority must never keep a row
    # that the pages are waiting for.
    password = unseal(ticket.sealed_password, SEAL_PURPOSE, SEAL_TTL) if ticket.sealed_password else None
    password_hash = hash_password(password) if password else None
    db.session.rollback()
    try:
        with write_transaction():
            ticket = lock_row(ArrivalTicket, ticket_id)
            if ticket is None or ticket.status != "pending":
                return
            _make(ticket, password_hash)
    except Refusal as refusal:
        _refuse(ticket_id, refusal)


def _make(ticket: ArrivalTicket, password_hash: str | None) -> None:
    games = db.session.get(Games, ticket.games_id)
    actor = Actor(ticket.display_name, ip=ticket.address)
    doc, problems = parse_document(ticket.document)
    if doc is None or problems:
        raise Refusal(Refusal.INVALID, violations=problems)
    if db.session.scalar(select(User.id).where(User.username == ticket.username)) is not None:
        raise Refusal("username", "该用户名已被使用，请换一个重新报名。", "This username is taken: register again with another.")
    saved = save(new_delegation(games, doc.unit), ticket.document, actor, ticket.created_at)
    if not saved.ok:
        raise saved_refusal(saved)
    d = saved.delegation
    if ticket.place_id is not None:
        db.session.get(Place, ticket.place_id).delegation_id = d.id
        db.session.flush()
    submitted = submit(d, actor, utcnow(), received_at=ticket.created_at, place_given=ticket.place_id is not None)
    if not submitted.ok:
        raise saved_refusal(submitted)
    user, _token = create_account(ticket.username, ticket.display_name, "leader", actor, delegation=d,
                                  password_hash=password_hash)
    ticket.status, ticket.finished_at = "done", utcnow()
    ticket.delegation_id, ticket.user_id = d.id, user.id
    ticket.answer = str(submitted.status)  # a place freed meanwhile has moved him up
    _erase(ticket)


def saved_refusal(outcome: Outcome) -> Refusal:
    return Refusal(outcome.code or "rules", *(outcome.message or (None, None)), violations=outcome.errors)


def _erase(ticket: ArrivalTicket) -> None:
    ticket.document, ticket.sealed_password, ticket.id_number, ticket.username = None, None, None, None


def _refuse(ticket_id: int, refusal: Refusal) -> None:
    """The ticket could not be finished: it says why, and its place goes to the next."""
    with write_transaction():
        ticket = lock_row(ArrivalTicket, ticket_id)
        if ticket is None or ticket.status != "pending":
            return
        games = db.session.get(Games, ticket.games_id)
        messages = [{"zh": v.zh, "en": v.en, "code": v.code} for v in refusal.violations if v.is_error]
        if refusal.message:
            messages.insert(0, {"zh": refusal.message[0], "en": refusal.message[1], "code": refusal.code})
        ticket.status, ticket.finished_at, ticket.problems = "refused", utcnow(), messages
        _erase(ticket)
        place = db.session.get(Place, ticket.place_id) if ticket.place_id else None
        if place is not None:
            release_place(place, games, Actor("报名系统 (registration)"))
        record(Actor(ticket.display_name, ip=ticket.address), "registration.refuse", "arrival_ticket", str(ticket.id),
               after={"codes": [m["code"] for m in messages]})


def ticket_of(games: Games, ticket_id: int | None, at: dt.datetime) -> ArrivalTicket | None:
    """The ticket this browser was given for these Games (its id is in the signed session);
    one the queue lost is handed to the worker again."""
    if not isinstance(ticket_id, int):
        return None
    ticket = db.session.get(ArrivalTicket, ticket_id)
    if ticket is None or ticket.games_id != games.id:
        return None
    if ticket.status == "pending" and at - ticket.created_at > RESUBMIT_AFTER:
        hand_to_worker(ticket.id)
    return ticket


def ahead_of(ticket: ArrivalTicket) -> int:
    """Tickets still waiting for the worker that arrived before this one."""
    return db.session.scalar(select(func.count(ArrivalTicket.id)).where(
        ArrivalTicket.status == "pending", ArrivalTicket.id < ticket.id)) or 0
