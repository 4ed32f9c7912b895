"""Posting to the delegation's account.

The ledger is append-only. What the delegation owes is
    balance = charges - credits - payments + refunds
(credits reverse a charge: a deposit released after check-in, a fee waived; a negative
balance is money to refund). A forfeit records that a deposit is kept (withdrawal): it
does not move the balance, and the deposit can no longer be released.
"""
from __future__ import annotations

import datetime as dt
from dataclasses import dataclass, field
from decimal import Decimal
from types import SimpleNamespace
from typing import TYPE_CHECKING

from sqlalchemy import func, select, update
from stdnum import luhn

from ..accounts.models import User
from ..audit.services import Actor, record, record_many
from ..bulk_insert import insert_rows
from ..clock import now
from ..db_tx import lock_row, transactional
from ..delegations.edit import athletes as athletes_of, entry_people
from ..delegations.models import Delegation, DelegationStatus, Entry, EntryMember, Person
from ..delegations.services import export_document
from ..extensions import db
from ..games.models import Games
from ..games.services import definition_of, unit_names
from ..notify.services import hook, recipients_of, tell_delegation, webhooks_of
from ..outcome import Outcome, Refusal, Status
from ..rules.checks.delegation import staff_beyond_allowance
from ..rules.engine import CHINA
from ..rules.stay import person_window, widest
from ..rules.violations import Violation
from ..workflow.models import Place, PlaceStatus
from .bank import StatementError, match, read_statement
from .models import BankLine, LedgerEntry, RoomRequest, RoomStatus

if TYPE_CHECKING:
    import pandas as pd

    from ..rules.definition import GamesDefinition

SIGN = {"charge": 1, "credit": -1, "payment": -1, "refund": 1, "forfeit": 0, "reversal": 1}


def post(d: Delegation, kind: str, amount: Decimal, description: str, actor: Actor, *,
         fee_code: str | None = None, quantity: int = 1, unit_amount: Decimal | None = None,
         source_key: str | None = None, bank_line_id: int | None = None,
         value_date: dt.date | None = None) -> LedgerEntry | None:
    """Append one ledger entry; with a source_key already posted, nothing is added."""
    amount = Decimal(amount).quantize(Decimal("0.01"))
    if amount <= 0:
        raise ValueError("ledger amounts are positive; the kind gives the direction")
    if source_key and db.session.scalar(select(LedgerEntry.id).where(LedgerEntry.source_key == source_key)):
        return None
    entry = LedgerEntry(delegation_id=d.id, kind=kind, amount=amount, description=description[:300],
                        fee_code=fee_code, quantity=quantity, unit_amount=unit_amount,
                        source_key=source_key, bank_line_id=bank_line_id, actor=actor.label,
                        value_date=value_date or _today())
    db.session.add(entry)
    db.session.flush()
    record(actor, f"ledger.{kind}", "ledger_entry", str(entry.id), delegation=d,
           after={"kind": kind, "amount": str(amount), "fee": fee_code, "description": description})
    return entry


def _insert_returning_ids(model, rows: list[dict], unique: str) -> list[int]:
    """Insert every row set-based (bulk_insert.py); their ids in the rows' order, found by
    the `unique` column each row has."""
    found = insert_rows(model.__table__, rows, key=unique)
    return [found[row[unique]] for row in rows]


def post_bank_payments(games: Games, lines: list[dict], actor: Actor) -> int:
    """post() of each matched bank line (a dict with id, delegation, amount, day and payer),
    set-based: the payments and their audit records inserted together, in batches; a line
    already posted (its source key) adds nothing. Returns the entries added."""
    keys = [f"bank:{x['id']}" for x in lines]
    posted = set()
    for i in range(0, len(keys), 10000):
        posted |= set(db.session.scalars(select(LedgerEntry.source_key).where(LedgerEntry.source_key.in_(keys[i:i + 10000]))))
    today = _today()
    rows = [{"delegation_id": x["matched_delegation_id"], "kind": "payment", "amount": Decimal(x["amount"]).quantize(Decimal("0.01")),
             "quantity": 1, "description": f"银行到账 {x['booked_on']} {x['payer']}"[:300], "source_key": key,
             "bank_line_id": x["id"], "actor": actor.label, "value_date": x["booked_on"] or today}
            for x, key in zip(lines, keys) if key not in posted]
    if not rows:
        return 0
    ids = _insert_returning_ids(LedgerEntry, rows, "source_key")
    record_many(actor, "ledger.payment", "ledger_entry", [
        (str(entry_id), row["delegation_id"], games.slug,
         {"kind": "payment", "amount": str(row["amount"]), "fee": None, "description": row["description"]})
        for entry_id, row in zip(ids, rows)])
    return len(rows)


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
        if charged and post(d, "forfeit", Decimal(charged), f"{fee.name.zh}：退赛不予退还", actor, fee_code=fee.code,
                            source_key=f"forfeit:{d.id}:{fee.code}"):
            _tell_deposit(d, fee, Decimal(charged), returned=False)


# --- what a delegation owes ---------------------------------------------------------------

def payment_reference_of(d: Delegation) -> str:
    """The code to quote on transfers (reads only): the one the delegation was given, else
    its own, ZY + Games and delegation numbers + a Luhn digit, which is what it will be given."""
    if d.payment_reference:
        return d.payment_reference
    digits = f"{d.games_id:02d}{d.id:05d}"
    return f"ZY{digits}{luhn.calc_check_digit(digits)}"


def assign_payment_reference(d: Delegation) -> str:
    """Store the delegation's payment reference (at submission, in its transaction)."""
    if not d.payment_reference:
        d.payment_reference = payment_reference_of(d)
        db.session.flush()
    return d.payment_reference


