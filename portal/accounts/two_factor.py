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
from ..roles import STAFF
from . import throttle
from .models import User
from .services import end_sessions, end_tokens

ISSUER = "智力运动会报名系统"
RECOVERY_CODES = 10
# Wrong codes per account from every client together, before all of them wait: six digits
# are a million guesses, and many addresses must not share them out (throttle.py).
CODE_CEILING = 10
ANY_CLIENT = "second-factor"


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
    # What was opened before the account had its second factor ends with it: the session
    # that enrols starts afresh (views), every other one and every API token end.
    end_sessions(user)
    ended = end_tokens(user, "two_factor_on")
    record(actor, "account.two_factor_on", "user", user.username, after={"tokens_ended": ended} if ended else None)
    return codes


@transactional
def verify(user: User, code: str, actor: Actor, at: dt.datetime) -> str | None:
    """"code" or "recovery" when the code lets him in (each used once), else None."""
    if not user.totp_secret:
        return None
    step = _step(user.totp_secret, code, at, user.totp_last_step)
    if step is not None and _use_step(user, step):
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


def _use_step(user: User, step: int) -> bool:
    """Spend the code's time step, once: of several logins sending the same code at once,
    one conditional UPDATE lets exactly one in."""
    from sqlalchemy import or_, update

    from ..extensions import db
    t = User.__table__
    used = db.session.execute(update(t).where(t.c.id == user.id, or_(t.c.totp_last_step.is_(None),
                                                                     t.c.totp_last_step < step))
                              .values(totp_last_step=step)).rowcount == 1
    if used:
        db.session.expire(user, ["totp_last_step"])
    return used


@transactional
def reset(user: User, actor: Actor) -> None:
    """The next login enrols again (a lost phone); every session and API token of the
    account ends."""
    user.totp_secret, user.totp_last_step, user.totp_enabled_at, user.recovery_codes = None, None, None, None
    end_sessions(user)
    ended = end_tokens(user, "two_factor_reset")
    record(actor, "account.two_factor_reset", "user", user.username, after={"tokens_ended": ended} if ended else None)


def attempt(user: User, code: str, ip: str | None, device: str | None, actor: Actor,
            at: dt.datetime) -> tuple[str | None, dt.datetime | None]:
    """(how he got in, None) or (None, until when this client must wait): wrong codes count
    against the client like wrong passwords (throttle.py), and against the account from
    every client together (CODE_CEILING), so six digits cannot be tried through from
    many addresses either."""
    key = throttle.name_key(user.username)
    scope = throttle.client_scope(ip, device)
    until = blocked_until(key, scope, at)
    if until is not None:
        return None, until
    how = verify(user, code, actor, at)
    if how is not None:
        with write_transaction():
            throttle.clear(key, scope)
        return how, None
    return None, count_failure(key, scope, at)


def blocked_until(key: str, scope: str, at: dt.datetime) -> dt.datetime | None:
    """When a code may be tried again from this client at this account, if it must wait."""
    waits = [u for u in (throttle.blocked_until(key, scope, at), throttle.blocked_until(key, ANY_CLIENT, at)) if u]
    return max(waits) if waits else None


def count_failure(key: str, scope: str, at: dt.datetime) -> dt.datetime | None:
    """A wrong code: counted for the client and for the account."""
    with write_transaction():
        until, _started = throttle.count_failure(key, scope, at)
        any_until = throttle.count_shared_failure(key, ANY_CLIENT, at, CODE_CEILING)
    waits = [u for u in (until, any_until) if u]
    return max(waits) if waits else None
