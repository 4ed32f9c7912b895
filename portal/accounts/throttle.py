"""Wrong passwords slow the guesser down, not the account's owner (issue 19, 2).

Failures are counted per account name and per client: the client is the browser's device
cookie when it carries one for that account (set at each successful login, signed), else
its address. Five failures from one client make that client wait, 1 minute and then twice
as long after each further failure (at most MAX_DELAY). A stranger's failures therefore
never hold up the owner on a device he has logged in from before; fifty failures from
clients without that cookie in an hour (a guess spread over many addresses) slow down all
of them, the owner's known devices still excepted. Names are counted the same whether or
not an account has them, so the answer tells nobody which names exist; they are stored
only as a keyed hash (a password typed into the name field is never kept)."""
from __future__ import annotations

import datetime as dt
import hashlib
import hmac

from flask import current_app
from itsdangerous import BadSignature, URLSafeTimedSerializer
from sqlalchemy import Index, String, UniqueConstraint, delete, select, update
from sqlalchemy.orm import Mapped, mapped_column

from ..db_types import UTCDateTime
from ..extensions import db

FREE_FAILURES = 5           # per client, before it has to wait
FIRST_DELAY = dt.timedelta(minutes=1)
MAX_DELAY = dt.timedelta(minutes=30)
UNTRUSTED_CEILING = 50      # failures from all unknown clients, per account name and hour
WINDOW = dt.timedelta(hours=1)
DEVICE_COOKIE = "portal_device"
DEVICE_DAYS = 180
ANY_UNTRUSTED = "untrusted"


class LoginThrottle(db.Model):
    """Failures of one client (or of all unknown clients: scope "untrusted") at one name."""
    __tablename__ = "login_throttle"
    __table_args__ = (UniqueConstraint("name_key", "scope"), Index("ix_login_throttle_updated", "updated_at"))
    id: Mapped[int] = mapped_column(primary_key=True)
    name_key: Mapped[str] = mapped_column(String(64))
    scope: Mapped[str] = mapped_column(String(100))
    failures: Mapped[int] = mapped_column(default=0)
    blocked_until: Mapped[dt.datetime | None] = mapped_column(UTCDateTime)
    updated_at: Mapped[dt.datetime] = mapped_column(UTCDateTime)


def name_key(username: str) -> str:
    secret = current_app.config["SECRET_KEY"].encode()
    return hmac.new(secret, (username or "").strip().lower().encode(), hashlib.sha256).hexdigest()


def _devices() -> URLSafeTimedSerializer:
    return URLSafeTimedSerializer(current_app.config["SECRET_KEY"], salt="login-device")


def device_cookie_for(user_id: int, nonce: str) -> str:
    return _devices().dumps([user_id, nonce])


def device_of(cookie: str | None, user_id: int | None) -> str | None:
    """The device nonce when the cookie was issued to this account, else None."""
    if not cookie or user_id is None:
        return None
    try:
        owner, nonce = _devices().loads(cookie, max_age=DEVICE_DAYS * 86400)
    except (BadSignature, ValueError, TypeError):
        return None
    return str(nonce) if owner == user_id else None


def client_scope(address: str | None, device: str | None) -> str:
    return f"device:{device}" if device else f"ip:{address or '?'}"


def _as_utc(value: dt.datetime | None) -> dt.datetime | None:
    if value is not None and value.tzinfo is None:
        value = value.replace(tzinfo=dt.UTC)
    return value


def blocked_until(key: str, scope: str, at: dt.datetime) -> dt.datetime | None:
    """When this client may try this name again, if it must wait."""
    scopes = [scope] if scope.startswith(("device:", "second-factor")) else [scope, ANY_UNTRUSTED]
    rows = db.session.execute(select(LoginThrottle.scope, LoginThrottle.blocked_until).where(
        LoginThrottle.name_key == key, LoginThrottle.scope.in_(scopes))).all()
    until = [u for _s, u in ((s, _as_utc(b)) for s, b in rows) if u is not None and u > at]
    return max(until) if until else None


def _delay(failures: int, free: int) -> dt.timedelta | None:
    if failures < free:
        return None
    return min(FIRST_DELAY * 2 ** (failures - free), MAX_DELAY)


def count_failure(key: str, scope: str, at: dt.datetime) -> tuple[dt.datetime | None, bool]:
    """Count one failure (the caller's write transaction); returns (blocked until, whether
    this failure started the client's first wait)."""
    until, started = _bump(key, scope, at, FREE_FAILURES)
    if not scope.startswith("device:"):
        any_until, _ = _bump(key, ANY_UNTRUSTED, at, UNTRUSTED_CEILING)
        if any_until and (until is None or any_until > until):
            until = any_until
    return until, started


def count_shared_failure(key: str, scope: str, at: dt.datetime, free: int) -> dt.datetime | None:
    """Count one failure in a scope every client shares (the second factor's codes), which
    waits after `free` of them in an hour; until when, if it must wait now."""
    until, _started = _bump(key, scope, at, free)
    return until


def _bump(key: str, scope: str, at: dt.datetime, free: int) -> tuple[dt.datetime | None, bool]:
    t = LoginThrottle.__table__
    _insert_if_missing(key, scope, at)  # two failures at once both find the row afterwards
    row = db.session.execute(select(t.c.id, t.c.failures, t.c.updated_at).where(
        t.c.name_key == key, t.c.scope == scope)).first()
    failures = row.failures
    if _as_utc(row.updated_at) < at - WINDOW:
        failures = 0  # an hour of quiet: the count starts again
    failures += 1
    delay = _delay(failures, free)
    until = at + delay if delay else None
    db.session.execute(update(t).where(t.c.id == row.id).values(failures=failures, blocked_until=until, updated_at=at))
    return until, failures == free


def _insert_if_missing(key: str, scope: str, at: dt.datetime) -> None:
    values = {"name_key": key, "scope": scope, "failures": 0, "updated_at": at}
    if db.session.get_bind().dialect.name == "postgresql":
        from sqlalchemy.dialects.postgresql import insert
    else:
        from sqlalchemy.dialects.sqlite import insert
    db.session.execute(insert(LoginThrottle.__table__).values(**values)
                       .on_conflict_do_nothing(index_elements=["name_key", "scope"]))


def clear(key: str, scope: str | None = None) -> None:
    """After a success (that client only), or an unlock (every client of the name)."""
    q = delete(LoginThrottle).where(LoginThrottle.name_key == key)
    if scope is not None:
        q = q.where(LoginThrottle.scope == scope)
    db.session.execute(q)


def blocked_names(keys: list[str], at: dt.datetime) -> dict[str, dt.datetime]:
    """name key -> the latest wait in force, for the accounts pages."""
    out: dict[str, dt.datetime] = {}
    if not keys:
        return out
    for key, until in db.session.execute(select(LoginThrottle.name_key, LoginThrottle.blocked_until).where(
            LoginThrottle.name_key.in_(keys), LoginThrottle.blocked_until.is_not(None))):
        until = _as_utc(until)
        if until > at and (key not in out or until > out[key]):
            out[key] = until
    return out


def forget_old(at: dt.datetime) -> None:
    db.session.execute(delete(LoginThrottle).where(LoginThrottle.updated_at < at - dt.timedelta(days=1)))


def minutes_until(until: dt.datetime) -> int:
    """How long a client waits, in whole minutes (at least one): a wait is told as a
    length, since it runs on the machine's clock, not the portal's (a demo's stands in 2019)."""
    return max(1, -(-int((until - dt.datetime.now(dt.UTC)).total_seconds()) // 60))
