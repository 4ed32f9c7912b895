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
import threading
import time

from flask import current_app
from redis.exceptions import RedisError
from sqlalchemy import bindparam, func, select, true
from sqlalchemy.exc import IntegrityError

from ..audit.services import Actor, record, record_row
from ..clock import now
from ..db_tx import lock_row, write_transaction
from ..delegations.saving import new_delegation, save
from ..extensions import db
from ..games.models import Games, utcnow
from ..games.services import definition_of
from ..jobs.services import enqueue_call, queue_name, redis_client, sweeper
from ..outcome import Outcome, Refusal, RefusalCode, Status
from ..rules import parse_document
from ..rules.idnumber import normalise
from ..sealed import seal, unseal
from ..workflow.models import ArrivalTicket, Place, TicketStatus
from ..workflow.services import arrival_ticket_statement, release_place, submit, take_arrival_place
from .models import User
from .services import create_account, hash_password

SEAL_PURPOSE = "arrival password"
# What the registration form cannot take: the documents due with the entry are uploaded in
# his account once it is made, and he submits the entry then (_make keeps it a draft).
UPLOADED_AFTER = frozenset({"DOCUMENT_MISSING"})
SEAL_TTL = 7 * 24 * 3600  # finished within seconds; a week covers a worker stopped for days
RESUBMIT_AFTER = dt.timedelta(minutes=5)  # a pending ticket no worker took (the queue was lost)
FINISH = "portal.accounts.arrivals.finish_when_quiet"
# In the shared Redis, per queue: when the last ticket was given; and that a job is queued or
# draining, so that the burst's next arrivals queue none.
LAST_ARRIVAL, SCHEDULED = "portal:arrivals:last:{}", "portal:arrivals:scheduled:{}"
SCHEDULED_TTL = 120  # seconds the mark outlives a job that died while draining
_here = {"last": 0.0, "scheduled": 0.0}  # the same two, with the thread backend (one process)
_here_lock = threading.Lock()
DRAIN = 1000  # tickets one job finishes at most (each a transaction of its own)


# Built once, bound per arrival: building the union anew cost the rush's answer more than running it.
_USED_NAMES = (select(User.username).where((User.username == bindparam("asked")) | User.username.like(bindparam("like")))
               .union(select(ArrivalTicket.username).where((ArrivalTicket.username == bindparam("asked"))
                                                           | ArrivalTicket.username.like(bindparam("like")))))
_WAITING = select(func.count(ArrivalTicket.id)).where(ArrivalTicket.status == TicketStatus.PENDING)


def free_username(asked: str) -> str:
    """The name asked for, or when an account or a ticket has it, the first free of
    asked-2, asked-3, ... (one statement for all of them)."""
    stem = asked[:74]
    used = set(db.session.scalars(_USED_NAMES, {"asked": asked, "like": f"{stem}-%"}))
    if asked not in used:
        return asked
    return next(f"{stem}-{n}" for n in range(2, len(used) + 3) if f"{stem}-{n}" not in used)


def take_ticket(games: Games, document: dict, username: str, password: str, actor: Actor,
                at: dt.datetime, email: str | None = None) -> Outcome:
    """The entrant's place (or wait-list position) in order of arrival, and his ticket.
    `document` is his one-person delegation, already judged clean by the caller. A
    username already in use is given as its first free variant (the ticket holds it).
    The outcome's details hold the ticket, still loaded after the commit with the Games,
    and the tickets ahead of it: the answer's page is drawn from them without a read."""
    games_id = games.id  # read before the transaction ends the reads made outside the lock
    # Everything that needs no lock is done before it: the arrivals queue behind the lock,
    # one at a time, and on a busy machine each statement in it waits for a core twice.
    people = document.get("people", [])
    number = normalise(people[0]["id_number"]) if people and people[0].get("id_number") else None
    sealed = seal(password, SEAL_PURPOSE)
    for _attempt in range(3):  # another ticket took the same free variant at the same moment
        try:
            with write_transaction(keep_loaded=True):
                return _take_ticket(games_id, document, free_username(username), sealed, number, actor, at, email)
        except IntegrityError as exc:  # rolled back already
            if "username" not in str(exc.orig):
                raise
    return Refusal.of_field("username", "该用户名已被使用", "This username is taken").outcome()


