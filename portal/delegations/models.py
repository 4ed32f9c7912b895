"""A unit's delegation to one Games: people, declarations, entries with team lineups,
officials, delegation staff and companions."""
from __future__ import annotations

import datetime as dt
import secrets
from enum import StrEnum

from sqlalchemy import JSON, CheckConstraint, ForeignKey, Index, String, UniqueConstraint, text
from sqlalchemy.orm import Mapped, mapped_column, relationship

from ..db_types import UTCDateTime
from ..extensions import db
from ..games.models import utcnow

__all__ = ["DelegationStatus", "Delegation", "DelegationSummary", "Person", "Declaration", "Entry", "EntryMember", "Official",
           "StaffMember", "Companion"]


class DelegationStatus(StrEnum):
    """Where a delegation is: draft -> submitted -> approved, or returned (with review
    notes) -> draft again; waitlisted when the Games' cap is reached at submission;
    withdrawn when the whole registration is withdrawn. Stored as its value (a check
    constraint keeps out anything else) and equal to it: `d.status == DelegationStatus.DRAFT` still holds."""
    DRAFT = "draft"
    SUBMITTED = "submitted"
    WAITLISTED = "waitlisted"
    RETURNED = "returned"
    APPROVED = "approved"
    WITHDRAWN = "withdrawn"


STATUS_CHECK = "status IN ({})".format(", ".join(f"'{s.value}'" for s in DelegationStatus))


class Delegation(db.Model):
    __tablename__ = "delegation"
    __table_args__ = (
        CheckConstraint(STATUS_CHECK, name="status"),
        # One delegation per unit per Games; clubs and individuals have no unit_code.
        Index("uq_delegation_games_unit", "games_id", "unit_code", unique=True,
              postgresql_where=text("unit_code IS NOT NULL"), sqlite_where=text("unit_code IS NOT NULL")),
        # Never reuse an id on SQLite: audit records keep pointing at their delegation.
        {"sqlite_autoincrement": True},
    )
    id: Mapped[int] = mapped_column(primary_key=True)
    games_id: Mapped[int] = mapped_column(ForeignKey("games.id", ondelete="CASCADE"))
    unit_code: Mapped[str | None] = mapped_column(String(40))
    # An open unit (club, school) or the person registering alone.
    unit_name: Mapped[str | None] = mapped_column(String(200))
    # The unit's contact for the organisers' messages, besides its leaders' own addresses.
    contact_email: Mapped[str | None] = mapped_column(String(200))
    unit_kind: Mapped[str | None] = mapped_column(String(40))
    status: Mapped[DelegationStatus] = mapped_column(String(20), default=DelegationStatus.DRAFT)
    submitted_at: Mapped[dt.datetime | None] = mapped_column(UTCDateTime)
    # When the materials arrived (paper or bulk import): what deadlines are judged by.
    received_at: Mapped[dt.datetime | None] = mapped_column(UTCDateTime)
    # When its entry first arrived: whether it came late (逾期报名) never changes with a
    # return for corrections and a second submission.
    first_received_at: Mapped[dt.datetime | None] = mapped_column(UTCDateTime)
    approved_at: Mapped[dt.datetime | None] = mapped_column(UTCDateTime)
    approved_by: Mapped[str | None] = mapped_column(String(100))
    # The code a delegation quotes on bank transfers.
    payment_reference: Mapped[str | None] = mapped_column(String(20), unique=True)
    # Optimistic lock: a form built on version n cannot overwrite version n+1.
    version: Mapped[int] = mapped_column(default=1)
    # Raised (in SQL, so concurrent writers never lose one) by every write to the delegation
    # or its rows (revision.py): what its cached document and judgement are keyed by.
    content_rev: Mapped[int] = mapped_column(default=0, server_default="0")
    # Documents of the delegation itself, not of a person (the entry form with the unit's
    # seal): the kinds on file, their files under UploadedFile with no person.
    documents: Mapped[list | None] = mapped_column(JSON)
    # The institutions (university codes, or the units players are registered with) the
    # organisers admitted into this delegation as one joint team (联队), on a joint_team rule.
    joint_with: Mapped[list | None] = mapped_column(JSON)
    # Raised only when one of its identity numbers is added, removed or changed (or it is
    # withdrawn, or comes back): all another delegation's judgement depends on here.
    numbers_rev: Mapped[int] = mapped_column(default=0, server_default="0")
    created_at: Mapped[dt.datetime] = mapped_column(UTCDateTime, default=utcnow)
    updated_at: Mapped[dt.datetime] = mapped_column(UTCDateTime, default=utcnow, onupdate=utcnow)

    games = relationship("Games")
    people: Mapped[list[Person]] = relationship(back_populates="delegation", cascade="all, delete-orphan",
                                                  order_by="Person.position")
    declarations: Mapped[list[Declaration]] = relationship(cascade="all, delete-orphan",
                                                             order_by="Declaration.position")
    entries: Mapped[list[Entry]] = relationship(cascade="all, delete-orphan", order_by="Entry.position")
    officials: Mapped[list[Official]] = relationship(cascade="all, delete-orphan", order_by="Official.position")
    staff: Mapped[list[StaffMember]] = relationship(cascade="all, delete-orphan",
                                                      order_by="StaffMember.position")
    companions: Mapped[list[Companion]] = relationship(cascade="all, delete-orphan",
                                                         order_by="Companion.position")


