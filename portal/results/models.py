"""An event's final places as the organisers entered or imported them."""
from __future__ import annotations

import datetime as dt

from sqlalchemy import JSON, CheckConstraint, ForeignKey, Index, String
from sqlalchemy.orm import Mapped, mapped_column

from ..db_types import UTCDateTime
from ..extensions import db
from ..games.models import utcnow


class EventResult(db.Model):
    __tablename__ = "event_result"
    __table_args__ = (Index("ix_event_result_games_event", "games_id", "event_code"),
                      CheckConstraint("place >= 1", name="place_positive"))
    id: Mapped[int] = mapped_column(primary_key=True)
    games_id: Mapped[int] = mapped_column(ForeignKey("games.id", ondelete="CASCADE"), index=True)
    event_code: Mapped[str] = mapped_column(String(40))
    place: Mapped[int]
    delegation_id: Mapped[int] = mapped_column(ForeignKey("delegation.id", ondelete="CASCADE"), index=True)
    label: Mapped[str] = mapped_column(String(200), default="")  # the player's or the team's name
    entrants: Mapped[int]  # people, pairs or teams that played the event
    entered_by: Mapped[str] = mapped_column(String(100))
    entered_at: Mapped[dt.datetime] = mapped_column(UTCDateTime, default=utcnow)


class Draw(db.Model):
    """A draw of player numbers for an event; a redraw supersedes it and needs a reason."""

    __tablename__ = "draw"
    __table_args__ = (Index("ix_draw_games_event", "games_id", "event_code"),)
    id: Mapped[int] = mapped_column(primary_key=True)
    games_id: Mapped[int] = mapped_column(ForeignKey("games.id", ondelete="CASCADE"), index=True)
    event_code: Mapped[str] = mapped_column(String(40))
    seed: Mapped[str] = mapped_column(String(64))
    # [[number, person_id, name, unit name], ...] as drawn: the published list.
    numbers: Mapped[list] = mapped_column(JSON, default=list)
    reason: Mapped[str | None] = mapped_column(String(500))
    drawn_by: Mapped[str] = mapped_column(String(100))
    drawn_at: Mapped[dt.datetime] = mapped_column(UTCDateTime, default=utcnow)
    superseded: Mapped[bool] = mapped_column(default=False)
