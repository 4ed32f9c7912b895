"""Whether a delegation's entrants play, one judgement for every page that asks (the desk,
the cards, the draw, the results, the programme book, the API): approved, not withdrawn,
not on the waiting list, and its entries not void for a fee that never came (youth-gomoku-
2015 十一(四)). An event withdrawn alone is the event's own matter (results/entrants.py)."""
from __future__ import annotations

from sqlalchemy import select

from ..delegations.models import Delegation, DelegationStatus
from ..extensions import db
from ..games.services import definition_of
from ..money.services import entries_valid
from .models import Place, PlaceStatus

STATUS_WHY = {
    "draft": ("报名尚未提交", "the entry has not been submitted"),
    "submitted": ("报名等待组委会审核", "the entry is waiting for the organisers' approval"),
    "returned": ("报名已退回修改", "the entry was returned for changes"),
    "withdrawn": ("代表团已退出", "the delegation has withdrawn"),
}
WAITLISTED = ("在候补名单上", "on the waiting list")
UNPAID = ("报名费未在截止前到账，报名无效，不予编排", "the entry fee did not arrive by the deadline: the entry is void")


def why_not_playing(games, delegations: list[Delegation]) -> dict[int, tuple[str, str] | None]:
    """Delegation id -> why its entrants do not play (zh, en), or None when they play; a
    fixed number of queries for any number of delegations."""
    definition = definition_of(games)
    ids = [d.id for d in delegations]
    waitlisted = set(db.session.scalars(select(Place.delegation_id).where(
        Place.delegation_id.in_(ids), Place.status == PlaceStatus.WAITLISTED))) if definition.capacity and ids else set()
    valid = entries_valid(games, delegations) if definition.money.entry_valid_when_paid and ids else {}
    out = {}
    for d in delegations:
        status = str(d.status)
        if status != DelegationStatus.APPROVED:
            out[d.id] = STATUS_WHY.get(status, STATUS_WHY["submitted"])
        elif d.id in waitlisted:
            out[d.id] = WAITLISTED
        elif valid.get(d.id) is False:
            out[d.id] = UNPAID
        else:
            out[d.id] = None
    return out
