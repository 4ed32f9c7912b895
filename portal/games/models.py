"""Games, their sports and events, the units that enter, and the universities list."""
from __future__ import annotations

import datetime as dt
from enum import StrEnum

from sqlalchemy import JSON, ForeignKey, String, Text, UniqueConstraint
from sqlalchemy.orm import Mapped, mapped_column, relationship

from ..append_only import append_only
from ..clock import now as portal_now
from ..db_types import UTCDateTime, status_check
from ..extensions import db

__all__ = ["Unit", "University", "Games", "GamesStatus", "Sport", "Event", "GamesVersion"]


def utcnow() -> dt.datetime:
    """Now by the portal's clock (PORTAL_CLOCK in the demo, FIXED_NOW in a test), in UTC:
    what every stored timestamp a person reads is written with (issue 39, 7)."""
    return portal_now().astimezone(dt.UTC)


def machine_utcnow() -> dt.datetime:
    """Now by the machine: security windows (throttles, authenticator codes, token and
    invitation expiry) and the liveness of workers, which no demo clock may move."""
    return dt.datetime.now(dt.UTC)


class Unit(db.Model):
    __tablename__ = "unit"
    id: Mapped[int] = mapped_column(primary_key=True)
    code: Mapped[str] = mapped_column(String(40), unique=True)
    kind: Mapped[str] = mapped_column(String(20))
    name_zh: Mapped[str] = mapped_column(String(100))
    name_en: Mapped[str] = mapped_column(String(200))
    province_code: Mapped[str | None] = mapped_column(String(2))
    city: Mapped[str | None] = mapped_column(String(50))
    governing_bodies: Mapped[list] = mapped_column(JSON, default=list)
    universities: Mapped[list] = mapped_column(JSON, default=list)


class University(db.Model):
    """The Ministry of Education's list (reference data imported from a CSV file)."""

    __tablename__ = "university"
    code: Mapped[str] = mapped_column(String(10), primary_key=True)
    name: Mapped[str] = mapped_column(String(100))
    province_code: Mapped[str] = mapped_column(String(2))
    city: Mapped[str] = mapped_column(String(50))
    governing_body: Mapped[str] = mapped_column(String(100))
    level: Mapped[str] = mapped_column(String(20))
    ownership: Mapped[str] = mapped_column(String(20))


class GamesStatus(StrEnum):
    """draft: being set up, invisible to leaders; published: open (every change after it is
    an amendment, kept in games_version)."""
    DRAFT = "draft"
    PUBLISHED = "published"


class Games(db.Model):
    __tablename__ = "games"
    __table_args__ = (status_check(GamesStatus),)
    id: Mapped[int] = mapped_column(primary_key=True)
    slug: Mapped[str] = mapped_column(String(60), unique=True)
    series: Mapped[str] = mapped_column(String(60))
    edition: Mapped[int]
    name_zh: Mapped[str] = mapped_column(String(200))
    name_en: Mapped[str] = mapped_column(String(200))
    # The validated fixture, as JSON: the rules engine's input. Deferred: nearly every
    # request finds the Games, but reads its definition from the process's cache
    # (definition_of, keyed by loaded_at), so the tens of KB are fetched only when it moved.
    definition: Mapped[dict] = mapped_column(JSON, deferred=True)
    loaded_at: Mapped[dt.datetime] = mapped_column(UTCDateTime, default=utcnow)
    status: Mapped[str] = mapped_column(String(20), default=GamesStatus.PUBLISHED, server_default="published")
    # The regulation's own text (pasted, or read from its Word or PDF file), shown to leaders
    # with each clause addressable (rules/clauses.py).
    regulation_text: Mapped[str | None] = mapped_column(Text, deferred=True)

    sports: Mapped[list[Sport]] = relationship(back_populates="games", cascade="all, delete-orphan")
    events: Mapped[list[Event]] = relationship(back_populates="games", cascade="all, delete-orphan",
                                                 order_by="Event.position")


class Sport(db.Model):
    __tablename__ = "sport"
    __table_args__ = (UniqueConstraint("games_id", "code"),)
    id: Mapped[int] = mapped_column(primary_key=True)
    games_id: Mapped[int] = mapped_column(ForeignKey("games.id", ondelete="CASCADE"))
    code: Mapped[str] = mapped_column(String(30))
    name_zh: Mapped[str] = mapped_column(String(50))
    name_en: Mapped[str] = mapped_column(String(100))
    games: Mapped[Games] = relationship(back_populates="sports")


class Event(db.Model):
    __tablename__ = "event"
    __table_args__ = (UniqueConstraint("games_id", "code"),)
    id: Mapped[int] = mapped_column(primary_key=True)
    games_id: Mapped[int] = mapped_column(ForeignKey("games.id", ondelete="CASCADE"))
    code: Mapped[str] = mapped_column(String(40))
    sport_code: Mapped[str] = mapped_column(String(30))
    name_zh: Mapped[str] = mapped_column(String(100))
    name_en: Mapped[str] = mapped_column(String(200))
    gender: Mapped[str] = mapped_column(String(1))
    kind: Mapped[str] = mapped_column(String(20))
    position: Mapped[int] = mapped_column(default=0)
    games: Mapped[Games] = relationship(back_populates="events")


@append_only
class GamesVersion(db.Model):
    """Each saved state of a Games definition: the first publication, then each amendment
    (补充通知) with its number and reason. Append-only: a version is never changed."""

    __tablename__ = "games_version"
    __table_args__ = (UniqueConstraint("games_id", "number"),)
    id: Mapped[int] = mapped_column(primary_key=True)
    games_id: Mapped[int] = mapped_column(ForeignKey("games.id", ondelete="CASCADE"), index=True)
    number: Mapped[int]
    definition: Mapped[dict] = mapped_column(JSON)
    amendment: Mapped[str | None] = mapped_column(String(100))  # "补充通知（一）"
    reason: Mapped[str | None] = mapped_column(String(1000))
    created_at: Mapped[dt.datetime] = mapped_column(UTCDateTime, default=utcnow)
    created_by: Mapped[str] = mapped_column(String(100))
