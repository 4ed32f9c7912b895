"""People who log in: team leaders (bound to one delegation), organisers, accountants,
administrators."""
from __future__ import annotations

import datetime as dt

from flask_login import UserMixin
from sqlalchemy import JSON, BigInteger, ForeignKey, String, UniqueConstraint, true as sa_true
from sqlalchemy.orm import Mapped, mapped_column, relationship

from ..db_types import UTCDateTime, status_check
from ..extensions import db
from ..games.models import utcnow
from ..roles import ROLES, STAFF, Role

__all__ = ["User", "GamesStaff"]



class User(UserMixin, db.Model):
    __tablename__ = "user_account"
    __table_args__ = (status_check(ROLES, "role"),)
    id: Mapped[int] = mapped_column(primary_key=True)
    username: Mapped[str] = mapped_column(String(80), unique=True)
    display_name: Mapped[str] = mapped_column(String(100))
    role: Mapped[str] = mapped_column(String(20))
    # werkzeug scrypt hash; None until the invitation is accepted.
    password_hash: Mapped[str | None] = mapped_column(String(255))
    delegation_id: Mapped[int | None] = mapped_column(ForeignKey("delegation.id", ondelete="CASCADE"), index=True)
    active: Mapped[bool] = mapped_column(default=True)
    # One-time invitation: only its SHA-256 is stored.
    invitation_hash: Mapped[str | None] = mapped_column(String(64), unique=True)
    invitation_expires: Mapped[dt.datetime | None] = mapped_column(UTCDateTime)
    created_at: Mapped[dt.datetime] = mapped_column(UTCDateTime, default=utcnow)
    # Part of the login session's user id: raising it ends every session of the account
    # (logout, password change, an organiser disabling the account).
    session_version: Mapped[int] = mapped_column(default=1, server_default="1")
    # Staff's second factor (two_factor.py): the TOTP secret, the last time step used (a
    # code is good once), and the SHA-256 of each unused recovery code.
    totp_secret: Mapped[str | None] = mapped_column(String(64))
    totp_last_step: Mapped[int | None] = mapped_column(BigInteger)
    totp_enabled_at: Mapped[dt.datetime | None] = mapped_column(UTCDateTime)
    recovery_codes: Mapped[list | None] = mapped_column(JSON)
    # Where the portal writes to this person, and in which language (the one last chosen).
    email: Mapped[str | None] = mapped_column(String(200))
    lang: Mapped[str] = mapped_column(String(5), default="zh", server_default="zh")
    # Deadline reminders may be turned off; receipts and decisions are always sent.
    reminders: Mapped[bool] = mapped_column(default=True, server_default=sa_true())
    delegation = relationship("Delegation")

    def get_id(self) -> str:  # Flask-Login: what the session cookie carries
        return f"{self.id}:{self.session_version}"

    @property
    def is_active(self) -> bool:  # Flask-Login
        return self.active

    @property
    def is_leader(self) -> bool:
        return self.role == Role.LEADER

    @property
    def is_staff(self) -> bool:
        """Organising-committee side: an administrator, or the staff of their Games."""
        return self.role in STAFF

    @property
    def is_admin(self) -> bool:
        return self.role == Role.ADMIN


class GamesStaff(db.Model):
    """An organiser or accountant serves these Games and sees nothing of any other; an
    administrator sees every Games and gives each its staff."""

    __tablename__ = "games_staff"
    __table_args__ = (UniqueConstraint("user_id", "games_id"),)
    id: Mapped[int] = mapped_column(primary_key=True)
    user_id: Mapped[int] = mapped_column(ForeignKey("user_account.id", ondelete="CASCADE"), index=True)
    games_id: Mapped[int] = mapped_column(ForeignKey("games.id", ondelete="CASCADE"), index=True)
    granted_at: Mapped[dt.datetime] = mapped_column(UTCDateTime, default=utcnow)
    granted_by: Mapped[str] = mapped_column(String(100))
