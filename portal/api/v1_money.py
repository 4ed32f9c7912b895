"""Version 1's money (issue 24, 3): a delegation's ledger with its totals (as its statement
of account: its leader, and the Games' staff), and the bank lines of a Games' imported
statements with what each was matched to (the accountants and organisers). Amounts are
decimal text, never floats."""
from __future__ import annotations

from decimal import Decimal

from flask import jsonify, request
from pydantic import BaseModel, Field
from spectree import Response

from ..extensions import api_limit
from ..games.services import unit_names
from ..money import statement as statements
from ..money.services import account_status, payment_reference_of
from ..roles import STAFF
from . import queries
from .blueprint import bp
from .gate import delegation_or_404, games_or_404, gate, require_role, require_token
from .shapes import PER_PAGE, Problem, Text, spec

READERS = STAFF


class LedgerLine(BaseModel):
    id: int
    kind: str = Field(description="charge, credit, payment, reversal, refund or forfeit")
    kind_name: Text
    fee: str | None = Field(description="the fee's code in the Games' definition")
    amount: str
    quantity: int
    unit_amount: str | None
    description: Text
    value_date: str | None
    posted_at: str
    balance: str = Field(description="what is owed after this line")


class Ledger(BaseModel):
    delegation: int
    currency: str
    reference: str = Field(description="the payment reference to write on a bank transfer")
    status: str
    status_name: Text
    totals: dict[str, str]
    entries_valid: bool | None = Field(description="false: the entry fee did not arrive by its deadline")
    lines: list[LedgerLine]


class PaymentsQuery(BaseModel):
    matched: bool | None = Field(default=None, description="only lines matched (true) or not (false)")
    page: int = Field(default=1, ge=1, le=10_000)
    per_page: int = Field(default=PER_PAGE, ge=1, le=200)


class PaymentLine(BaseModel):
    id: int
    statement: str
    row: int
    booked_on: str
    amount: str
    payer: str
    memo: str
    bank_ref: str | None
    delegation: int | None
    unit: Text | None
    match: str | None = Field(description="reference, name_amount, manual or duplicate")
    duplicate_of: int | None


class PaymentsPage(BaseModel):
    payments: list[PaymentLine]
    page: int
    per_page: int
    total: int


def _money(value: Decimal | None) -> str | None:
    return None if value is None else f"{value:.2f}"


@bp.get("/delegations/<int:delegation_id>/ledger")
@api_limit
@spec.validate(resp=Response(HTTP_200=Ledger, HTTP_404=Problem), tags=["money"])
def delegation_ledger(delegation_id):
    """The delegation's account, line by line (append-only: a mistake is a further line),
    with its running balance and totals, as on its statement of account."""
    require_token("read")
    d = delegation_or_404(delegation_id)
    s = statements.statement(d)
    names = statements.KIND_NAMES
    status = account_status(s["totals"])
    return jsonify({
        "delegation": d.id, "currency": s["currency"], "reference": payment_reference_of(d), "status": status,
        "status_name": dict(zip(("zh", "en"), statements.STATUS_NAMES.get(status, (status, status)), strict=True)),
        "totals": {k: _money(v) for k, v in s["totals"].items()}, "entries_valid": s["valid"],
        "lines": [{"id": e.id, "kind": e.kind, "kind_name": {"zh": names[e.kind][0], "en": names[e.kind][1]},
                   "fee": e.fee_code, "amount": _money(e.amount), "quantity": e.quantity,
                   "unit_amount": _money(e.unit_amount), "description": {"zh": e.description, "en": line["note_en"]},
                   "value_date": e.value_date.isoformat() if e.value_date else None,
                   "posted_at": e.created_at.isoformat(), "balance": _money(line["balance"])}
                  for line in s["lines"] for e in (line["entry"],)]})


@bp.get("/games/<slug>/payments")
@api_limit
@spec.validate(query=PaymentsQuery, resp=Response(HTTP_200=PaymentsPage, HTTP_403=Problem, HTTP_404=Problem),
               tags=["money"], before=gate("read", *READERS))
def games_payments(slug):
    """The credit lines of the Games' imported bank statements, a page at a time, each with
    the delegation it was matched to and how (the accountants' reconciliation)."""
    require_token("read")
    require_role(*READERS)
    games = games_or_404(slug)
    q = request.context.query
    total, rows = queries.payments_page(games, q.matched, q.page, q.per_page)
    units = queries.delegation_units({x.matched_delegation_id for x in rows if x.matched_delegation_id})
    zh, en = unit_names(), unit_names("en")

    def unit(delegation_id):
        if delegation_id not in units:
            return None
        code, name = units[delegation_id]
        return {"zh": zh.get(code, name or code or ""), "en": en.get(code, name or code or "")}
    return jsonify({"payments": [{
        "id": x.id, "statement": x.statement_name, "row": x.row_number, "booked_on": x.booked_on.isoformat(),
        "amount": _money(x.amount), "payer": x.payer, "memo": x.memo, "bank_ref": x.bank_ref,
        "delegation": x.matched_delegation_id, "unit": unit(x.matched_delegation_id), "match": x.match_method,
        "duplicate_of": x.duplicate_of_id} for x in rows], "page": q.page, "per_page": q.per_page, "total": total})
