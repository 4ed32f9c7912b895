"""The delegation's account: an append-only ledger (Decimal, CNY), bank statement lines,
room inventory and requests."""
from __future__ import annotations

import datetime as dt
from decimal import Decimal
from enum import StrEnum

from sqlalchemy import JSON, CheckConstraint, ForeignKey, Index, Numeric, String, UniqueConstraint
from sqlalchemy.orm import Mapped, mapped_column, relationship

from ..append_only import append_only
from ..db_types import UTCDateTime, status_check
from ..extensions import db
from ..games.models import utcnow

__all__ = ["LedgerEntry", "BankLine", "RoomRequest", "RoomStatus"]

Money = Numeric(12, 2)
# reversal: a bank payment booked to the wrong delegation, taken back (append-only ledger).
KINDS = ("charge", "payment", "refund", "forfeit", "credit", "reversal")


@append_only
class LedgerEntry(db.Model):
    """One movement on a delegation's account. Never updated or deleted: a mistake is
    corrected by a further entry (a credit against a charge, a refund...)."""

    __tablename__ = "ledger_entry"
    __table_args__ = (
        CheckConstraint("kind IN ('charge', 'payment', 'refund', 'forfeit', 'credit', 'reversal')", name="kind"),
        CheckConstraint("amount > 0", name="amount_positive"),
        # Idempotency: the same charge or bank line is never posted twice.
        UniqueConstraint("source_key"),
        Index("ix_ledger_entry_delegation", "delegation_id", "created_at"),
    )
    id: Mapped[int] = mapped_column(primary_key=True)
    delegation_id: Mapped[int] = mapped_column(ForeignKey("delegation.id", ondelete="RESTRICT"))
    kind: Mapped[str] = mapped_column(String(10))
    fee_code: Mapped[str | None] = mapped_column(String(40))
    amount: Mapped[Decimal] = mapped_column(Money)
    quantity: Mapped[int] = mapped_column(default=1)
    unit_amount: Mapped[Decimal | None] = mapped_column(Money)
    description: Mapped[str] = mapped_column(String(300))
    source_key: Mapped[str | None] = mapped_column(String(200))
    bank_line_id: Mapped[int | None] = mapped_column(ForeignKey("bank_line.id", ondelete="RESTRICT"), index=True)
    actor: Mapped[str] = mapped_column(String(100))
    created_at: Mapped[dt.datetime] = mapped_column(UTCDateTime, default=utcnow)
    # When the money moved (China date): a bank line's booking date, or the day recorded.
    value_date: Mapped[dt.date | None]
    delegation = relationship("Delegation")


class BankLine(db.Model):
    """A credit line of an imported bank statement, matched to a delegation or not."""

    __tablename__ = "bank_line"
    __table_args__ = (UniqueConstraint("fingerprint"),)
    id: Mapped[int] = mapped_column(primary_key=True)
    games_id: Mapped[int | None] = mapped_column(ForeignKey("games.id", ondelete="SET NULL"), index=True)
    # Hash of date, amount, payer, memo and the line's occurrence: a re-import adds nothing.
    fingerprint: Mapped[str] = mapped_column(String(64))
    statement_name: Mapped[str] = mapped_column(String(200))
    row_number: Mapped[int]
    booked_on: Mapped[dt.date]
    amount: Mapped[Decimal] = mapped_column(Money)
    payer: Mapped[str] = mapped_column(String(200))
    memo: Mapped[str] = mapped_column(String(500))
    matched_delegation_id: Mapped[int | None] = mapped_column(ForeignKey("delegation.id", ondelete="SET NULL"), index=True)
    match_method: Mapped[str | None] = mapped_column(String(20))  # reference, name_amount, manual, duplicate
    bank_ref: Mapped[str | None] = mapped_column(String(80))
    # Set when the line looks like one already imported from another file (same day, payer,
    # amount and bank reference): not booked until the accountant decides.
    duplicate_of_id: Mapped[int | None] = mapped_column(ForeignKey("bank_line.id", ondelete="SET NULL"), index=True)
    imported_at: Mapped[dt.datetime] = mapped_column(UTCDateTime, default=utcnow)


class RoomStatus(StrEnum):
    ALLOCATED = "allocated"
    WAITLISTED = "waitlisted"
    CANCELLED = "cancelled"


class RoomRequest(db.Model):
    """Rooms a delegation asked for, per room type and night; allocated first come first
    served against the fixture's inventory."""

    __tablename__ = "room_request"
    __table_args__ = (
        status_check(RoomStatus),
        CheckConstraint("people > 0", name="people_positive"),
        Index("ix_room_request_type_night", "games_id", "room_type", "night"),
    )
    id: Mapped[int] = mapped_column(primary_key=True)
    games_id: Mapped[int] = mapped_column(ForeignKey("games.id", ondelete="CASCADE"))
    delegation_id: Mapped[int] = mapped_column(ForeignKey("delegation.id", ondelete="CASCADE"), index=True)
    room_type: Mapped[str] = mapped_column(String(40))
    night: Mapped[dt.date]
    rooms: Mapped[int] = mapped_column(default=1)
    people: Mapped[int] = mapped_column(default=1)
    # The people of the delegation (refs) who sleep in these rooms, where the leader names them.
    occupants: Mapped[list] = mapped_column(JSON, default=list)
    status: Mapped[str] = mapped_column(String(20))
    requested_at: Mapped[dt.datetime] = mapped_column(UTCDateTime, default=utcnow)