def new_card_serial() -> str:
    return secrets.token_urlsafe(12)


class Person(db.Model):
    __tablename__ = "person"
    __table_args__ = (
        UniqueConstraint("delegation_id", "ref"),
        CheckConstraint("gender IN ('M', 'F')", name="gender"),
        Index("ix_person_id_number", "id_number"),
    )
    id: Mapped[int] = mapped_column(primary_key=True)
    delegation_id: Mapped[int] = mapped_column(ForeignKey("delegation.id", ondelete="CASCADE"))
    ref: Mapped[str] = mapped_column(String(40))
    position: Mapped[int] = mapped_column(default=0)
    name: Mapped[str] = mapped_column(String(100))
    gender: Mapped[str | None] = mapped_column(String(1))
    birth_date: Mapped[dt.date | None]
    id_type: Mapped[str | None] = mapped_column(String(30))
    id_number: Mapped[str | None] = mapped_column(String(40))
    registration_unit: Mapped[str | None] = mapped_column(String(40))
    registration_year: Mapped[int | None]
    registration_date: Mapped[dt.date | None]  # when the registration was made, where a regulation dates it
    university_code: Mapped[str | None] = mapped_column(String(10))
    full_time: Mapped[bool | None]
    graduation_date: Mapped[dt.date | None]
    fide_rating: Mapped[int | None]
    fide_list: Mapped[dt.date | None]
    documents: Mapped[list] = mapped_column(JSON, default=list)
    club: Mapped[str | None] = mapped_column(String(200))
    has_university: Mapped[bool] = mapped_column(default=False)
    # Grades, ratings, residence, nationality, employment as the document gives them
    # (ParsedPerson.profile); what the player register knows is added when judged, not stored.
    profile: Mapped[dict | None] = mapped_column(JSON)
    # What an accreditation card is signed with: random, new whenever the row starts to
    # stand for another person (inserted, or its ID number changed), never reused; a card
    # outlives neither its person's deletion nor a ref handed to someone else.
    card_serial: Mapped[str | None] = mapped_column(String(24), default=new_card_serial)

    delegation: Mapped[Delegation] = relationship(back_populates="people")


class Declaration(db.Model):
    __tablename__ = "declaration"
    __table_args__ = (UniqueConstraint("delegation_id", "event_code"),
                      CheckConstraint("count >= 0", name="count_not_negative"))
    id: Mapped[int] = mapped_column(primary_key=True)
    delegation_id: Mapped[int] = mapped_column(ForeignKey("delegation.id", ondelete="CASCADE"))
    event_code: Mapped[str] = mapped_column(String(40))
    count: Mapped[int]
    position: Mapped[int] = mapped_column(default=0)