_INSERT_TICKET = ArrivalTicket.__table__.insert()  # built once, as the place's
_TAKE_IN_ONE = arrival_ticket_statement()  # PostgreSQL's: the place, the ticket and its record


def _take_ticket(games_id: int, document: dict, username: str, sealed_password: str, number: str | None,
                 actor: Actor, at: dt.datetime, email: str | None = None) -> Outcome:
    """Under the lock every statement waits for a core on a busy machine, and the ORM's unit
    of work for the place and the ticket cost more than their INSERTs: both are Core."""
    games = lock_row(Games, games_id)  # the cap is the limited thing: lock it, count, write
    definition = definition_of(games)
    place_id, position, ahead = None, None, None
    values = {"games_id": games.id, "status": TicketStatus.PENDING, "display_name": actor.label, "username": username,
              "email": email, "id_number": number, "document": document, "sealed_password": sealed_password,
              "address": actor.ip, "created_at": at}
    if definition.capacity is not None and db.session.get_bind().dialect.name == "postgresql":
        entrants = len({ref for e in document["entries"] for ref in e["people"]})
        ticket_id, place_id, answer, position, ahead = db.session.execute(_TAKE_IN_ONE, {
            **values, "at": at, "entrants": entrants, "capacity": definition.capacity}).one()
        ticket = ArrivalTicket(id=ticket_id, place_id=place_id, answer=answer, position=position, **values)
        return Outcome(True, status=Status(answer), details={"ticket": ticket, "ahead": ahead})
    if definition.capacity is not None:
        entrants = len({ref for e in document["entries"] for ref in e["people"]})
        # With the tickets the worker has still to finish before this one (all arrived before it).
        place_id, position, ahead = take_arrival_place(games.id, definition.capacity, entrants, at)
    else:
        ahead = db.session.scalar(_WAITING) or 0
    values.update(place_id=place_id, answer="waitlisted" if position else "submitted", position=position)
    ticket_id = db.session.execute(_INSERT_TICKET, values).inserted_primary_key[0]
    record_row(actor, "registration.arrive", "arrival_ticket", str(ticket_id),
               after={"answer": values["answer"], "position": position})
    # What the answer's page reads, as written (not added to the session: nothing reads it back).
    ticket = ArrivalTicket(id=ticket_id, **values)
    return Outcome(True, status=Status(ticket.answer), details={"ticket": ticket, "ahead": ahead})


def hand_to_worker(ticket_id: int, again: bool = False) -> None:
    """Have the worker finish this ticket. A burst of arrivals queues one job, not one each
    (queueing costs the answer more than anything else it does outside the lock): the first
    arrival queues it, the others only mark the time; the job finishes every ticket waiting.
    `again`: a ticket no worker took (the queue was lost), queued whatever the mark says."""
    if (_mark_arrival() or again) and not enqueue_call(FINISH, ticket_id):
        _unschedule()  # out of reach: the next arrival, or the sweep, tries again


def _mark_arrival() -> bool:
    """Records the time of this arrival; True when no job is queued for the burst yet (the
    caller queues it). One round trip to the shared Redis."""
    client = redis_client()
    if client is None:
        with _here_lock:
            _here["last"] = moment = time.time()
            if moment - _here["scheduled"] < SCHEDULED_TTL:
                return False
            _here["scheduled"] = moment
            return True
    try:
        queue = queue_name()
        _last, scheduled = (client.pipeline(transaction=False)
                            .set(LAST_ARRIVAL.format(queue), repr(time.time()), ex=600)
                            .set(SCHEDULED.format(queue), "1", nx=True, ex=SCHEDULED_TTL).execute())
        return bool(scheduled)
    except (RedisError, OSError):
        return True  # the job then starts at once: slower answers, nothing lost


