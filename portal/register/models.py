"""A player across Games: who he is (by identity number), the grades and titles he holds,
his ratings as each list published them, his points and his qualifications. Grades and
qualifications are never edited in place: a correction withdraws the row with its reason
and records the right one (both audited)."""
from __future__ import annotations

import datetime as dt
from decimal import Decimal

from sqlalchemy import JSON, CheckConstraint, ForeignKey, Index, Numeric, String, Text, UniqueConstraint
from sqlalchemy.orm import Mapped, mapped_column

from ..db_types import UTCDateTime
from ..extensions import db
from ..games.models import utcnow


class RegisteredPlayer(db.Model):
    __tablename__ = "register_player"
    id: Mapped[int] = mapped_column(primary_key=True)
    # Normalised as the delegations store it (idnumber.normalise): the one key across Games.
    id_number: Mapped[str] = mapped_column(String(40), unique=True)
    name: Mapped[str] = mapped_column(String(100))
    gender: Mapped[str | None] = mapped_column(String(1))
    birth_date: Mapped[dt.date | None]
    # The codes of the units he has represented (a result, a forfeit, the organisers' word, a
    # rating list's 单位): the register tells a delegation only of its own unit's players, so
    # typing a stranger's number and name learns nothing of him.
    units: Mapped[list | None] = mapped_column(JSON)
    created_at: Mapped[dt.datetime] = mapped_column(UTCDateTime, default=utcnow)

    def represented(self, unit: str | None) -> None:
        if unit and unit not in (self.units or []):
            self.units = [*(self.units or []), unit]


class PlayerGrade(db.Model):
    """A grade or title held: of a system (grades.py), awarded on a day, by a body, from a source."""
    __tablename__ = "register_grade"
    __table_args__ = (Index("ix_register_grade_games_event", "games_slug", "event_code"),)
    id: Mapped[int] = mapped_column(primary_key=True)
    player_id: Mapped[int] = mapped_column(ForeignKey("register_player.id", ondelete="CASCADE"), index=True)
    system: Mapped[str] = mapped_column(String(40))
    grade: Mapped[str] = mapped_column(String(40))
    awarded_on: Mapped[dt.date | None]
    awarded_by: Mapped[str | None] = mapped_column(String(200))  # the federation, as the certificate names it
    source: Mapped[str] = mapped_column(String(300))  # in words: "2026年全国围棋段位赛 第3名", "组委会更正"
    games_slug: Mapped[str | None] = mapped_column(String(80))  # earned at these Games (replaced on re-entry)
    event_code: Mapped[str | None] = mapped_column(String(40))
    recorded_at: Mapped[dt.datetime] = mapped_column(UTCDateTime, default=utcnow)
    recorded_by: Mapped[str] = mapped_column(String(200))
    withdrawn_at: Mapped[dt.datetime | None] = mapped_column(UTCDateTime)
    withdrawn_reason: Mapped[str | None] = mapped_column(Text)


class RatingList(db.Model):
    """One edition of a rating list, as the federation published it."""
    __tablename__ = "register_rating_list"
    __table_args__ = (UniqueConstraint("list_code", "published_on"),)
    id: Mapped[int] = mapped_column(primary_key=True)
    list_code: Mapped[str] = mapped_column(String(40))
    published_on: Mapped[dt.date]
    filename: Mapped[str] = mapped_column(String(200))
    rows: Mapped[int] = mapped_column(default=0)
    imported_at: Mapped[dt.datetime] = mapped_column(UTCDateTime, default=utcnow)
    imported_by: Mapped[str] = mapped_column(String(200))


class PlayerRating(db.Model):
    __tablename__ = "register_rating"
    __table_args__ = (UniqueConstraint("list_id", "player_id"), CheckConstraint("value >= 0", name="value_not_negative"))
    id: Mapped[int] = mapped_column(primary_key=True)
    list_id: Mapped[int] = mapped_column(ForeignKey("register_rating_list.id", ondelete="CASCADE"), index=True)
    player_id: Mapped[int] = mapped_column(ForeignKey("register_player.id", ondelete="CASCADE"), index=True)
    value: Mapped[int]


class NamedRating(db.Model):
    """A row of a rating list that gives no identity number, as federations publish them
    (姓名, 单位, 等级分): read for a delegation's person of that name and unit, when the
    edition holds one such row only (two namesakes of one unit are read for neither)."""
    __tablename__ = "register_rating_named"
    __table_args__ = (Index("ix_register_rating_named_name_unit", "name", "unit_code"),
                      CheckConstraint("value >= 0", name="value_not_negative"))
    id: Mapped[int] = mapped_column(primary_key=True)
    list_id: Mapped[int] = mapped_column(ForeignKey("register_rating_list.id", ondelete="CASCADE"), index=True)
    name: Mapped[str] = mapped_column(String(100))  # without spaces, as career._same_name compares
    unit_code: Mapped[str] = mapped_column(String(40))
    gender: Mapped[str | None] = mapped_column(String(1))
    value: Mapped[int]