def expected_fees(d: Delegation) -> dict[str, tuple[int, Decimal, str]]:
    """fee code -> (quantity, unit amount, description) the regulation charges for the
    delegation as it stands: entry fees per athlete, per team group, deposits per entrant,
    room nights."""
    definition = definition_of(d.games)
    rows = db.session.scalars(select(RoomRequest).where(RoomRequest.delegation_id == d.id,
                                                        RoomRequest.status == RoomStatus.ALLOCATED)).all()
    return fees_under(definition, export_document(d), definition.capacity is None or _holds_a_place(d), rows,
                      came_late(definition, d.first_received_at))


def came_late(definition, first_received_at: dt.datetime | None) -> bool:
    """Whether a delegation's entry first arrived after the names deadline (逾期报名: under
    an extension), what a late_athlete fee charges for."""
    closes = definition.stages.names_closes
    return closes is not None and first_received_at is not None and first_received_at >= closes


def fees_under(definition, doc: dict, holds_place: bool, rooms: list, late: bool = False) -> dict[str, tuple[int, Decimal, str]]:
    """expected_fees() of a delegation's document under `definition` (an amendment's
    impact compares two), given whether it holds a place, its allocated rooms and whether
    its entry came late."""
    athletes = athletes_of(doc)
    entered = [(e["event"], e.get("lineup") is not None, tuple(entry_people(e))) for e in doc["entries"]]
    # 报满即止: a deposit is due only once a place is given, at once or on promotion from the
    # wait list; a wait-listed entrant owes (and forfeits) nothing.
    out = _entry_fees(definition, entered, definition.capacity is None or holds_place, late)
    out.update(_daily_fees(definition, doc, len(athletes)))
    rates = {r.code: r for r in definition.rooms}
    for room_code, room in rates.items():
        mine = [r for r in rooms if r.room_type == room_code]
        if not mine:
            continue
        units = sum(r.people if room.per == "person_night" else r.rooms for r in mine)
        out[f"room:{room_code}"] = (units, room.rate, f"住宿 {room.name.zh}（{'人·晚' if room.per == 'person_night' else '间·晚'}）")
    return out


def _entry_fees(definition, entered: list[tuple[str, bool, tuple]], holds_place: bool,
                late: bool = False) -> dict[str, tuple[int, Decimal, str]]:
    """The fees charged per athlete, entry, entrant, team group, team or delegation (not
    rooms), from the entries (event, whether a lineup, its people), in the fee's events only
    when it names some; `late`: the entry came after the names deadline."""
    kinds = {x.code: x.kind for x in definition.events}
    out = {}
    for fee in definition.money.fees:
        mine = [e for e in entered if not fee.events or e[0] in fee.events]
        teams = [e for e in mine if e[1] or kinds.get(e[0]) == "team"]
        people = {r for e in mine for r in e[2]}
        qty = {"athlete": len(people), "entrant": len(people) if holds_place else 0,
               "late_athlete": len(people) if late else 0,
               "individual_entry": sum(len(set(e[2])) for e in mine if not (e[1] or kinds.get(e[0]) == "team")),
               "team_group": len({e[0] for e in teams}), "team_entry": len(teams), "delegation": 1}.get(fee.per)
        if qty is not None:
            out[fee.code] = (qty, fee.amount, fee.name.zh)
    return out


def _daily_fees(definition, doc: dict, athletes: int) -> dict[str, tuple[int, Decimal, str]]:
    """participant_day fees: everyone of the delegation for each day, the staff beyond the
    allowance (总则 七(二)) at the fee's `amount_beyond`, as a line of their own."""
    out = {}
    fees = [f for f in definition.money.fees if f.per == "participant_day"]
    if not fees:
        return out
    people = len(doc.get("people") or [])
    beyond = staff_beyond_allowance(definition, athletes, [(s["person"], s["role"]) for s in doc.get("staff") or []])
    for fee in fees:
        days = fee.days or (definition.dates.end - definition.dates.start).days + 1
        within = people - (len(beyond) if fee.amount_beyond is not None else 0)
        if within:
            out[fee.code] = (within * days, fee.amount, f"{fee.name.zh}（{days} 天）")
        if fee.amount_beyond is not None and beyond:
            out[f"{fee.code}:beyond"] = (len(beyond) * days, fee.amount_beyond, f"{fee.name.zh}（超出名额，{days} 天）")
    return out


def _holds_a_place(d: Delegation) -> bool:
    return db.session.scalar(select(Place.status).where(Place.delegation_id == d.id)) == PlaceStatus.ACCEPTED


def posted_by_fee(d: Delegation) -> dict[str, Decimal]:
    """Net amount charged per fee code (charges minus credits)."""
    out: dict[str, Decimal] = {}
    for kind, code, amount in db.session.execute(
            select(LedgerEntry.kind, LedgerEntry.fee_code, func.sum(LedgerEntry.amount))
            .where(LedgerEntry.delegation_id == d.id, LedgerEntry.kind.in_(("charge", "credit")))
            .group_by(LedgerEntry.kind, LedgerEntry.fee_code)):
        out[code] = out.get(code, Decimal("0")) + (Decimal(amount) if kind == "charge" else -Decimal(amount))
    return out


ENTRY_ACTIONS = ("payment", "refund", "appeal_fee", "appeal_upheld", "checkin", "sync")


