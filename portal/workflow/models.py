"""Workflow state: extensions, review notes, substitutions, withdrawals, sanctions,
places under a capacity cap."""
from __future__ import annotations

import datetime as dt
from enum import StrEnum

from sqlalchemy import JSON, ForeignKey, Index, String, UniqueConstraint
from sqlalchemy.orm import Mapped, mapped_column, relationship

from ..db_tx import ReadBeside
from ..db_types import UTCDateTime, status_check
from ..delegations.models import Delegation
from ..extensions import db
from ..games.models import utcnow

__all__ = ["Extension", "ExtensionRequest", "ReviewNote", "Substitution", "Withdrawal", "Sanction", "Place",
           "ArrivalTicket", "RequestStatus", "SubstitutionStatus", "PlaceStatus", "TicketStatus"]


class RequestStatus(StrEnum):
    PENDING = "pending"
    GRANTED = "granted"
    DECLINED = "declined"


class SubstitutionStatus(StrEnum):
    PENDING = "pending"
    APPROVED = "approved"
    REJECTED = "rejected"
    CANCELLED = "cancelled"


class PlaceStatus(StrEnum):
    ACCEPTED = "accepted"
    WAITLISTED = "waitlisted"
    RELEASED = "released"


class TicketStatus(StrEnum):
    PENDING = "pending"
    DONE = "done"
    REFUSED = "refused"


class ExtensionRequest(db.Model):
    """A leader's request for more time after a stage closed (issue 25, 3): the organisers
    see it in their queue and answer it (an extension granted, or declined with a reason)."""

    __tablename__ = "extension_request"
    __table_args__ = (status_check(RequestStatus),)
    id: Mapped[int] = mapped_column(primary_key=True)
    delegation_id: Mapped[int] = mapped_column(ForeignKey("delegation.id", ondelete="CASCADE"), index=True)
    stage: Mapped[str] = mapped_column(String(20))
    reason: Mapped[str] = mapped_column(String(1000))
    requested_by: Mapped[str] = mapped_column(String(100))
    requested_at: Mapped[dt.datetime] = mapped_column(UTCDateTime, default=utcnow)
    status: Mapped[str] = mapped_column(String(20), default=RequestStatus.PENDING)
    answer: Mapped[str | None] = mapped_column(String(1000))
    answered_by: Mapped[str | None] = mapped_column(String(100))
    answered_at: Mapped[dt.datetime | None] = mapped_column(UTCDateTime)


class Extension(db.Model):
    """An organiser's extension of one stage's deadline for one delegation."""

    __tablename__ = "extension"
    __table_args__ = (UniqueConstraint("delegation_id", "stage"),)
    id: Mapped[int] = mapped_column(primary_key=True)
    delegation_id: Mapped[int] = mapped_column(ForeignKey("delegation.id", ondelete="CASCADE"))
    stage: Mapped[str] = mapped_column(String(20))
    until: Mapped[dt.datetime] = mapped_column(UTCDateTime)
    reason: Mapped[str] = mapped_column(String(500))
    granted_by: Mapped[str] = mapped_column(String(100))
    granted_at: Mapped[dt.datetime] = mapped_column(UTCDateTime, default=utcnow)


# A delegation's extensions, read in the statement that reads (or locks) the delegation:
# every page's stage needs them (access.guards, db_tx.lock_row, delegations.stage).
WITH_EXTENSIONS = ReadBeside(Extension, Extension.stage, Extension.until, Extension.delegation_id == Delegation.id)


class ReviewNote(db.Model):
    """Why an organiser returned a delegation: on the item concerned."""

    __tablename__ = "review_note"
    id: Mapped[int] = mapped_column(primary_key=True)
    delegation_id: Mapped[int] = mapped_column(ForeignKey("delegation.id", ondelete="CASCADE"), index=True)
    item_type: Mapped[str] = mapped_column(String(20))  # delegation, person, event, team
    item_key: Mapped[str | None] = mapped_column(String(100))
    reason: Mapped[str] = mapped_column(String(1000))
    author: Mapped[str] = mapped_column(String(100))
    created_at: Mapped[dt.datetime] = mapped_column(UTCDateTime, default=utcnow)
    resolved: Mapped[bool] = mapped_column(default=False)


class Substitution(db.Model):
    """"Replace X by Y in event E", asked by the leader, decided by an organiser."""

    __tablename__ = "substitution"
    __table_args__ = (
        status_check(SubstitutionStatus),
        Index("ix_substitution_status", "status"),
    )
    id: Mapped[int] = mapped_column(primary_key=True)
    delegation_id: Mapped[int] = mapped_column(ForeignKey("delegation.id", ondelete="CASCADE"), index=True)
    event_code: Mapped[str] = mapped_column(String(40))
    out_ref: Mapped[str] = mapped_column(String(40))
    # The name of the person replaced, kept: after approval he may be gone from the delegation.
    out_name: Mapped[str | None] = mapped_column(String(100))
    in_person: Mapped[dict] = mapped_column(JSON)  # the incoming person, as in the document
    reason: Mapped[str] = mapped_column(String(1000))
    status: Mapped[str] = mapped_column(String(20), default=SubstitutionStatus.PENDING)
    requested_by: Mapped[str] = mapped_column(String(100))
    requested_at: Mapped[dt.datetime] = mapped_column(UTCDateTime, default=utcnow)
    decided_by: Mapped[str | None] = mapped_column(String(100))
    decided_at: Mapped[dt.datetime | None] = mapped_column(UTCDateTime)
    decision_reason: Mapped[str | None] = mapped_column(String(1000))
    delegation = relationship("Delegation")