def _still_scheduled() -> None:
    """The draining job is alive: its mark outlives it by at most SCHEDULED_TTL."""
    client = redis_client()
    if client is None:
        _here["scheduled"] = time.time()
        return
    try:
        client.expire(SCHEDULED.format(queue_name()), SCHEDULED_TTL)
    except (RedisError, OSError):
        pass


def _unschedule() -> None:
    client = redis_client()
    if client is None:
        _here["scheduled"] = 0.0
        return
    try:
        client.delete(SCHEDULED.format(queue_name()))
    except (RedisError, OSError):
        pass  # the mark lapses by itself


def _last_arrival() -> float:
    client = redis_client()
    if client is None:
        return _here["last"]
    try:
        return float(client.get(LAST_ARRIVAL.format(queue_name())) or 0)
    except (RedisError, OSError, ValueError):
        return 0.0


def finish_when_quiet(ticket_id: int | None = None) -> None:
    """Every ticket waiting, in order of arrival, once arrivals have paused for
    ARRIVALS_QUIET_SECONDS (at most a minute): while people are still pressing the button,
    the machine answers them first, and the accounts (a slow hash each) are made in the
    quiet after, by one warm process (a worker's fresh child pays about a second of
    start-up)."""
    quiet = float(current_app.config.get("ARRIVALS_QUIET_SECONDS", 1.0))
    give_up = time.monotonic() + 60
    while quiet > 0 and time.monotonic() < give_up and time.time() - _last_arrival() < quiet:
        time.sleep(quiet / 2)
    try:
        if ticket_id is not None:
            _finish_or_log(ticket_id)
        _drain()
    finally:
        _unschedule()
    _drain()  # those that came before the mark was lifted queued no job of their own


def _drain() -> None:
    tried: set[int] = set()  # one that fails is left for the sweep, not retried in a loop
    for _ in range(DRAIN):
        next_id = db.session.scalar(select(func.min(ArrivalTicket.id)).where(
            ArrivalTicket.status == TicketStatus.PENDING, ArrivalTicket.id.not_in(tried) if tried else true()))
        db.session.rollback()
        if next_id is None:
            return
        tried.add(next_id)
        _finish_or_log(next_id)
        _still_scheduled()


def _finish_or_log(ticket_id: int) -> None:
    try:
        finish(ticket_id)
    except Exception:
        current_app.logger.exception("arrival ticket %s not finished", ticket_id)
        db.session.rollback()


@sweeper("registrations still waiting for their account handed to the worker again")
def hand_over_lost_tickets(at: dt.datetime | None = None) -> int:
    """Tickets still waiting RESUBMIT_AFTER after their arrival (their job was lost with a
    Redis restart, or failed): handed to the worker again; how many. Run by each worker as
    it starts and by `flask jobs sweep`."""
    limit = (at or now()) - RESUBMIT_AFTER  # the portal's clock, as the tickets' arrivals
    lost, oldest = db.session.execute(select(func.count(ArrivalTicket.id), func.min(ArrivalTicket.id)).where(
        ArrivalTicket.status == TicketStatus.PENDING, ArrivalTicket.created_at < limit)).one()
    db.session.rollback()
    if oldest is not None:
        hand_to_worker(oldest, again=True)
    return lost


