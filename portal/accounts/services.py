"""Accounts: password hashing (werkzeug scrypt), invitations, demo accounts."""
from __future__ import annotations

import datetime as dt
import hashlib
import secrets

from sqlalchemy import select
from werkzeug.security import check_password_hash, generate_password_hash

from ..audit.services import Actor, record
from ..extensions import db
from ..games.models import utcnow
from .models import User

INVITATION_DAYS = 14
MIN_PASSWORD = 8


def hash_password(password: str) -> str:
    return generate_password_hash(password, method="scrypt")


def authenticate(username: str, password: str) -> User | None:
    user = db.session.scalar(select(User).where(User.username == (username or "").strip()))
    if user is None or not user.active or not user.password_hash:
        # Same work either way, so that timing does not tell which usernames exist.
        check_password_hash(hash_password("x" * 12), password or "")
        return None
    return user if check_password_hash(user.password_hash, password or "") else None


def password_problem(password: str) -> tuple[str, str] | None:
    if len(password or "") < MIN_PASSWORD:
        return (f"密码至少 {MIN_PASSWORD} 位", f"at least {MIN_PASSWORD} characters")
    if password.isdigit():
        return ("密码不能全是数字", "not digits only")
    return None


def set_password(user: User, password: str, actor: Actor) -> None:
    user.password_hash = hash_password(password)
    user.invitation_hash = None
    user.invitation_expires = None
    record(actor, "account.password", "user", user.username)
    db.session.commit()


def create_account(username: str, display_name: str, role: str, actor: Actor, *,
                   delegation=None, password: str | None = None) -> tuple[User, str | None]:
    """Create an account; without a password it gets a one-time invitation token
    (returned once, stored only as its hash)."""
    user = User(username=username.strip(), display_name=display_name.strip(), role=role,
                delegation_id=getattr(delegation, "id", None))
    token = None
    if password:
        user.password_hash = hash_password(password)
    else:
        token = secrets.token_urlsafe(24)
        user.invitation_hash = hashlib.sha256(token.encode()).hexdigest()
        user.invitation_expires = utcnow() + dt.timedelta(days=INVITATION_DAYS)
    db.session.add(user)
    db.session.flush()
    record(actor, "account.create", "user", user.username, delegation=delegation,
           after={"role": role, "display_name": display_name})
    db.session.commit()
    return user, token


def renew_invitation(user: User, actor: Actor) -> str:
    token = secrets.token_urlsafe(24)
    user.invitation_hash = hashlib.sha256(token.encode()).hexdigest()
    user.invitation_expires = utcnow() + dt.timedelta(days=INVITATION_DAYS)
    record(actor, "account.invite", "user", user.username)
    db.session.commit()
    return token


def user_for_invitation(token: str) -> User | None:
    digest = hashlib.sha256((token or "").encode()).hexdigest()
    user = db.session.scalar(select(User).where(User.invitation_hash == digest))
    if user is None or user.invitation_expires is None or user.invitation_expires < utcnow():
        return None
    return user