class Entry(db.Model):
    """An individual event's entrants, or one team of a team event."""

    __tablename__ = "entry"
    id: Mapped[int] = mapped_column(primary_key=True)
    delegation_id: Mapped[int] = mapped_column(ForeignKey("delegation.id", ondelete="CASCADE"), index=True)
    event_code: Mapped[str] = mapped_column(String(40))
    team: Mapped[str | None] = mapped_column(String(20))
    is_lineup: Mapped[bool] = mapped_column(default=False)
    position: Mapped[int] = mapped_column(default=0)
    members: Mapped[list[EntryMember]] = relationship(cascade="all, delete-orphan",
                                                        order_by="EntryMember.position")


class EntryMember(db.Model):
    __tablename__ = "entry_member"
    id: Mapped[int] = mapped_column(primary_key=True)
    entry_id: Mapped[int] = mapped_column(ForeignKey("entry.id", ondelete="CASCADE"), index=True)
    person_id: Mapped[int] = mapped_column(ForeignKey("person.id", ondelete="CASCADE"), index=True)
    board: Mapped[int | None]
    reserve: Mapped[bool] = mapped_column(default=False)
    position: Mapped[int] = mapped_column(default=0)
    person: Mapped[Person] = relationship()


class Official(db.Model):
    __tablename__ = "official"
    id: Mapped[int] = mapped_column(primary_key=True)
    delegation_id: Mapped[int] = mapped_column(ForeignKey("delegation.id", ondelete="CASCADE"), index=True)
    person_id: Mapped[int] = mapped_column(ForeignKey("person.id", ondelete="CASCADE"), index=True)
    role: Mapped[str] = mapped_column(String(20))
    sport: Mapped[str | None] = mapped_column(String(30))
    position: Mapped[int] = mapped_column(default=0)
    person: Mapped[Person] = relationship()


class StaffMember(db.Model):
    __tablename__ = "staff_member"
    id: Mapped[int] = mapped_column(primary_key=True)
    delegation_id: Mapped[int] = mapped_column(ForeignKey("delegation.id", ondelete="CASCADE"), index=True)
    person_id: Mapped[int] = mapped_column(ForeignKey("person.id", ondelete="CASCADE"), index=True)
    role: Mapped[str] = mapped_column(String(20))
    position: Mapped[int] = mapped_column(default=0)
    person: Mapped[Person] = relationship()


class Companion(db.Model):
    __tablename__ = "companion"
    id: Mapped[int] = mapped_column(primary_key=True)
    delegation_id: Mapped[int] = mapped_column(ForeignKey("delegation.id", ondelete="CASCADE"), index=True)
    person_id: Mapped[int] = mapped_column(ForeignKey("person.id", ondelete="CASCADE"), index=True)
    accompanies_id: Mapped[int | None] = mapped_column(ForeignKey("person.id", ondelete="SET NULL"), index=True)
    position: Mapped[int] = mapped_column(default=0)
    person: Mapped[Person] = relationship(foreign_keys=[person_id])
    accompanies: Mapped[Person | None] = relationship(foreign_keys=[accompanies_id])


class DelegationSummary(db.Model):
    """A delegation's judgement in figures (issue 27, 1): errors and warnings, by rule, as
    the organisers see them, under the key of everything it was judged from (summary.py).
    What the Games page, the queue and the API's list read instead of judging the Games
    again; derived data, rewritten whenever its key no longer matches."""

    __tablename__ = "delegation_summary"
    delegation_id: Mapped[int] = mapped_column(ForeignKey("delegation.id", ondelete="CASCADE"), primary_key=True)
    judged_key: Mapped[str] = mapped_column(String(64))
    errors: Mapped[int] = mapped_column(default=0)
    warnings: Mapped[int] = mapped_column(default=0)
    by_rule: Mapped[dict] = mapped_column(JSON, default=dict)  # code -> [errors, warnings]
    judged_at: Mapped[dt.datetime] = mapped_column(UTCDateTime, default=utcnow)
