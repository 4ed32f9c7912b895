"""An event's final ranking as the organisers entered or imported it, attendance per round,
and medals won elsewhere that count in the medal table."""
from __future__ import annotations

import datetime as dt

from sqlalchemy import JSON, CheckConstraint, ForeignKey, Index, String, UniqueConstraint
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
    # Who: "p<person id>" or "e<team entry id>", one of the event's players (results/entrants.py).
    entrant_key: Mapped[str | None] = mapped_column(String(40))
    number: Mapped[int | None]  # the drawn number (序号)
    # 积分 and the tie-breaks the regulation ranks by (对手分, 中间对手分, 胜局...), as exact
    # decimal text: standings derived from them are computed exactly.
    score: Mapped[str | None] = mapped_column(String(24))
    tie_breaks: Mapped[dict | None] = mapped_column(JSON)
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


class RoundAbsence(db.Model):
    """A player absent from a round (entered, or imported from the pairing program)."""

    __tablename__ = "round_absence"
    __table_args__ = (UniqueConstraint("games_id", "event_code", "entrant_key", "round_no"),)
    id: Mapped[int] = mapped_column(primary_key=True)
    games_id: Mapped[int] = mapped_column(ForeignKey("games.id", ondelete="CASCADE"), index=True)
    event_code: Mapped[str] = mapped_column(String(40))
    entrant_key: Mapped[str] = mapped_column(String(40))
    round_no: Mapped[int]
    recorded_by: Mapped[str] = mapped_column(String(100))
    recorded_at: Mapped[dt.datetime] = mapped_column(UTCDateTime, default=utcnow)


class OutsideMedal(db.Model):
    """A medal won at another competition that the regulation counts in the medal table
    (nmsg-2009 总则 九(八)), entered by the organisers with its source."""

    __tablename__ = "outside_medal"
    __table_args__ = (CheckConstraint("medal IN ('gold', 'silver', 'bronze')", name="medal"),)
    id: Mapped[int] = mapped_column(primary_key=True)
    games_id: Mapped[int] = mapped_column(ForeignKey("games.id", ondelete="CASCADE"), index=True)
    delegation_id: Mapped[int] = mapped_column(ForeignKey("delegation.id", ondelete="CASCADE"), index=True)
    medal: Mapped[str] = mapped_column(String(10))
    athlete: Mapped[str] = mapped_column(String(200))
    event_name: Mapped[str] = mapped_column(String(200))
    source: Mapped[str] = mapped_column(String(200))
    entered_by: Mapped[str] = mapped_column(String(100))
    entered_at: Mapped[dt.datetime] = mapped_column(UTCDateTime, default=utcnow)
