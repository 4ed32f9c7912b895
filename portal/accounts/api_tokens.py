"""Making, revoking and checking API tokens. A token is "pt_" and 32 random characters,
shown once; only its SHA-256 is kept. Staff make theirs after their two-step login."""
from __future__ import annotations

import datetime as dt
import hashlib
import secrets

from sqlalchemy import select

from ..accounts.models import User
from ..api.models import ApiToken
from ..audit.services import Actor, record
from ..db_tx import transactional
from ..extensions import db
from ..games.models import machine_utcnow, utcnow
from ..outcome import Outcome, Refusal

SCOPES = {"read": "read", "write": "read write"}
MAX_DAYS = 365
PREFIX = "pt_"


def _digest(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


@transactional
def create_token(user: User, name: str, scope: str, days: int, actor: Actor) -> Outcome:
    """A new token for `user`; the outcome's details carry it, once."""
    name = (name or "").strip()[:100]
    if not name:
        raise Refusal.of_field("name", "请给令牌起个名字（用在哪个系统）", "Name the token (the system that uses it)")
    if scope not in SCOPES:
        raise Refusal.of_field("scope", "请选择权限：只读，或读写", "Choose read, or read and write")
    if not 1 <= days <= MAX_DAYS:
        raise Refusal.of_field("days", f"有效期为 1 至 {MAX_DAYS} 天", f"Valid for 1 to {MAX_DAYS} days")
    token = PREFIX + secrets.token_urlsafe(24)
    row = ApiToken(user_id=user.id, name=name, token_hash=_digest(token), prefix=token[:10], scopes=SCOPES[scope],
                   expires_at=machine_utcnow() + dt.timedelta(days=days))
    db.session.add(row)
    db.session.flush()
    record(actor, "api.token_create", "api_token", f"{name} ({row.prefix}…)",
           after={"scopes": row.scopes, "expires_at": row.expires_at.isoformat()})
    return Outcome(ok=True, details={"token": token, "id": row.id})


@transactional
def revoke_token(row: ApiToken, actor: Actor) -> Outcome:
    if row.revoked_at is None:
        row.revoked_at = utcnow()
        record(actor, "api.token_revoke", "api_token", f"{row.name} ({row.prefix}…)")
    return Outcome(ok=True)


def record_use(token: ApiToken, actor: Actor, request_line: str, at: dt.datetime) -> None:
    """Every use of a token, in the audit log, and when it was last used."""
    from ..db_tx import write_transaction
    with write_transaction():
        record(actor, "api.request", "api", request_line[:200], after={"token": token.prefix})
        db.session.get(ApiToken, token.id).last_used_at = at


def user_for(header: str | None) -> tuple[User, ApiToken] | None:
    """The account and token of an `Authorization: Bearer pt_…` header, when the token is
    good (not expired, not revoked, the account active)."""
    if not header or not header.startswith("Bearer "):
        return None
    token = header[7:].strip()
    if not token.startswith(PREFIX) or len(token) > 100:
        return None
    row = db.session.scalar(select(ApiToken).where(ApiToken.token_hash == _digest(token)))
    if row is None or row.revoked_at is not None or row.expires_at <= machine_utcnow():
        return None
    user = db.session.get(User, row.user_id)
    if user is None or not user.active:
        return None
    return user, row


def tokens_of(user: User) -> list[ApiToken]:
    return list(db.session.scalars(select(ApiToken).where(ApiToken.user_id == user.id).order_by(ApiToken.id.desc())))