class Withdrawal(db.Model):
    __tablename__ = "withdrawal"
    id: Mapped[int] = mapped_column(primary_key=True)
    delegation_id: Mapped[int] = mapped_column(ForeignKey("delegation.id", ondelete="CASCADE"), index=True)
    event_code: Mapped[str | None] = mapped_column(String(40))  # None: the whole registration
    at: Mapped[dt.datetime] = mapped_column(UTCDateTime)
    excused: Mapped[bool] = mapped_column(default=False)
    reason: Mapped[str | None] = mapped_column(String(1000))
    recorded_by: Mapped[str] = mapped_column(String(100))


class Sanction(db.Model):
    """A unit loses an event at the given edition of a Games series (unexcused withdrawal)."""

    __tablename__ = "sanction"
    __table_args__ = (UniqueConstraint("series", "edition", "unit_code", "event_code"),)
    id: Mapped[int] = mapped_column(primary_key=True)
    series: Mapped[str] = mapped_column(String(60))
    edition: Mapped[int]
    unit_code: Mapped[str] = mapped_column(String(40))
    event_code: Mapped[str] = mapped_column(String(40))
    source_games: Mapped[str] = mapped_column(String(60))
    reason: Mapped[str | None] = mapped_column(String(1000))
    created_at: Mapped[dt.datetime] = mapped_column(UTCDateTime, default=utcnow)
    lifted: Mapped[bool] = mapped_column(default=False)


class Place(db.Model):
    """A delegation's entrants against the Games' cap: accepted, or wait-listed in order.
    A place taken by an arrival ticket has no delegation until the ticket is finished."""

    __tablename__ = "place"
    __table_args__ = (
        UniqueConstraint("delegation_id"),
        status_check(PlaceStatus),
        Index("ix_place_games_status", "games_id", "status", "seq"),
    )
    id: Mapped[int] = mapped_column(primary_key=True)
    games_id: Mapped[int] = mapped_column(ForeignKey("games.id", ondelete="CASCADE"))
    delegation_id: Mapped[int | None] = mapped_column(ForeignKey("delegation.id", ondelete="CASCADE"))
    status: Mapped[str] = mapped_column(String(20))
    entrants: Mapped[int] = mapped_column(default=1)
    # Order of arrival, for first come first served and the wait list.
    seq: Mapped[int]
    requested_at: Mapped[dt.datetime] = mapped_column(UTCDateTime, default=utcnow)


class ArrivalTicket(db.Model):
    """A self-registration as it arrived (issue 27, 6): its place under the cap is taken in
    the request, in order of arrival, and answered at once; the delegation and the account
    (the password's slow hash) are made after it by a background worker. Until then the
    ticket holds the person as typed and the password sealed with the portal's key; both
    are erased when it is finished."""

    __tablename__ = "arrival_ticket"
    __table_args__ = (
        status_check(TicketStatus),
        UniqueConstraint("username"),
        Index("ix_arrival_ticket_number", "games_id", "id_number"),
        Index("ix_arrival_ticket_status", "status", "created_at"),
    )
    id: Mapped[int] = mapped_column(primary_key=True)
    games_id: Mapped[int] = mapped_column(ForeignKey("games.id", ondelete="CASCADE"))
    place_id: Mapped[int | None] = mapped_column(ForeignKey("place.id", ondelete="SET NULL"), index=True)
    status: Mapped[str] = mapped_column(String(20), default=TicketStatus.PENDING)
    # The answer given at arrival: "submitted" (a place, or no cap) or "waitlisted".
    answer: Mapped[str] = mapped_column(String(20))
    position: Mapped[int | None]  # on the wait list, at arrival
    display_name: Mapped[str] = mapped_column(String(200))
    # Reserved while pending (NULL once the account exists or the ticket is refused).
    username: Mapped[str | None] = mapped_column(String(80))
    email: Mapped[str | None] = mapped_column(String(200))  # the account's, once made
    id_number: Mapped[str | None] = mapped_column(String(40))  # normalised, while pending
    document: Mapped[dict | None] = mapped_column(JSON)
    sealed_password: Mapped[str | None] = mapped_column(String(500))
    address: Mapped[str | None] = mapped_column(String(64))
    delegation_id: Mapped[int | None] = mapped_column(ForeignKey("delegation.id", ondelete="SET NULL"), index=True)
    user_id: Mapped[int | None] = mapped_column(ForeignKey("user_account.id", ondelete="SET NULL"), index=True)
    problems: Mapped[list | None] = mapped_column(JSON)  # a refusal's messages, zh and en
    # When the arrival page logged its browser in to the new account: once only, so a
    # copy of that session cookie replayed later (after a logout) opens nothing.
    logged_in_at: Mapped[dt.datetime | None] = mapped_column(UTCDateTime)
    created_at: Mapped[dt.datetime] = mapped_column(UTCDateTime, default=utcnow)
    finished_at: Mapped[dt.datetime | None] = mapped_column(UTCDateTime)