@transactional
def accountant_entry(delegation: Delegation, action: str, amount: Decimal | None, memo: str, actor: Actor) -> Outcome:
    """What an accountant books by hand on a delegation's account, under its row lock: a
    payment or refund outside the bank statements, the appeal fee (charged, or given back
    when the appeal is upheld), the deposit returned at check-in, or the charges recomputed
    from the regulation."""
    if action not in ENTRY_ACTIONS:
        raise Refusal("input", "未知的操作。", "Unknown action.", delegation=delegation)
    d = lock_row(Delegation, delegation.id)
    memo = (memo or "").strip()
    fees = {f.per: f for f in definition_of(d.games).money.fees}
    if action in ("payment", "refund"):
        if amount is None:
            raise Refusal("input", "请填写金额。", "Enter the amount.", delegation=d)
        post(d, action, amount, memo or ("收款" if action == "payment" else "退款"), actor)
    elif action in ("appeal_fee", "appeal_upheld"):
        fee = fees.get("appeal")
        if fee is None:
            raise Refusal("input", "本届比赛的规程没有申诉费。", "These Games' regulation has no appeal fee.", delegation=d)
        if action == "appeal_fee":
            post(d, "charge", fee.amount, f"{fee.name.zh} {memo}".strip(), actor, fee_code=fee.code,
                 unit_amount=fee.amount)
        else:
            post(d, "credit", fee.amount, f"{fee.name.zh}：申诉成立，退还 {memo}".strip(), actor,
                 fee_code=fee.code, unit_amount=fee.amount)
    elif action == "checkin":
        if release_deposit(d, actor) is None:
            raise Refusal("state", "没有可退还的保证金。", "There is no deposit to return.", delegation=d)
    else:
        sync_charges(d, actor)
    return Outcome(True, status=Status.SAVED, delegation=d)


def sync_charges(d: Delegation, actor: Actor) -> list[LedgerEntry]:
    """Post what the regulation charges and the ledger does not show yet (a charge), or
    what it shows beyond that (a credit). Append-only and idempotent.

    Only what the regulation lets go back is credited when quantities drop: room nights
    given up. A fee of the regulation is never credited that way: `never` means what it
    says (youth-gomoku-2015 十一(八): 报名费不退), a deposit goes back after check-in or is
    forfeited (release_deposit, forfeit), an appeal fee goes back when the appeal is upheld.
    A withdrawn delegation is not credited either."""
    if d.status == DelegationStatus.WITHDRAWN:
        return []
    posted = posted_by_fee(d)
    # Every fee the regulation defines keeps what was charged; rooms are not fees.
    not_credited = {f.code for f in definition_of(d.games).money.fees}
    entries = []
    for code, (qty, unit, description) in expected_fees(d).items():
        want = (unit * qty).quantize(Decimal("0.01"))
        have = posted.get(code, Decimal("0"))
        if want > have:
            entries.append(post(d, "charge", want - have, f"{description} × {qty}", actor, fee_code=code,
                                quantity=qty, unit_amount=unit))
        elif want < have and code not in not_credited:
            entries.append(post(d, "credit", have - want, f"{description}：减至 {qty}", actor, fee_code=code,
                                quantity=qty, unit_amount=unit))
    return [e for e in entries if e]


KINDS = ("charge", "credit", "payment", "refund", "forfeit", "reversal")


def _with_balance(by_kind: dict[str, Decimal]) -> dict[str, Decimal]:
    """Sums per ledger kind, plus what is expected and the balance (the module's formula)."""
    t = {k: by_kind.get(k, Decimal("0.00")) for k in KINDS}
    t["payment"] -= t.pop("reversal")  # payments net of those taken back
    t["expected"] = t["charge"] - t["credit"]
    t["balance"] = t["expected"] - t["payment"] + t["refund"]
    return t


def totals(d: Delegation) -> dict[str, Decimal]:
    return _with_balance({kind: Decimal(amount).quantize(Decimal("0.01")) for kind, amount in db.session.execute(
        select(LedgerEntry.kind, func.sum(LedgerEntry.amount))
        .where(LedgerEntry.delegation_id == d.id).group_by(LedgerEntry.kind))})


def account_status(t: dict) -> str:
    if t["expected"] == 0 and t["payment"] == 0:
        return "nothing_due"
    if t["balance"] == 0:
        return "paid"
    if t["balance"] < 0:
        return "refund_due"
    return "partly_paid" if t["payment"] > t["refund"] else "unpaid"


def entry_valid(d: Delegation) -> bool | None:
    """Where the regulation makes an entry valid only once its fee is received by the
    deadline (youth-gomoku-2015: by 8 Jul), whether this one is. None: no such rule."""
    return entries_valid(d.games, [d])[d.id]


