"""Accounts: password hashing (werkzeug scrypt), invitations, demo accounts."""
from __future__ import annotations

import datetime as dt
import hashlib
import secrets
from collections.abc import Iterable
from dataclasses import dataclass

from flask import current_app, has_app_context
from sqlalchemy import select
from werkzeug.security import check_password_hash, generate_password_hash

from ..audit.services import Actor, record
from ..db_tx import lock_row, transactional, write_transaction
from ..delegations.models import Delegation
from ..delegations.saving import new_delegation
from ..extensions import db
from ..games.models import Games, machine_utcnow, utcnow
from ..games.services import definition_of
from ..header_text import CONTROL_PROBLEM, address_problem, has_control
from ..outcome import Outcome, Refusal
from ..roles import SCOPED_STAFF, STAFF
from . import throttle
from .models import GamesStaff, User
from .passwords import password_problem

INVITATION_DAYS = 14


PASSWORD_HASH = "scrypt"  # werkzeug's default parameters (N=2**15)


def _hash_method() -> str:
    """scrypt; the suite's app config alone names cheaper parameters (PASSWORD_HASH_METHOD),
    as its hundreds of logins are not what it tests. No setting from the environment."""
    return current_app.config.get("PASSWORD_HASH_METHOD", PASSWORD_HASH) if has_app_context() else PASSWORD_HASH


def hash_password(password: str) -> str:
    return generate_password_hash(password, method=_hash_method())


_dummy_hashes: dict[str, str] = {}


def _dummy_hash() -> str:
    """A hash of nothing, by the method real ones use: an unknown name costs the same."""
    method = _hash_method()
    if method not in _dummy_hashes:
        _dummy_hashes[method] = generate_password_hash("x" * 12, method=method)
    return _dummy_hashes[method]


def authenticate(username: str, password: str) -> User | None:
    user = db.session.scalar(select(User).where(User.username == (username or "").strip()))
    if user is None or not user.active or not user.password_hash:
        # Same work either way, so that timing does not tell which usernames exist.
        check_password_hash(_dummy_hash(), password or "")
        return None
    return user if check_password_hash(user.password_hash, password or "") else None


@dataclass(frozen=True)
class LoginResult:
    user: User | None = None
    locked_until: dt.datetime | None = None  # this client must wait until then
    device: str | None = None  # after a success: the device nonce for the browser's cookie


def attempt_login(username: str, password: str, ip: str | None, at: dt.datetime | None = None,
                  device_cookie: str | None = None) -> LoginResult:
    """Check a login. Failures slow down the client that makes them (throttle.py), by
    device cookie or address, the same for names that exist and names that do not; a
    client that must wait is refused even with the right password. Security time is real
    time, not the portal's (demo) clock."""
    at = at or machine_utcnow()
    key = throttle.name_key(username)
    user = db.session.scalar(select(User).where(User.username == (username or "").strip()))
    device = throttle.device_of(device_cookie, user.id if user is not None else None)
    scope = throttle.client_scope(ip, device)
    until = throttle.blocked_until(key, scope, at)
    if until is not None:
        return LoginResult(locked_until=until)
    found = authenticate(username, password)
    if found is not None:
        with write_transaction():
            throttle.clear(key, scope)
        return LoginResult(user=db.session.get(User, found.id), device=device or secrets.token_urlsafe(12))
    with write_transaction():
        until, started = throttle.count_failure(key, scope, at)
        if started and user is not None:
            record(Actor("系统", ip=ip), "account.locked", "user", user.username,
                   delegation=user.delegation, after={"locked_until": until.isoformat() if until else None,
                                                      "client": "known device" if device else (ip or "")},
                   reason=f"{throttle.FREE_FAILURES} failed logins")
        if started:
            _tell_locked(user, username, until, known_device=device is not None, at=at)
    return LoginResult(locked_until=until)


