"""The audit log: append-only; who, when (UTC), from where, what, before and after."""
from __future__ import annotations

import datetime as dt

from sqlalchemy import JSON, ForeignKey, Index, String
from sqlalchemy.orm import Mapped, mapped_column

from ..append_only import append_only
from ..clock import now as portal_now
from ..db_types import UTCDateTime
from ..extensions import db

__all__ = ["AuditLog"]


@append_only
class AuditLog(db.Model):
    __tablename__ = "audit_log"
    __table_args__ = (Index("ix_audit_log_delegation", "delegation_id", "at"),)
    id: Mapped[int] = mapped_column(primary_key=True)
    # The portal's clock (the real time in production; the demo's clock in a demo).
    at: Mapped[dt.datetime] = mapped_column(UTCDateTime, default=portal_now)
    user_id: Mapped[int | None] = mapped_column(ForeignKey("user_account.id", ondelete="SET NULL"), index=True)
    actor: Mapped[str] = mapped_column(String(100))  # kept even if the account goes
    ip: Mapped[str | None] = mapped_column(String(64))
    action: Mapped[str] = mapped_column(String(60))
    object_type: Mapped[str] = mapped_column(String(40))
    object_key: Mapped[str | None] = mapped_column(String(200))
    # No foreign key: the record outlives a deleted delegation.
    delegation_id: Mapped[int | None]
    games_slug: Mapped[str | None] = mapped_column(String(60))
    before: Mapped[dict | list | None] = mapped_column(JSON)
    after: Mapped[dict | list | None] = mapped_column(JSON)
    reason: Mapped[str | None] = mapped_column(String(1000))

