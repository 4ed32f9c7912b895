"""Posting to the delegation's account.

The ledger is append-only. What the delegation owes is
    balance = charges - credits - payments + refunds
(credits reverse a charge: a deposit released after check-in, a fee waived; a negative
balance is money to refund). A forfeit records that a deposit is kept (withdrawal): it
does not move the balance, and the deposit can no longer be released.
"""
from __future__ import annotations

from decimal import Decimal

from sqlalchemy import func, select

from ..audit.services import Actor, record
from ..delegations.models import Delegation
from ..extensions import db
from ..games.services import definition_of
from .models import LedgerEntry

SIGN = {"charge": 1, "credit": -1, "payment": -1, "refund": 1, "forfeit": 0}


def post(d: Delegation, kind: str, amount: Decimal, description: str, actor: Actor, *,
         fee_code: str | None = None, quantity: int = 1, unit_amount: Decimal | None = None,
         source_key: str | None = None, bank_line_id: int | None = None) -> LedgerEntry | None:
    """Append one ledger entry; with a source_key already posted, nothing is added."""
    amount = Decimal(amount).quantize(Decimal("0.01"))
    if amount <= 0:
        raise ValueError("ledger amounts are positive; the kind gives the direction")
    if source_key and db.session.scalar(select(LedgerEntry.id).where(LedgerEntry.source_key == source_key)):
        return None
    entry = LedgerEntry(delegation_id=d.id, kind=kind, amount=amount, description=description[:300],
                        fee_code=fee_code, quantity=quantity, unit_amount=unit_amount,
                        source_key=source_key, bank_line_id=bank_line_id, actor=actor.label)
    db.session.add(entry)
    db.session.flush()
    record(actor, f"ledger.{kind}", "ledger_entry", str(entry.id), delegation=d,
           after={"kind": kind, "amount": str(amount), "fee": fee_code, "description": description})
    return entry


def charge_fee(d: Delegation, per: str, quantity: int, actor: Actor, *, source_key: str,
               description: str) -> LedgerEntry | None:
    """Charge the Games' fee that applies `per` this unit (e.g. person_changed), if any."""
    for fee in definition_of(d.games).money.fees:
        if fee.per == per and quantity > 0:
            return post(d, "charge", fee.amount * quantity, f"{fee.name.zh}：{description}", actor,
                        fee_code=fee.code, quantity=quantity, unit_amount=fee.amount, source_key=source_key)
    return None


def balance(d: Delegation) -> Decimal:
    total = Decimal("0.00")
    for kind, amount in db.session.execute(
            select(LedgerEntry.kind, func.sum(LedgerEntry.amount)).where(LedgerEntry.delegation_id == d.id)
            .group_by(LedgerEntry.kind)):
        total += SIGN[kind] * Decimal(amount)
    return total.quantize(Decimal("0.01"))


def forfeit_on_withdrawal(d: Delegation, actor: Actor) -> None:
    """Deposits the regulation forfeits on withdrawal are kept (shaanxi-mind-2025)."""
    for fee in definition_of(d.games).money.fees:
        if "withdrawal" not in fee.forfeited_on:
            continue
        charged = db.session.scalar(select(func.coalesce(func.sum(LedgerEntry.amount), 0)).where(
            LedgerEntry.delegation_id == d.id, LedgerEntry.kind == "charge", LedgerEntry.fee_code == fee.code))
        if charged:
            post(d, "forfeit", Decimal(charged), f"{fee.name.zh}：退赛不予退还", actor, fee_code=fee.code,
                 source_key=f"forfeit:{d.id}:{fee.code}")