def _tell_locked(user: User | None, username: str, until: dt.datetime | None, known_device: bool,
                 at: dt.datetime) -> None:
    """The owner hears of a client made to wait (issue 24: account locked), once a day
    however many clients try. The message is rendered for names that do not exist too, so
    that the time taken does not tell which names do."""
    from ..notify.services import queue, render
    from ..web import china_time
    context = {"username": (username or "").strip()[:100], "failures": throttle.FREE_FAILURES,
               "until": china_time(until) if until else "",
               "client_zh": "在您用过的浏览器上" if known_device else "来自一个陌生的地址",
               "client_en": "from a browser you have used" if known_device else "from an address not known to the portal"}
    if user is None or not user.email or not user.active:
        render("account_locked", "zh", name="", **context)
        return
    queue("account_locked", [(user.email, user.display_name, user.lang or "zh")], delegation=user.delegation,
          dedupe=f"locked:{user.id}:{china_time(at, '%Y-%m-%d')}", **context)


def login_waits(users: list[User], at: dt.datetime | None = None) -> dict[int, dt.datetime]:
    """user id -> until when some client must wait to log in as him (the accounts pages)."""
    keys = {throttle.name_key(u.username): u.id for u in users}
    return {keys[k]: until for k, until in throttle.blocked_names(list(keys), at or machine_utcnow()).items()}


def password_problem_for(user: User | None, password: str, username: str | None = None,
                         names: tuple[str, ...] = ()) -> tuple[str, str] | None:
    """The policy of passwords.py for this account: its username, name and unit too."""
    if user is not None:
        names += (user.display_name,)
        d = user.delegation
        if d is not None:
            from ..games.models import Unit
            unit = db.session.scalar(select(Unit).where(Unit.code == d.unit_code)) if d.unit_code else None
            names += (d.unit_code or "", d.unit_name or "", unit.name_zh if unit else "", unit.name_en if unit else "")
    return password_problem(password, username=username or (user.username if user else None), names=names)


def end_sessions(user: User) -> None:
    """Every session of this account ends at its next request (the caller commits)."""
    user.session_version = (user.session_version or 1) + 1


def end_tokens(user: User, reason: str) -> int:
    """Every API token of this account ends with the login that vouched for it (a new
    password, a second factor enrolled or reset), in the caller's transaction; the tokens
    page says why. How many ended."""
    from sqlalchemy import update

    from ..api.models import ApiToken
    return db.session.execute(update(ApiToken).where(ApiToken.user_id == user.id, ApiToken.revoked_at.is_(None))
                              .values(revoked_at=utcnow(), revoked_reason=reason)).rowcount


@transactional
def set_password(user: User, password: str, actor: Actor) -> None:
    user.password_hash = hash_password(password)
    user.invitation_hash = None
    user.invitation_expires = None
    throttle.clear(throttle.name_key(user.username))
    end_sessions(user)  # a stolen session dies with the old password
    ended = end_tokens(user, "password")  # and so does a token made with it
    record(actor, "account.password", "user", user.username, after={"tokens_ended": ended} if ended else None)


@transactional
def set_active(user: User, active: bool, actor: Actor) -> None:
    before = {"active": user.active}
    user.active = active
    if not active:
        end_sessions(user)
    record(actor, "account.enable" if active else "account.disable", "user", user.username,
           delegation=user.delegation, before=before, after={"active": active})


@transactional
def unlock(user: User, actor: Actor) -> None:
    """Every client may try this account again at once."""
    waits = login_waits([user])
    before = {"locked_until": waits[user.id].isoformat() if user.id in waits else None}
    throttle.clear(throttle.name_key(user.username))
    record(actor, "account.unlock", "user", user.username, delegation=user.delegation, before=before)


@transactional
def logout_everywhere(user: User) -> None:
    end_sessions(user)


