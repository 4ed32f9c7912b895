"""Workflow state: extensions, review notes, substitutions, withdrawals, sanctions,
places under a capacity cap."""
from __future__ import annotations

import datetime as dt

from sqlalchemy import JSON, CheckConstraint, ForeignKey, Index, String, UniqueConstraint
from sqlalchemy.orm import Mapped, mapped_column, relationship

from ..db_types import UTCDateTime
from ..extensions import db
from ..games.models import utcnow

__all__ = ["Extension", "ExtensionRequest", "ReviewNote", "Substitution", "Withdrawal", "Sanction", "Place"]


class ExtensionRequest(db.Model):
    """A leader's request for more time after a stage closed (issue 25, 3): the organisers
    see it in their queue and answer it (an extension granted, or declined with a reason)."""

    __tablename__ = "extension_request"
    __table_args__ = (CheckConstraint("status IN ('pending', 'granted', 'declined')", name="status"),)
    id: Mapped[int] = mapped_column(primary_key=True)
    delegation_id: Mapped[int] = mapped_column(ForeignKey("delegation.id", ondelete="CASCADE"), index=True)
    stage: Mapped[str] = mapped_column(String(20))
    reason: Mapped[str] = mapped_column(String(1000))
    requested_by: Mapped[str] = mapped_column(String(100))
    requested_at: Mapped[dt.datetime] = mapped_column(UTCDateTime, default=utcnow)
    status: Mapped[str] = mapped_column(String(20), default="pending")
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
        CheckConstraint("status IN ('pending', 'approved', 'rejected', 'cancelled')", name="status"),
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
    status: Mapped[str] = mapped_column(String(20), default="pending")
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
    """A delegation's entrants against the Games' cap: accepted, or wait-listed in order."""

    __tablename__ = "place"
    __table_args__ = (
        UniqueConstraint("delegation_id"),
        CheckConstraint("status IN ('accepted', 'waitlisted', 'released')", name="status"),
        Index("ix_place_games_status", "games_id", "status", "seq"),
    )
    id: Mapped[int] = mapped_column(primary_key=True)
    games_id: Mapped[int] = mapped_column(ForeignKey("games.id", ondelete="CASCADE"))
    delegation_id: Mapped[int] = mapped_column(ForeignKey("delegation.id", ondelete="CASCADE"))
    status: Mapped[str] = mapped_column(String(20))
    entrants: Mapped[int] = mapped_column(default=1)
    # Order of arrival, for first come first served and the wait list.
    seq: Mapped[int]
    requested_at: Mapped[dt.datetime] = mapped_column(UTCDateTime, default=utcnow)