def finish(ticket_id: int) -> None:
    """Make the ticket's delegation and account (run by the worker; a ticket already
    finished is left alone, so a queue delivering twice does no harm)."""
    ticket = db.session.get(ArrivalTicket, ticket_id)
    if ticket is None or ticket.status != TicketStatus.PENDING:
        return
    # The slow hash first, holding no lock: a worker at low priority must never keep a row
    # that the pages are waiting for.
    password = unseal(ticket.sealed_password, SEAL_PURPOSE, SEAL_TTL) if ticket.sealed_password else None
    password_hash = hash_password(password) if password else None
    db.session.rollback()
    try:
        with write_transaction():
            ticket = lock_row(ArrivalTicket, ticket_id)
            if ticket is None or ticket.status != TicketStatus.PENDING:
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
        raise Refusal.of_field("username", "该用户名已被使用，请换一个重新报名。", "This username is taken: register again with another.")
    saved = save(new_delegation(games, doc.unit), ticket.document, actor, ticket.created_at)
    if not saved.ok:
        raise saved_refusal(saved)
    d = saved.delegation
    if ticket.place_id is not None:
        db.session.get(Place, ticket.place_id).delegation_id = d.id
        db.session.flush()
    try:
        submitted = submit(d, actor, utcnow(), received_at=ticket.created_at, place_given=ticket.place_id is not None)
    except Refusal as refusal:
        # Documents due with the entry, which the form cannot take: the entry is kept as a
        # draft, and he submits it from his account once they are uploaded.
        if refusal.code != RefusalCode.RULES or any(v.code not in UPLOADED_AFTER for v in refusal.violations if v.is_error):
            raise
        submitted = Outcome(True, status=Status.SAVED, delegation=d)
    if not submitted.ok:
        raise saved_refusal(submitted)
    user, _token = create_account(ticket.username, ticket.display_name, "leader", actor, delegation=d,
                                  password_hash=password_hash)
    user.email = ticket.email  # checked on the form: receipts and decisions reach him
    ticket.status, ticket.finished_at = "done", utcnow()
    ticket.delegation_id, ticket.user_id = d.id, user.id
    ticket.answer = str(submitted.status)  # a place freed meanwhile has moved him up
    _erase(ticket)


def saved_refusal(outcome: Outcome) -> Refusal:
    return Refusal(outcome.code or "rules", *(outcome.message or (None, None)), violations=outcome.errors)


def _erase(ticket: ArrivalTicket) -> None:
    ticket.document, ticket.sealed_password, ticket.id_number, ticket.username = None, None, None, None
    ticket.email = None


def _refuse(ticket_id: int, refusal: Refusal) -> None:
    """The ticket could not be finished: it says why, and its place goes to the next."""
    with write_transaction():
        ticket = lock_row(ArrivalTicket, ticket_id)
        if ticket is None or ticket.status != TicketStatus.PENDING:
            return
        games = db.session.get(Games, ticket.games_id)
        messages = [{"zh": v.zh, "en": v.en, "code": v.code} for v in refusal.violations if v.is_error]
        if refusal.message:
            messages.insert(0, {"zh": refusal.message[0], "en": refusal.message[1],
                                "code": refusal.field or str(refusal.code)})
        ticket.status, ticket.finished_at, ticket.problems = "refused", utcnow(), messages
        _erase(ticket)
        place = db.session.get(Place, ticket.place_id) if ticket.place_id else None
        if place is not None:
            release_place(place, games, Actor("报名系统"))
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
    if ticket.status == TicketStatus.PENDING and at - ticket.created_at > RESUBMIT_AFTER:
        hand_to_worker(ticket.id, again=True)
    return ticket


def claim_login(ticket: ArrivalTicket, at: dt.datetime) -> bool:
    """Whether the arrival page may log its browser in to the ticket's new account: once,
    by one conditional UPDATE. A copy of the cookie replayed after that (after a logout,
    a new password) logs nobody in."""
    from sqlalchemy import update
    t = ArrivalTicket.__table__
    with write_transaction(keep_loaded=True):
        return db.session.execute(update(t).where(t.c.id == ticket.id, t.c.logged_in_at.is_(None))
                                  .values(logged_in_at=at)).rowcount == 1


def ahead_of(ticket: ArrivalTicket) -> int:
    """Tickets still waiting for the worker that arrived before this one."""
    return db.session.scalar(select(func.count(ArrivalTicket.id)).where(
        ArrivalTicket.status == TicketStatus.PENDING, ArrivalTicket.id < ticket.id)) or 0