@transactional
def create_account(username: str, display_name: str, role: str, actor: Actor, *,
                   delegation: Delegation | None = None, password: str | None = None,
                   games: Iterable[Games] = (), password_hash: str | None = None) -> tuple[User, str | None]:
    """Create an account; without a password it gets a one-time invitation token
    (returned once, stored only as its hash). Staff serve the `games` given.
    `password_hash`: hash_password() of the password, computed before the transaction."""
    if has_control(username) or has_control(display_name):  # both reach mail headers
        raise Refusal.of_field("username" if has_control(username) else "display_name",
                      "姓名和用户名" + CONTROL_PROBLEM[0], "Names and usernames " + CONTROL_PROBLEM[1])
    user = User(username=username.strip(), display_name=display_name.strip(), role=role,
                delegation_id=getattr(delegation, "id", None))
    token = None
    if password or password_hash:
        user.password_hash = password_hash or hash_password(password)
    else:
        token = secrets.token_urlsafe(24)
        user.invitation_hash = hashlib.sha256(token.encode()).hexdigest()
        user.invitation_expires = machine_utcnow() + dt.timedelta(days=INVITATION_DAYS)
    db.session.add(user)
    db.session.flush()
    slugs = []
    for one in games if role in STAFF_OF_GAMES else ():
        db.session.add(GamesStaff(user_id=user.id, games_id=one.id, granted_by=actor.label))
        slugs.append(one.slug)
    record(actor, "account.create", "user", user.username, delegation=delegation,
           after={"role": role, "display_name": display_name, **({"games": slugs} if slugs else {})})
    return user, token


STAFF_OF_GAMES = SCOPED_STAFF  # an administrator serves every Games
STAFF_ROLES = STAFF


def _staff_refusals(role: str, games: list[Games]) -> None:
    if role not in STAFF_ROLES:
        raise Refusal.of_field("role", "请选择角色：组委会、财务或系统管理员", "Choose a role: organiser, accountant or administrator")
    if role in STAFF_OF_GAMES and not games:
        raise Refusal.of_field("games", "请至少选择一届比赛：组委会和财务账号只能看到所负责的比赛",
                      "Choose at least one Games: organisers and accountants see only the Games they serve")


def create_staff(username: str, display_name: str, role: str, games: list[Games], actor: Actor) -> tuple[User, str]:
    """An administrator makes a staff account for the Games it serves; it gets a one-time
    invitation (the password is the person's own). Refusals carry the field as their code."""
    with write_transaction():
        username, display_name = (username or "").strip(), (display_name or "").strip()
        if not username or len(username) > 80:
            raise Refusal.of_field("username", "请填写用户名（不超过 80 个字符）", "Give a username (at most 80 characters)")
        if not display_name or len(display_name) > 100:
            raise Refusal.of_field("display_name", "请填写姓名（不超过 100 个字符）", "Give a name (at most 100 characters)")
        if db.session.scalar(select(User.id).where(User.username == username)):
            raise Refusal.of_field("username", "该用户名已被使用", "This username is taken")
        _staff_refusals(role, games)
        user, token = create_account(username, display_name, role, actor, games=games)
        return user, token


@transactional
def set_staff_games(user: User, games: list[Games], actor: Actor) -> Outcome:
    """The Games an organiser or accountant serves, from now on (audited before and after).
    Sessions stay: the next request already sees only the Games granted."""
    _staff_refusals(user.role, games)
    if user.role not in STAFF_OF_GAMES:
        raise Refusal.of_field("role", "系统管理员负责所有比赛，无需指定", "An administrator serves every Games")
    lock_row(User, user.id)  # two administrators at once: one after the other
    grants = {s.games_id: s for s in db.session.scalars(select(GamesStaff).where(GamesStaff.user_id == user.id))}
    before = sorted(db.session.scalars(select(Games.slug).where(Games.id.in_(grants))) if grants else [])
    wanted = {one.id: one for one in games}
    for games_id, grant in grants.items():
        if games_id not in wanted:
            db.session.delete(grant)
    for games_id in wanted.keys() - grants.keys():
        db.session.add(GamesStaff(user_id=user.id, games_id=games_id, granted_by=actor.label))
    after = sorted(one.slug for one in games)
    if before != after:
        record(actor, "account.games", "user", user.username, before={"games": before}, after={"games": after})
    return Outcome(ok=True)