def entries_valid(games: Games, delegations: list[Delegation]) -> dict[int, bool | None]:
    """entry_valid() of each delegation, from three grouped queries for all of them."""
    from ..workflow.models import Place
    definition = definition_of(games)
    if not definition.money.entry_valid_when_paid or not delegations:
        return {d.id: None for d in delegations}
    ids = [d.id for d in delegations]
    # Each entry with its people (a team without members yet still a team), in one statement.
    members: dict[int, tuple[int, str, bool, list]] = {}
    for delegation_id, entry_id, event, is_lineup, person_id in db.session.execute(
            select(Entry.delegation_id, Entry.id, Entry.event_code, Entry.is_lineup, EntryMember.person_id)
            .outerjoin(EntryMember, EntryMember.entry_id == Entry.id).where(Entry.delegation_id.in_(ids))):
        row = members.setdefault(entry_id, (delegation_id, event, is_lineup, []))
        if person_id is not None:
            row[3].append(person_id)
    entries: dict[int, list] = {}
    for delegation_id, event, is_lineup, people in members.values():
        entries.setdefault(delegation_id, []).append((event, is_lineup, tuple(people)))
    accepted = set(db.session.scalars(select(Place.delegation_id).where(
        Place.delegation_id.in_(ids), Place.status == PlaceStatus.ACCEPTED))) if definition.capacity is not None else None
    q = (select(LedgerEntry.delegation_id, func.coalesce(func.sum(LedgerEntry.amount), 0))
         .where(LedgerEntry.delegation_id.in_(ids), LedgerEntry.kind == "payment"))
    closes = definition.stages.names_closes
    if closes is not None:
        last_day = (closes - dt.timedelta(microseconds=1)).astimezone(CHINA).date()
        q = q.where(LedgerEntry.value_date <= last_day)
    paid = {did: Decimal(amount) for did, amount in db.session.execute(q.group_by(LedgerEntry.delegation_id))}
    out = {}
    for d in delegations:
        fees = _entry_fees(definition, entries.get(d.id, []), accepted is None or d.id in accepted,
                           came_late(definition, d.first_received_at))
        due = sum((unit * qty for qty, unit, _name in fees.values()), Decimal("0"))
        out[d.id] = due > 0 and paid.get(d.id, Decimal("0")) >= due
    return out


def release_deposit(d: Delegation, actor: Actor) -> LedgerEntry | None:
    """After check-in the deposit comes back: credit it (the balance then shows the refund due)."""
    for fee in definition_of(d.games).money.fees:
        if fee.refundable == "after_checkin":
            held = posted_by_fee(d).get(fee.code, Decimal("0"))
            forfeited = db.session.scalar(select(func.coalesce(func.sum(LedgerEntry.amount), 0)).where(
                LedgerEntry.delegation_id == d.id, LedgerEntry.kind == "forfeit", LedgerEntry.fee_code == fee.code))
            amount = held - Decimal(forfeited)
            if amount > 0:
                entry = post(d, "credit", amount, f"{fee.name.zh}：报到后退还", actor, fee_code=fee.code,
                             source_key=f"release:{d.id}:{fee.code}")
                if entry is not None:
                    _tell_deposit(d, fee, amount, returned=True)
                return entry
    return None


@transactional
def settle_deposits_after_event(games: Games, actor: Actor, misconduct: dict[int, str]) -> Outcome:
    """Once play is over, each deposit returned after the event comes back, except what the
    regulation keeps: each player's share who did not finish all rounds (recorded absent),
    the whole for misconduct the organisers name (`misconduct`: delegation id -> reason).
    Every amount kept says why; settling again adds nothing."""
    from ..results.models import RoundAbsence
    definition = definition_of(games)
    fees = [f for f in definition.money.fees if f.refundable == "after_event"]
    if not fees:
        raise Refusal("state", "本次比赛没有赛后退还的保证金。", "These Games hold no deposit returned after play.")
    delegations = db.session.scalars(select(Delegation).where(Delegation.games_id == games.id,
                                                              Delegation.status != DelegationStatus.WITHDRAWN)).all()
    ids = [d.id for d in delegations]
    missed: dict[int, set[str]] = {}
    keys = {k for (k,) in db.session.execute(select(RoundAbsence.entrant_key).where(RoundAbsence.games_id == games.id))}
    person_ids = [int(k[1:]) for k in keys if k.startswith("p") and k[1:].isdigit()]
    for delegation_id, name in db.session.execute(select(Person.delegation_id, Person.name).where(
            Person.id.in_(person_ids or [-1]), Person.delegation_id.in_(ids or [-1]))):
        missed.setdefault(delegation_id, set()).add(name)
    held = {}
    for delegation_id, code, kind, amount in db.session.execute(
            select(LedgerEntry.delegation_id, LedgerEntry.fee_code, LedgerEntry.kind, func.sum(LedgerEntry.amount))
            .where(LedgerEntry.delegation_id.in_(ids or [-1]), LedgerEntry.fee_code.in_([f.code for f in fees]),
                   LedgerEntry.kind.in_(("charge", "credit", "forfeit")))
            .group_by(LedgerEntry.delegation_id, LedgerEntry.fee_code, LedgerEntry.kind)):
        sign = 1 if kind == "charge" else -1
        held[(delegation_id, code)] = held.get((delegation_id, code), Decimal("0")) + sign * Decimal(amount)
    returned = kept = Decimal("0.00")
    for d in delegations:
        for fee in fees:
            amount = held.get((d.id, fee.code), Decimal("0"))
            if amount <= 0:
                continue
            keep, why = Decimal("0"), ""
            if "misconduct" in fee.forfeited_on and misconduct.get(d.id):
                keep, why = amount, f"违反赛风赛纪：{misconduct[d.id]}"
            elif "unfinished" in fee.forfeited_on and missed.get(d.id):
                names = sorted(missed[d.id])
                share = fee.amount * len(names) if fee.per == "entrant" else amount
                keep, why = min(amount, share), "未下完全部轮次：" + "、".join(names)
            if keep > 0:
                post(d, "forfeit", keep, f"{fee.name.zh}：不予退还（{why}）", actor, fee_code=fee.code,
                     source_key=f"settle-keep:{d.id}:{fee.code}")
                kept += keep
            if amount - keep > 0 and post(d, "credit", amount - keep, f"{fee.name.zh}：比赛结束后退还", actor,
                                          fee_code=fee.code, source_key=f"settle:{d.id}:{fee.code}"):
                _tell_deposit(d, fee, amount - keep, returned=True)
                returned += amount - keep
            record(actor, "money.deposit_settled", "delegation", str(d.id), delegation=d,
                   after={"fee": fee.code, "returned": str(amount - keep), "kept": str(keep)}, reason=why or None)
    return Outcome(True, status=Status.SAVED, message=(
        f"保证金已结算：退还 ¥{returned:,.2f}，不予退还 ¥{kept:,.2f}。",
        f"Deposits settled: ¥{returned:,.2f} returned, ¥{kept:,.2f} kept."))


