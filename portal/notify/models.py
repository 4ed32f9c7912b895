"""The outbox: one row per message to one address, written with the change it tells of."""
from __future__ import annotations

import datetime as dt
from enum import StrEnum

from sqlalchemy import ForeignKey, Index, String, Text
from sqlalchemy.orm import Mapped, mapped_column

from ..db_types import UTCDateTime, status_check
from ..extensions import db
from ..games.models import utcnow

__all__ = ["OutboxMessage", "OutboxStatus", "Webhook"]


class OutboxStatus(StrEnum):
    """pending -> sending -> sent | (pending again, later) | failed."""
    PENDING = "pending"
    SENDING = "sending"
    SENT = "sent"
    FAILED = "failed"


class OutboxMessage(db.Model):
    __tablename__ = "outbox_message"
    __table_args__ = (Index("ix_outbox_due", "status", "next_attempt_at"),
                      status_check(OutboxStatus))
    id: Mapped[int] = mapped_column(primary_key=True)
    kind: Mapped[str] = mapped_column(String(40))  # submitted, returned, approved, ...
    # The same message is never queued twice (a reminder a scheduler runs twice).
    dedupe_key: Mapped[str | None] = mapped_column(String(200), unique=True)
    delegation_id: Mapped[int | None] = mapped_column(ForeignKey("delegation.id", ondelete="CASCADE"), index=True)
    games_id: Mapped[int | None] = mapped_column(ForeignKey("games.id", ondelete="CASCADE"), index=True)
    to_address: Mapped[str] = mapped_column(String(500))  # an e-mail address, or a webhook's URL
    to_name: Mapped[str] = mapped_column(String(100), default="")
    lang: Mapped[str] = mapped_column(String(5), default="zh")
    subject: Mapped[str] = mapped_column(String(300))
    body: Mapped[str] = mapped_column(Text)  # plain text, the recipient's language
    status: Mapped[str] = mapped_column(String(20), default=OutboxStatus.PENDING)
    attempts: Mapped[int] = mapped_column(default=0)
    next_attempt_at: Mapped[dt.datetime] = mapped_column(UTCDateTime, default=utcnow)
    last_error: Mapped[str | None] = mapped_column(String(500))
    created_at: Mapped[dt.datetime] = mapped_column(UTCDateTime, default=utcnow)
    sent_at: Mapped[dt.datetime | None] = mapped_column(UTCDateTime)


class Webhook(db.Model):
    """An organiser's URL told of each submission, approval, substitution decided and payment
    matched in his Games: a signed POST (HMAC-SHA256 of the body with the secret), sent from
    the outbox with its retries."""

    __tablename__ = "webhook"
    id: Mapped[int] = mapped_column(primary_key=True)
    games_id: Mapped[int] = mapped_column(ForeignKey("games.id", ondelete="CASCADE"), index=True)
    url: Mapped[str] = mapped_column(String(500))
    secret: Mapped[str] = mapped_column(String(64))
    active: Mapped[bool] = mapped_column(default=True)
    created_by: Mapped[str] = mapped_column(String(100))
    created_at: Mapped[dt.datetime] = mapped_column(UTCDateTime, default=utcnow)
