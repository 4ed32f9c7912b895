"""API tokens: per account, shown once, stored as their SHA-256, with scopes and an expiry,
revocable; every use is audited."""
from __future__ import annotations

import datetime as dt

from sqlalchemy import ForeignKey, String
from sqlalchemy.orm import Mapped, mapped_column

from ..db_types import UTCDateTime
from ..extensions import db
from ..games.models import utcnow

__all__ = ["ApiToken"]


class ApiToken(db.Model):
    __tablename__ = "api_token"
    id: Mapped[int] = mapped_column(primary_key=True)
    user_id: Mapped[int] = mapped_column(ForeignKey("user_account.id", ondelete="CASCADE"), index=True)
    name: Mapped[str] = mapped_column(String(100))
    token_hash: Mapped[str] = mapped_column(String(64), unique=True)
    prefix: Mapped[str] = mapped_column(String(12))  # the first characters, to tell tokens apart
    scopes: Mapped[str] = mapped_column(String(40))  # "read" or "read write"
    created_at: Mapped[dt.datetime] = mapped_column(UTCDateTime, default=utcnow)
    expires_at: Mapped[dt.datetime] = mapped_column(UTCDateTime)
    revoked_at: Mapped[dt.datetime | None] = mapped_column(UTCDateTime)
    # Why it ended when its owner did not revoke it: "password", "two_factor_on",
    # "two_factor_reset" (a token is only as trustworthy as the login that made it).
    revoked_reason: Mapped[str | None] = mapped_column(String(40))
    last_used_at: Mapped[dt.datetime | None] = mapped_column(UTCDateTime)

    def allows(self, scope: str) -> bool:
        return scope in self.scopes.split()