class PlayerPoints(db.Model):
    """Points a federation credits for a place (大师分, 等级积分), earned at a Games."""
    __tablename__ = "register_points"
    __table_args__ = (Index("ix_register_points_games_event", "games_slug", "event_code"),)
    id: Mapped[int] = mapped_column(primary_key=True)
    player_id: Mapped[int] = mapped_column(ForeignKey("register_player.id", ondelete="CASCADE"), index=True)
    points: Mapped[str] = mapped_column(String(40))  # the kind's code
    points_name: Mapped[str] = mapped_column(String(100))
    amount: Mapped[Decimal] = mapped_column(Numeric(10, 2))
    games_slug: Mapped[str] = mapped_column(String(80))
    event_code: Mapped[str] = mapped_column(String(40))
    place: Mapped[int]
    recorded_at: Mapped[dt.datetime] = mapped_column(UTCDateTime, default=utcnow)


class PlayerPlace(db.Model):
    """A player's place in an event of a Games, as its results were stored: what a rule
    barring earlier placers reads ("曾获得本赛事前八名者不得参加业余组"). The names are
    kept as the results named them, so a page never needs the earlier Games' definition."""
    __tablename__ = "register_place"
    __table_args__ = (Index("ix_register_place_games_event", "games_slug", "event_code"),)
    id: Mapped[int] = mapped_column(primary_key=True)
    player_id: Mapped[int] = mapped_column(ForeignKey("register_player.id", ondelete="CASCADE"), index=True)
    games_slug: Mapped[str] = mapped_column(String(80))
    series: Mapped[str] = mapped_column(String(60))
    edition: Mapped[int]
    event_code: Mapped[str] = mapped_column(String(40))
    place: Mapped[int]
    games_name_zh: Mapped[str] = mapped_column(String(200))
    games_name_en: Mapped[str] = mapped_column(String(200))
    event_name_zh: Mapped[str] = mapped_column(String(200))
    event_name_en: Mapped[str] = mapped_column(String(200))
    recorded_at: Mapped[dt.datetime] = mapped_column(UTCDateTime, default=utcnow)


class Qualification(db.Model):
    """A player qualified for a Games (or any Games of a series) by a place elsewhere, or
    put on its list by its organisers."""
    __tablename__ = "register_qualification"
    __table_args__ = (Index("ix_register_qualification_target", "target"),
                      Index("ix_register_qualification_games_event", "from_games", "event_code"))
    id: Mapped[int] = mapped_column(primary_key=True)
    player_id: Mapped[int] = mapped_column(ForeignKey("register_player.id", ondelete="CASCADE"), index=True)
    target: Mapped[str] = mapped_column(String(80))  # the slug or series qualified for
    from_games: Mapped[str] = mapped_column(String(80))  # the qualifier's slug
    from_series: Mapped[str] = mapped_column(String(80))
    event_code: Mapped[str | None] = mapped_column(String(40))
    place: Mapped[int | None]
    recorded_at: Mapped[dt.datetime] = mapped_column(UTCDateTime, default=utcnow)
    recorded_by: Mapped[str] = mapped_column(String(200))
    withdrawn_at: Mapped[dt.datetime | None] = mapped_column(UTCDateTime)
    withdrawn_reason: Mapped[str | None] = mapped_column(Text)


class RegisterRevision(db.Model):
    """One row counting every change to the register: judgements remembered across nodes
    name it, so that a grade recorded anywhere is seen by the next check everywhere."""
    __tablename__ = "register_revision"
    id: Mapped[int] = mapped_column(primary_key=True)
    revision: Mapped[int] = mapped_column(default=0)


class PlayerForfeit(db.Model):
    """A round a player forfeited (recorded absent) at a Games of a series: what the
    series' ladder of sanctions counts."""
    __tablename__ = "register_forfeit"
    __table_args__ = (Index("ix_register_forfeit_games_event", "games_slug", "event_code"),
                      Index("ix_register_forfeit_player_series", "player_id", "series"))
    id: Mapped[int] = mapped_column(primary_key=True)
    player_id: Mapped[int] = mapped_column(ForeignKey("register_player.id", ondelete="CASCADE"))
    series: Mapped[str] = mapped_column(String(80))
    edition: Mapped[int]
    games_slug: Mapped[str] = mapped_column(String(80))
    event_code: Mapped[str] = mapped_column(String(40))
    round_no: Mapped[int]
    recorded_at: Mapped[dt.datetime] = mapped_column(UTCDateTime, default=utcnow)


class PlayerSanction(db.Model):
    """What a player's forfeits cost him: a warning, or barred from an edition of the series."""
    __tablename__ = "register_sanction"
    __table_args__ = (Index("ix_register_sanction_series_edition", "series", "edition"),
                      CheckConstraint("kind IN ('warning', 'barred')", name="kind"))
    id: Mapped[int] = mapped_column(primary_key=True)
    player_id: Mapped[int] = mapped_column(ForeignKey("register_player.id", ondelete="CASCADE"), index=True)
    series: Mapped[str] = mapped_column(String(80))
    edition: Mapped[int]  # barred: the edition he may not enter; warning: the edition it was given at
    kind: Mapped[str] = mapped_column(String(20))
    source_games: Mapped[str] = mapped_column(String(80))
    forfeits: Mapped[int]  # the count that reached the step
    clause: Mapped[str | None] = mapped_column(String(60))
    created_at: Mapped[dt.datetime] = mapped_column(UTCDateTime, default=utcnow)
    lifted_at: Mapped[dt.datetime | None] = mapped_column(UTCDateTime)