def _tell_deposit(d: Delegation, fee, amount: Decimal, returned: bool) -> None:
    if recipients_of(d):
        tell_delegation(d, "deposit", fee=(fee.name.zh, fee.name.en), amount=f"{amount:,.2f}", returned=returned)


def _tell_payment(d: Delegation, lines) -> None:
    """The leaders hear of the transfers matched to their account (one line, or a
    statement's), with what is still due."""
    lines = lines if isinstance(lines, list) else [lines]
    if recipients_of(d):
        owed = totals(d)["balance"]
        total = sum((x.amount for x in lines), Decimal("0.00"))
        # Paid more than is due: what comes back, not "still to pay: ¥0.00".
        tell_delegation(d, "payment_matched", amount=f"{Decimal(total):,.2f}",
                        booked_on="、".join(sorted({x.booked_on.isoformat() for x in lines}))[:60],
                        balance=f"{max(owed, Decimal('0.00')):,.2f}", overpaid=f"{-owed:,.2f}" if owed < 0 else "")


def _today() -> dt.date:
    return now().astimezone(CHINA).date()


# --- rooms --------------------------------------------------------------------------------

def stay_window(definition: GamesDefinition) -> tuple[dt.date, dt.date, bool]:
    """First and last night anyone of the Games may book, and whether the first is strict
    ("提前报到者大会不予接待"). Each person's own window: rules.stay.person_window."""
    w = widest(definition)
    return w.first_night, w.last_night, w.strict


def request_rooms(d: Delegation, room_type: str, first_night: dt.date, last_night: dt.date, rooms: int,
                  people: int, actor: Actor, occupants: list[str] | None = None) -> Outcome:
    """Book rooms for a run of nights, first come first served against the inventory. With
    `occupants` (people of the delegation, by ref), each night must fall in each occupant's
    own stay window (STAY_OUTSIDE_WINDOW otherwise), and the rooms count for them."""
    from .models import RoomRequest

    @transactional
    def run():
        definition = definition_of(d.games)
        room = next((r for r in definition.rooms if r.code == room_type), None)
        if room is None:
            raise Refusal("input", "未知的房型。", "Unknown room type.", delegation=d)
        if rooms < 1 or people < 1 or last_night < first_night:
            raise Refusal("input", "房间数、人数和日期须有效。", "Rooms, people and nights must be valid.", delegation=d)
        first, last, strict = stay_window(definition)
        if first_night < first:
            why = "提前报到者大会不予接待" if strict else "早于可入住日期"
            raise Refusal("state", f"{why}：最早 {first} 入住。", f"Arrival before {first} is not accepted.", delegation=d)
        if last_night > last:
            raise Refusal("state", f"最晚住到 {last} 晚。", f"The last night that can be booked is {last}.", delegation=d)
        if occupants:
            outside = _outside_windows(d, definition, occupants, first_night, last_night)
            if outside:
                raise Refusal("rules", violations=outside, delegation=d)
        lock_row(Games, d.games.id)  # inventory is the limited thing: lock, count, write
        statuses = []
        night = first_night
        while night <= last_night:
            taken = db.session.scalar(select(func.coalesce(func.sum(RoomRequest.rooms), 0)).where(
                RoomRequest.games_id == d.games_id, RoomRequest.room_type == room_type, RoomRequest.night == night,
                RoomRequest.status == RoomStatus.ALLOCATED))
            status = RoomStatus.ALLOCATED if room.inventory is None or taken + rooms <= room.inventory else RoomStatus.WAITLISTED
            db.session.add(RoomRequest(games_id=d.games_id, delegation_id=d.id, room_type=room_type, night=night,
                                       rooms=rooms, people=len(occupants) if occupants else people,
                                       occupants=list(occupants or []), status=status))
            statuses.append(status)
            night += dt.timedelta(days=1)
        db.session.flush()
        record(actor, "rooms.request", "room_request", room_type, delegation=d,
               after={"from": first_night.isoformat(), "to": last_night.isoformat(), "rooms": rooms,
                      "people": people, "occupants": list(occupants or []), "statuses": statuses})
        sync_charges(d, actor)
        ok = all(s == RoomStatus.ALLOCATED for s in statuses)
        return Outcome(True, status=Status.ALLOCATED if ok else Status.WAITLISTED, delegation=d,
                       message=None if ok else ("部分日期该房型已满，已列入候补。", "Some nights are full; wait-listed."))
    return run()


def _outside_windows(d, definition, occupants, first_night, last_night) -> list:
    """STAY_OUTSIDE_WINDOW for each occupant with a night outside his own window."""
    from ..delegations.services import export_document
    document = export_document(d)
    names = {p["ref"]: p["name"] for p in document["people"]}
    out = []
    for ref in occupants:
        w = person_window(definition, document, ref)
        if w.allows(first_night) and w.allows(last_night):
            continue
        name = names.get(ref, ref)
        out.append(Violation(
            "STAY_OUTSIDE_WINDOW",
            f"{name} 只能在 {w.first_night} 至 {w.last_night} 晚入住（按规程的报到和离会日期），"
            f"所订 {first_night} 至 {last_night} 超出了这个范围。",
            f"{name} may stay the nights of {w.first_night} to {w.last_night} (the regulation's arrival and "
            f"departure days); {first_night} to {last_night} falls outside them.", people=(ref,)))
    return out