def create_leader(games: Games, unit_code: str | None, club: str, username: str, display_name: str,
                  actor: Actor, *, email: str | None = None, link=None) -> tuple[User, str]:
    """A leader's account with its invitation, for a unit of the list or an open club, and
    the unit's delegation when it has none yet: all in one transaction, or nothing. With
    `email`, the invitation (`link(token)`) is also sent there. Refusals carry the form
    field they are about as their code."""
    with write_transaction():
        username, club = username.strip(), (club or "").strip()
        if db.session.scalar(select(User.id).where(User.username == username)):
            raise Refusal.of_field("username", "该用户名已被使用", "This username is taken")
        if not club and not unit_code:
            raise Refusal.of_field("unit", "请选择参赛单位，或填写俱乐部、学校等单位名称",
                          "Choose a unit, or give the name of a club or school")
        if club and not definition_of(games).participation.open_units:
            raise Refusal.of_field("club_name", "本届比赛只接受规定的参赛单位", "These Games take only the units listed")
        q = select(Delegation).where(Delegation.games_id == games.id)
        q = q.where(Delegation.unit_name == club, Delegation.unit_code.is_(None)) if club else \
            q.where(Delegation.unit_code == unit_code)
        d = db.session.scalar(q)
        if d is None:
            d = new_delegation(games, {"name": club, "kind": "club"} if club else unit_code)
            d.version = 1
            db.session.add(d)
            db.session.flush()
        user, token = create_account(username, display_name, "leader", actor, delegation=d)
        if email:
            user.email = _checked_address(email)
            from ..notify.services import queue
            queue("invitation", [(user.email, user.display_name, "zh")], delegation=d, games=definition_of(games),
                  unit=(d.unit_name or unit_code or "", d.unit_name or unit_code or "") if not unit_code else
                  _unit_names(unit_code), link=link(token) if link else "", days=INVITATION_DAYS)
        return user, token


def _unit_names(code: str) -> tuple[str, str]:
    from ..games.models import Unit
    row = db.session.scalar(select(Unit).where(Unit.code == code))
    return (row.name_zh, row.name_en) if row else (code, code)


@transactional
def renew_invitation(user: User, actor: Actor) -> str:
    token = secrets.token_urlsafe(24)
    user.invitation_hash = hashlib.sha256(token.encode()).hexdigest()
    user.invitation_expires = machine_utcnow() + dt.timedelta(days=INVITATION_DAYS)
    record(actor, "account.invite", "user", user.username)
    return token


def user_for_invitation(token: str) -> User | None:
    digest = hashlib.sha256((token or "").encode()).hexdigest()
    user = db.session.scalar(select(User).where(User.invitation_hash == digest))
    if user is None or user.invitation_expires is None or user.invitation_expires < machine_utcnow():
        return None
    return user


def _checked_address(email: str | None) -> str | None:
    """An address as stored: stripped, or None; a refusal when it is no single address
    (a line break in it would add a mail header)."""
    email = (email or "").strip() or None
    if problem := address_problem(email):
        raise Refusal.of_field("email", *problem)
    return email


@transactional
def set_email(user: User, email: str | None, actor: Actor) -> Outcome:
    """Where the portal writes to this account's person (audited, before and after)."""
    email = _checked_address(email)
    if email != user.email:
        record(actor, "account.email", "user", user.username, before={"email": user.email}, after={"email": email})
        user.email = email
    return Outcome(ok=True)


@transactional
def set_language(user: User, lang: str) -> Outcome:
    """The language the portal writes to this person in: the one last chosen on its pages."""
    if lang in ("zh", "en") and user.lang != lang:
        user.lang = lang
    return Outcome(ok=True)


@transactional
def set_notifications(user: User, email: str | None, reminders: bool, actor: Actor) -> Outcome:
    """The person's address and whether deadline reminders are sent (audited)."""
    email = _checked_address(email)
    before, after = {"email": user.email, "reminders": user.reminders}, {"email": email, "reminders": reminders}
    if before != after:
        user.email, user.reminders = email, reminders
        record(actor, "account.notifications", "user", user.username, before=before, after=after)
    return Outcome(ok=True)
