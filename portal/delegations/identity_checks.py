"""Whether an ID number is already registered by another delegation of the Games, told to
a leader only for people actually saved in his delegation, a bounded number a day per
account (issue 19, 1).

Without this bound the answer "already registered" is an oracle: a leader who knows a
child's area and birth date sends the thousand possible numbers and learns the one that
is registered elsewhere. So: previews, uploads not yet confirmed and the API never compare
numbers with other delegations; a save compares the numbers it adds, at most
ID_CHECKS_PER_DAY new numbers per account in any 24 hours (the rest wait for the next day
or the organisers' review, which always compares every number); every number found held
elsewhere is in the audit log for the organisers. Staff and the server's own imports
compare every number."""
from __future__ import annotations

import datetime as dt
from dataclasses import dataclass, field

from flask import current_app, has_app_context
from sqlalchemy import ForeignKey, Index, String, UniqueConstraint, bindparam, func, insert, select
from sqlalchemy.orm import Mapped, mapped_column

from ..audit.services import Actor, record
from ..db_types import UTCDateTime
from ..extensions import db
from ..privacy import mask_id
from ..roles import STAFF
from ..rules.idnumber import normalise
from .models import Delegation, DelegationStatus, Person

DEFAULT_PER_DAY = 200
STAFF_ROLES = STAFF


class IdentityCheck(db.Model):
    """One number of a saved delegation compared with the other delegations of its Games."""
    __tablename__ = "identity_check"
    __table_args__ = (UniqueConstraint("delegation_id", "id_number"),
                      Index("ix_identity_check_user_checked", "user_id", "checked_at"))
    id: Mapped[int] = mapped_column(primary_key=True)
    delegation_id: Mapped[int] = mapped_column(ForeignKey("delegation.id", ondelete="CASCADE"), index=True)
    id_number: Mapped[str] = mapped_column(String(40))
    # The account whose save compared it (None: staff or the server, never limited).
    user_id: Mapped[int | None] = mapped_column(ForeignKey("user_account.id", ondelete="SET NULL"))
    checked_at: Mapped[dt.datetime] = mapped_column(UTCDateTime)


@dataclass
class CrossCheck:
    """What a save compared: numbers compared now, numbers left for later (the limit), and
    the people whose number another delegation holds."""
    checked: int = 0
    deferred: int = 0
    limit: int = DEFAULT_PER_DAY
    held_elsewhere: list[str] = field(default_factory=list)

    def notice(self) -> tuple[str, str] | None:
        if not self.deferred:
            return None
        return (f"本账号 24 小时内与其他代表团核对的新证件号码已达上限（{self.limit} 个）：另有 {self.deferred} 人的"
                f"证件号码暂未核对是否已在本届比赛登记，明天保存时会继续核对，组委会审核时也会全部核对。",
                f"This account has compared {self.limit} new ID numbers with other delegations in 24 hours, "
                f"the most it may: {self.deferred} more are not compared yet. They will be at a save "
                f"tomorrow, and the organisers compare every number when they review the entry.")


def is_unlimited(actor: Actor) -> bool:
    return actor.user_id is None or actor.role in STAFF_ROLES


def per_day() -> int:
    if has_app_context():
        return int(current_app.config.get("ID_CHECKS_PER_DAY", DEFAULT_PER_DAY))
    return DEFAULT_PER_DAY


_CHECKED = select(IdentityCheck.id_number).where(IdentityCheck.delegation_id == bindparam("delegation_id"))  # built once


def checked_numbers(delegation_id: int) -> set[str]:
    return set(db.session.scalars(_CHECKED, {"delegation_id": delegation_id}))


def compare_new_numbers(d, people: list[tuple[str, str, str]], actor: Actor, at: dt.datetime) -> CrossCheck:
    """In the save's transaction: compare the delegation's (ref, name, number) not compared
    before, within the actor's allowance; record each, and audit each one held elsewhere."""
    limit = per_day()
    out = CrossCheck(limit=limit)
    done = checked_numbers(d.id)
    new: dict[str, tuple[str, str]] = {}
    for ref, name, number in people:
        n = normalise(number)
        if n and n not in done and n not in new:
            new[n] = (ref, name)
    if not new:
        return out
    numbers = list(new)
    if not is_unlimited(actor):
        used = db.session.scalar(select(func.count(IdentityCheck.id)).where(
            IdentityCheck.user_id == actor.user_id, IdentityCheck.checked_at > at - dt.timedelta(hours=24))) or 0
        allowed = max(0, limit - used)
        numbers, out.deferred = numbers[:allowed], max(0, len(numbers) - allowed)
    if not numbers:
        return out
    held: set[str] = set()
    for i in range(0, len(numbers), 10000):
        held |= set(db.session.scalars(
            select(Person.id_number).join(Delegation, Person.delegation_id == Delegation.id)
            .where(Delegation.games_id == d.games_id, Delegation.id != d.id, Delegation.status != DelegationStatus.WITHDRAWN,
                   Person.id_number.in_(numbers[i:i + 10000]))))
    user_id = None if is_unlimited(actor) else actor.user_id
    db.session.execute(insert(IdentityCheck.__table__), [
        {"delegation_id": d.id, "id_number": n, "user_id": user_id, "checked_at": at}
        for n in numbers])
    out.checked = len(numbers)
    for n in numbers:
        if n in held:
            ref, name = new[n]
            out.held_elsewhere.append(name)
            record(actor, "identity.held_elsewhere", "person", name, delegation=d,
                   after={"ref": ref, "name": name, "id_number": mask_id(n)})
    return out
