"""A second factor for staff (issue 19, 3): organisers, accountants and administrators read
minors' ID numbers, so a password alone does not let them in. TOTP (RFC 6238, pyotp: the
codes of any authenticator app), enrolled with a QR code at the first login, with ten
one-time recovery codes; an administrator (or `flask accounts reset-2fa`) resets it."""
from __future__ import annotations

import datetime as dt
import hashlib
import hmac
import secrets

import pyotp

from ..audit.services import Actor, record
from ..db_tx import transactional, write_transaction
from . import throttle
from .models import User
from .services import end_sessions

ISSUER = "智力运动会报名系统"
RECOVERY_CODES = 10
STAFF = ("organiser", "accountant", "admin")


def required_for(user: User, enabled: bool) -> bool:
    """Whether this login needs the second step (STAFF_TWO_FACTOR, on in production)."""
    return enabled and user.role in STAFF


def new_secret() -> str:
    return pyotp.random_base32()


def provisioning_uri(user: User, secret: str) -> str:
    return pyotp.TOTP(secret).provisioning_uri(name=user.username, issuer_name=ISSUER)


def qr_svg(uri: str) -> str:
    """The enrolment QR code as an SVG data URI (the page's CSP allows data: images)."""
    import segno
    return segno.make(uri, error="m").svg_data_uri(scale=5, border=4)


def _step(secret: str, code: str, at: dt.datetime, after: int | None) -> int | None:
    """The time step of a code valid at `at` (one step of clock drift either way) that is
    newer than `after` (a code is used once), else None."""
    code = "".join(ch for ch in (code or "") if ch.isdigit())
    if len(code) != 6:
        return None
    totp = pyotp.TOTP(secret)
    for drift in (0, -1, 1):
        t = at + dt.timedelta(seconds=30 * drift)
        step = totp.timecode(t)
        if hmac.compare_digest(totp.at(t), code) and (after is None or step > after):
            return step
    return None


def code_fits(secret: str, code: str, at: dt.datetime) -> bool:
    """For enrolment: the code the app shows now, from the secret not yet stored."""
    return _step(secret, code, at, None) is not None


def _digest(code: str) -> str:
    return hashlib.sha256(code.strip().lower().replace("-", "").replace(" ", "").encode()).hexdigest()


def _recovery_codes() -> list[str]:
    alphabet = "abcdefghjkmnpqrstuvwxyz23456789"  # no 0/o, 1/l/i to misread
    return ["-".join("".join(secrets.choice(alphabet) for _ in range(4)) for _ in range(2))
            for _ in range(RECOVERY_CODES)]


@transactional
def enable(user: User, secret: str, code: str, actor: Actor, at: dt.datetime) -> list[str] | None:
    """Store the secret once the app's first code fits; returns the recovery codes (shown
    once, stored hashed), or None when the code does not fit."""
    step = _step(secret, code, at, None)
    if step is None:
        return None
    codes = _recovery_codes()
    user.totp_secret, user.totp_last_step, user.totp_enabled_at = secret, step, at
    user.recovery_codes = [_digest(c) for c in codes]
    record(actor, "account.two_factor_on", "user", user.username)
    return codes


@transactional
def verify(user: User, code: str, actor: Actor, at: dt.datetime) -> str | None:
    """"code" or "recovery" when the code lets him in (each used once), else None."""
    if not user.totp_secret:
        return None
    step = _step(user.totp_secret, code, at, user.totp_last_step)
    if step is not None:
        user.totp_last_step = step
        return "code"
    digest = _digest(code)
    remaining = list(user.recovery_codes or [])
    for stored in remaining:
        if hmac.compare_digest(stored, digest):
            remaining.remove(stored)
            user.recovery_codes = remaining
            record(actor, "account.recovery_code", "user", user.username, after={"left": len(remaining)})
            return "recovery"
    return None


@transactional
def reset(user: User, actor: Actor) -> None:
    """The next login enrols again (a lost phone); every session of the account ends."""
    user.totp_secret, user.totp_last_step, user.totp_enabled_at, user.recovery_codes = None, None, None, None
    end_sessions(user)
    record(actor, "account.two_factor_reset", "user", user.username)


def attempt(user: User, code: str, ip: str | None, device: str | None, actor: Actor,
            at: dt.datetime) -> tuple[str | None, dt.datetime | None]:
    """(how he got in, None) or (None, until when this client must wait): wrong codes count
    against the client like wrong passwords (throttle.py), so six digits cannot be tried
    through."""
    key = throttle.name_key(user.username)
    scope = throttle.client_scope(ip, device)
    until = throttle.blocked_until(key, scope, at)
    if until is not None:
        return None, until
    how = verify(user, code, actor, at)
    if how is not None:
        with write_transaction():
            throttle.clear(key, scope)
        return how, None
    with write_transaction():
        until, _started = throttle.count_failure(key, scope, at)
    return None, until
