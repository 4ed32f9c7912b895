"""What the API reads beyond one row: its lists, a page at a time (two queries a page)."""
from __future__ import annotations

from sqlalchemy import func, select

from ..delegations.models import Delegation
from ..extensions import db
from ..money.models import BankLine


def _page(base, order, page: int, per_page: int) -> tuple[int, list]:
    total = db.session.scalar(select(func.count()).select_from(base.subquery()))
    return total, db.session.scalars(base.order_by(*order).offset((page - 1) * per_page).limit(per_page)).all()


def delegations_page(games_ids: list[int], only_id: int | None, page: int, per_page: int) -> tuple[int, list[Delegation]]:
    """The delegations of these Games (only one, for a leader's token) and how many there are."""
    base = select(Delegation).where(Delegation.games_id.in_(games_ids or [-1]))
    if only_id is not None:
        base = base.where(Delegation.id == only_id)
    return _page(base, (Delegation.id,), page, per_page)


def payments_page(games, matched: bool | None, page: int, per_page: int) -> tuple[int, list[BankLine]]:
    """The Games' bank lines (matched or not, if asked), by date, and how many there are."""
    base = select(BankLine).where(BankLine.games_id == games.id)
    if matched is not None:
        base = base.where(BankLine.matched_delegation_id.is_not(None) if matched
                          else BankLine.matched_delegation_id.is_(None))
    return _page(base, (BankLine.booked_on, BankLine.id), page, per_page)


def delegation_units(ids: set[int]) -> dict[int, tuple[str | None, str | None]]:
    """id -> (unit code, unit name) of these delegations."""
    return {did: (code, name) for did, code, name in db.session.execute(
        select(Delegation.id, Delegation.unit_code, Delegation.unit_name).where(Delegation.id.in_(ids)))} if ids else {}