# --- bank statements ----------------------------------------------------------------------------

def payer_candidates(games: Games) -> pd.DataFrame:
    """Names a delegation's transfers may come from, with the amount it owes."""
    import pandas as pd

    rows = []
    units = unit_names()
    for d in db.session.scalars(select(Delegation).where(Delegation.games_id == games.id)):
        due = totals(d)["balance"]
        if due <= 0:
            continue
        names = {units.get(d.unit_code), d.unit_name}
        names |= {u.display_name for u in db.session.scalars(select(User).where(User.delegation_id == d.id))}
        if d.unit_kind == "individual" and d.people:
            names.add(d.people[0].name)
        for name in filter(None, names):
            rows.append({"name": name, "amount_due": f"{due:.2f}", "delegation_id": d.id})
    return pd.DataFrame(rows, columns=["name", "amount_due", "delegation_id"])


def references(games: Games) -> pd.DataFrame:
    import pandas as pd
    delegations = db.session.scalars(select(Delegation).where(Delegation.games_id == games.id)).all()
    return pd.DataFrame([{"code": payment_reference_of(d), "delegation_id": d.id} for d in delegations],
                        columns=["code", "delegation_id"])


@dataclass
class StatementImport:
    """What importing one bank statement did: lines booked, skipped and matched, and the
    rows that could not be read (zh, en) with nothing imported when `ok` is False."""
    ok: bool
    problems: list[tuple[str, str]] = field(default_factory=list)
    imported: int = 0
    duplicates: int = 0  # lines imported before (same fingerprint): skipped
    bad_rows: int = 0
    reference: int = 0  # matched by the payment reference in the memo
    name_amount: int = 0  # matched by payer and amount
    unmatched: int = 0
    possible_duplicates: int = 0  # the same payment exported twice: waits for the accountant
    read_as: tuple[str, str] | None = None  # the layout and columns read, in words (zh, en)


def import_statement(games: Games, data: bytes, filename: str, actor: Actor, all_or_nothing: bool = True) -> StatementImport:
    """Read, match and book a bank statement. Lines already imported are skipped; a line
    that cannot be read refuses the whole file (all_or_nothing) or is reported and left out."""

    try:
        statement = read_statement(data, filename)
    except StatementError as exc:
        return StatementImport(False, [exc.problem])
    problems = [(zh, en) for _, zh, en in statement.bad_rows]
    read_as = (statement.found_text(False), statement.found_text(True))
    if problems and all_or_nothing:
        return StatementImport(False, problems, bad_rows=len(problems), read_as=read_as)

    @transactional
    def run():
        lines = statement.lines
        known = set(db.session.scalars(select(BankLine.fingerprint).where(
            BankLine.fingerprint.in_(lines["fingerprint"].tolist()))).all()) if len(lines) else set()
        fresh = lines[~lines["fingerprint"].isin(known)]
        matched = match(fresh, references(games), payer_candidates(games)) if len(fresh) else fresh
        counts = {"reference": 0, "name_amount": 0, "unmatched": 0}
        delegations = {d.id: d for d in db.session.scalars(select(Delegation).where(Delegation.games_id == games.id))}
        records = matched.to_dict("records")
        earlier = _earlier_lines(games, records, filename[:200])
        rows = []
        for i, r in enumerate(records):
            twin = earlier.get(i)
            rows.append({
                "games_id": games.id, "fingerprint": r["fingerprint"], "statement_name": filename[:200],
                "row_number": int(r["row"]), "booked_on": r["booked_on"], "amount": Decimal(r["amount"]),
                "payer": str(r["payer"])[:200], "memo": str(r.get("memo_all") or r["memo"])[:500],
                "bank_ref": str(r.get("bank_ref") or "")[:80] or None, "duplicate_of_id": twin,
                "matched_delegation_id": None if twin or _na(r["delegation_id"]) else int(r["delegation_id"]),
                "match_method": "duplicate" if twin else (None if _na(r["method"]) else r["method"])})
        # Two identical lines inside one file (same day, payer, amount, memo and bank
        # reference) are most often one payment exported twice: the second waits for the
        # accountant's word like a twin from another file (issue 25, 8).
        within: dict[int, int] = {}
        first_of: dict[tuple, int] = {}
        for i, (r, line) in enumerate(zip(records, rows)):
            if line["duplicate_of_id"] is not None:
                continue
            key = _plain_key(r["booked_on"], Decimal(r["amount"]), str(r["payer"])) + (
                " ".join(str(r["memo"]).split()), str(r.get("bank_ref") or "").strip())
            if key in first_of:
                within[i] = first_of[key]
                line["matched_delegation_id"], line["match_method"] = None, "duplicate"
            else:
                first_of[key] = i
        # Set-based (issue 27, 4): every line in one statement, their ids returned in order.
        ids = _insert_returning_ids(BankLine, rows, "fingerprint")
        for line, line_id in zip(rows, ids):
            line["id"] = line_id
        if within:
            db.session.execute(update(BankLine), [{"id": rows[i]["id"], "duplicate_of_id": rows[j]["id"]}
                                                  for i, j in within.items()])
            for i, j in within.items():
                rows[i]["duplicate_of_id"] = rows[j]["id"]
        counts["possible_duplicates"] = 0
        hooks = webhooks_of(games.id)  # read once for the whole statement
        paid: dict[int, list] = {}
        payments = []
        for line in rows:
            if line["duplicate_of_id"] is not None:
                counts["possible_duplicates"] += 1
                continue
            if line["matched_delegation_id"] is None:
                counts["unmatched"] += 1
                continue
            counts[line["match_method"]] += 1
            payments.append(line)
            if hooks:
                hook(delegations[line["matched_delegation_id"]], "payment.matched", hooks, amount=str(line["amount"]),
                     booked_on=line["booked_on"].isoformat(), method=line["match_method"])
            paid.setdefault(line["matched_delegation_id"], []).append(SimpleNamespace(**line))
        post_bank_payments(games, payments, actor)
        for delegation_id, matched in paid.items():  # one message a delegation, whatever the lines
            _tell_payment(delegations[delegation_id], matched)
        record(actor, "bank.import", "statement", filename[:200],
               after={"lines": len(lines), "new": len(fresh), "duplicates": len(lines) - len(fresh), **counts,
                      "bad_rows": len(problems)})
        return StatementImport(True, problems, imported=len(fresh), duplicates=len(lines) - len(fresh),
                               bad_rows=len(problems), read_as=read_as, **counts)
    return run()


