"""Who arrived at the desk, when (the portal's clock), with which documents shown."""
from __future__ import annotations

import datetime as dt

from sqlalchemy import JSON, ForeignKey, String, UniqueConstraint
from sqlalchemy.orm import Mapped, mapped_column

from ..db_types import UTCDateTime
from ..extensions import db


class CheckIn(db.Model):
    __tablename__ = "check_in"
    __table_args__ = (UniqueConstraint("delegation_id", "person_ref", name="uq_check_in_person"),)
    id: Mapped[int] = mapped_column(primary_key=True)
    delegation_id: Mapped[int] = mapped_column(ForeignKey("delegation.id", ondelete="CASCADE"), index=True)
    person_ref: Mapped[str] = mapped_column(String(40))
    person_name: Mapped[str] = mapped_column(String(100))
    documents: Mapped[list] = mapped_column(JSON, default=list)
    arrived_at: Mapped[dt.datetime] = mapped_column(UTCDateTime)
    checked_by: Mapped[str] = mapped_column(String(100))


class RollCall(db.Model):
    """A delegation at the leaders' meeting: who came for it, and the names it confirmed
    there (a snapshot: what was confirmed stays readable whatever changes later)."""
    __tablename__ = "roll_call"
    __table_args__ = (UniqueConstraint("delegation_id", name="uq_roll_call_delegation"),)
    id: Mapped[int] = mapped_column(primary_key=True)
    delegation_id: Mapped[int] = mapped_column(ForeignKey("delegation.id", ondelete="CASCADE"))
    attended_by: Mapped[str | None] = mapped_column(String(100))
    names: Mapped[list] = mapped_column(JSON, default=list)
    confirmed_at: Mapped[dt.datetime | None] = mapped_column(UTCDateTime)
    confirmed_by: Mapped[str | None] = mapped_column(String(100))