def _earlier_lines(games, records: list[dict], statement_name: str) -> dict[int, int]:
    """For each record (by position), the line imported before from another file that is
    the same payment: same day, payer and amount, and the same bank reference where both
    files give one (two exports of one payment often differ only in the memo)."""
    from .models import BankLine
    days = {r["booked_on"] for r in records}
    if not days:
        return {}
    by_ref, any_ref, without_ref = {}, {}, {}
    for line in db.session.scalars(select(BankLine).where(BankLine.games_id == games.id,
                                                          BankLine.booked_on.in_(days),
                                                          BankLine.statement_name != statement_name,
                                                          BankLine.duplicate_of_id.is_(None))
                                   .order_by(BankLine.id)):
        plain = _plain_key(line.booked_on, line.amount, line.payer)
        any_ref.setdefault(plain, line.id)
        if line.bank_ref:
            by_ref.setdefault(plain + (line.bank_ref,), line.id)
        else:
            without_ref.setdefault(plain, line.id)
    out = {}
    for i, r in enumerate(records):
        plain = _plain_key(r["booked_on"], Decimal(r["amount"]), str(r["payer"]))
        ref = str(r.get("bank_ref") or "").strip()
        twin = (by_ref.get(plain + (ref,)) or without_ref.get(plain)) if ref else any_ref.get(plain)
        if twin:
            out[i] = twin
    return out


def payer_fits(payer: str, unit_name: str) -> bool:
    """Whether the payer reads as the delegation's own unit (a line matched by its reference
    but paid by someone else is flagged for the accountant: issue 25, 8). Names are compared
    without spaces, and a payer who is a person (2-4 characters) is taken as the unit's own
    contact, as leaders often pay themselves."""
    p, u = "".join((payer or "").split()), "".join((unit_name or "").split())
    if not p or not u:
        return True
    if p in u or u in p or (2 <= len(p) <= 4 and not any(k in p for k in ("公司", "协会", "学校", "棋院", "俱乐部"))):
        return True
    core = u.rstrip("省市区县").replace("少儿", "").replace("青少年", "")
    return len(core) >= 2 and core[:2] in p


def _plain_key(booked_on, amount: Decimal, payer: str) -> tuple:
    return (booked_on, Decimal(amount).quantize(Decimal("0.01")), " ".join(payer.split()))


@transactional
def decide_duplicate(line: BankLine, is_duplicate: bool, actor: Actor) -> Outcome:
    """The accountant's word on a possible duplicate: the same payment (kept out of the
    books), or a payment of its own (matched and booked as any other line)."""
    line = lock_row(BankLine, line.id)  # two accountants deciding the same line: one after the other
    if line.duplicate_of_id is None:
        raise Refusal("state", "这一行不是疑似重复，或已有人处理。", "This line is not a possible duplicate, or was decided.")
    record(actor, "bank.duplicate" if is_duplicate else "bank.not_duplicate", "bank_line", str(line.id),
           before={"duplicate_of": line.duplicate_of_id}, after={"statement": line.statement_name,
                                                                   "row": line.row_number})
    if is_duplicate:
        line.match_method = "duplicate_confirmed"
    else:
        line.duplicate_of_id, line.match_method = None, None
    return Outcome(True, status=Status.SAVED)


MATCH_NAMES = {"reference": "按参考码匹配", "name_amount": "按户名和金额匹配", "manual": "手工匹配"}


@transactional
def undo_match(line: BankLine, actor: Actor) -> Outcome:
    """Take back a match, made by hand or by the import (a reference another club quoted,
    a namesake's amount): the payment is reversed in the ledger (append-only), the line is
    unmatched again, to be assigned anew, and the delegation's leaders and webhooks hear
    of it. Moving a payment is this, then assign_line."""
    line = lock_row(BankLine, line.id)
    if line.match_method not in MATCH_NAMES or line.matched_delegation_id is None:
        raise Refusal("state", "这一行没有匹配到代表团，或已有人撤销。", "This line is not matched, or was unmatched meanwhile.")
    d = db.session.get(Delegation, line.matched_delegation_id)
    method = line.match_method
    post(d, "reversal", line.amount, f"撤销{MATCH_NAMES[method]}：银行到账 {line.booked_on} {line.payer}", actor,
         source_key=f"bank:{line.id}:reversal:{_reversals(line) + 1}", bank_line_id=line.id,
         value_date=line.booked_on)
    record(actor, "bank.unmatch", "bank_line", str(line.id), delegation=d,
           before={"delegation": d.id, "method": method}, after={"delegation": None})
    line.matched_delegation_id, line.match_method = None, None
    hook(d, "payment.unmatched", amount=str(line.amount), booked_on=line.booked_on.isoformat(), method=method)
    if recipients_of(d):
        owed = totals(d)["balance"]
        tell_delegation(d, "payment_unmatched", amount=f"{line.amount:,.2f}", booked_on=line.booked_on.isoformat(),
                        balance=f"{max(owed, Decimal('0.00')):,.2f}")
    return Outcome(True, status=Status.SAVED, delegation=d)


def _reversals(line) -> int:
    return db.session.scalar(select(func.count()).select_from(LedgerEntry).where(
        LedgerEntry.bank_line_id == line.id, LedgerEntry.kind == "reversal")) or 0


def _na(value) -> bool:
    import pandas as pd
    return value is None or (not isinstance(value, str) and pd.isna(value))


@transactional
def assign_line(line: BankLine, d: Delegation, actor: Actor) -> Outcome:
    """The accountant assigns an unmatched bank line to a delegation by hand, under the
    line's lock: of two accountants assigning it at once, the second is refused."""
    line = lock_row(BankLine, line.id)
    if line.matched_delegation_id is not None:
        raise Refusal("state", "这一行已匹配到代表团。", "This line is already matched to a delegation.", delegation=d)
    if line.duplicate_of_id is not None:
        raise Refusal("state", "这一行是疑似重复：请先判断是否同一笔款项。",
                      "This line may be a duplicate: decide that first.", delegation=d)
    line.matched_delegation_id, line.match_method = d.id, "manual"
    again = _reversals(line)  # matched, undone and matched again: a payment of its own each time
    post(d, "payment", line.amount, f"银行到账 {line.booked_on} {line.payer}（手工匹配）", actor,
         source_key=f"bank:{line.id}" + (f":{again}" if again else ""), bank_line_id=line.id,
         value_date=line.booked_on)
    hook(d, "payment.matched", amount=str(line.amount), booked_on=line.booked_on.isoformat(), method="manual")
    _tell_payment(d, line)
    return Outcome(True, status=Status.SAVED, delegation=d)


def totals_by_delegation(games: Games) -> dict[int, dict[str, Decimal]]:
    """totals() of every delegation of the Games, from one aggregate query."""
    sums: dict[int, dict[str, Decimal]] = {}
    q = (select(LedgerEntry.delegation_id, LedgerEntry.kind, func.sum(LedgerEntry.amount))
         .join(Delegation, Delegation.id == LedgerEntry.delegation_id)
         .where(Delegation.games_id == games.id).group_by(LedgerEntry.delegation_id, LedgerEntry.kind))
    for delegation_id, kind, amount in db.session.execute(q):
        sums.setdefault(delegation_id, {})[kind] = Decimal(amount).quantize(Decimal("0.01"))
    return {delegation_id: _with_balance(by_kind) for delegation_id, by_kind in sums.items()}


def deposits_by_delegation(games: Games) -> dict[int, dict[str, Decimal]] | None:
    """Deposits (保证金, fees returned after check-in) of every delegation: charged, returned,
    kept and still held, from one aggregate query; None where the Games take none."""
    codes = [f.code for f in definition_of(games).money.fees if f.refundable in ("after_checkin", "after_event")]
    if not codes:
        return None
    out: dict[int, dict[str, Decimal]] = {}
    for delegation_id, kind, amount in db.session.execute(
            select(LedgerEntry.delegation_id, LedgerEntry.kind, func.sum(LedgerEntry.amount))
            .join(Delegation, Delegation.id == LedgerEntry.delegation_id)
            .where(Delegation.games_id == games.id, LedgerEntry.fee_code.in_(codes),
                   LedgerEntry.kind.in_(("charge", "credit", "forfeit")))
            .group_by(LedgerEntry.delegation_id, LedgerEntry.kind)):
        row = out.setdefault(delegation_id, {"charged": Decimal("0.00"), "returned": Decimal("0.00"),
                                             "kept": Decimal("0.00")})
        row[{"charge": "charged", "credit": "returned", "forfeit": "kept"}[kind]] += Decimal(amount)
    for row in out.values():
        row["held"] = row["charged"] - row["returned"] - row["kept"]
    return out


def reconciliation(games: Games) -> list[dict]:
    units = unit_names()
    all_totals = totals_by_delegation(games)
    deposits = deposits_by_delegation(games)
    delegations = db.session.scalars(select(Delegation).where(Delegation.games_id == games.id)
                                     .order_by(Delegation.unit_code, Delegation.id)).all()
    valid = entries_valid(games, delegations)
    out = []
    for d in delegations:
        t = all_totals.get(d.id) or _with_balance({})
        out.append({"d": d, "unit": units.get(d.unit_code, d.unit_name or ""), "reference": payment_reference_of(d),
                    **t, "status": account_status(t), "valid": valid[d.id],
                    "deposit": (deposits.get(d.id) or {"charged": Decimal("0.00"), "returned": Decimal("0.00"),
                                                       "kept": Decimal("0.00"), "held": Decimal("0.00")})
                    if deposits is not None else None})
    return out


def reconciliation_names(games: Games) -> dict[int, dict]:
    """Each delegation of the Games by id: its unit's name and its payment reference, from
    two queries (for lists of bank lines and the assignment drop-down)."""
    units = unit_names()
    return {did: {"name": units.get(code, name or code or ""), "reference": ref or ""}
            for did, code, name, ref in db.session.execute(
                select(Delegation.id, Delegation.unit_code, Delegation.unit_name, Delegation.payment_reference)
                .where(Delegation.games_id == games.id).order_by(Delegation.unit_code, Delegation.id))}
