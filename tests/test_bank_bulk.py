"""A big bank statement is booked set-based (issue 27, 4): the CI-sized run of
benchmarks/bank_import.py, checked line by line on the suite's database: every matched line
one payment on its delegation's ledger with its audit record, the rest left unmatched,
nothing booked twice on a second import."""
import datetime as dt
import sys
from decimal import Decimal
from pathlib import Path

from builders import doc, individual, person


def test_a_statement_of_3000_lines_is_booked_exactly(app, db):
    from sqlalchemy import func, select

    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
    from benchmarks.bank_import import statement
    from portal.audit.models import AuditLog
    from portal.audit.services import Actor
    from portal.games.services import find_games, unit_names
    from portal.money.models import BankLine, LedgerEntry
    from portal.money.services import import_statement, payment_reference_of, post, totals
    from portal.workflow.services import new_delegation, save, submit
    china = dt.timezone(dt.timedelta(hours=8))
    games = find_games("nmsg-2019")
    delegations = []
    for i, unit in enumerate(("hunan", "hubei", "henan", "hebei", "shanxi")):
        d = save(new_delegation(games, unit), doc("nmsg-2019", unit=unit, people=[person("p1", year=2019, unit=unit)],
                                                  entries=[individual("chess.MI", "p1")]), Actor("t"),
                 dt.datetime(2019, 5, 1, tzinfo=china)).delegation
        assert submit(d, Actor("t"), dt.datetime(2019, 5, 2, tzinfo=china)).ok
        post(d, "charge", Decimal(600 + 100 * i), "报名费", Actor("t"), source_key=f"t:{d.id}")
        delegations.append(d)
    db.session.commit()
    names = unit_names()
    data = statement([payment_reference_of(d) for d in delegations], [names[d.unit_code] for d in delegations], 3000,
                     [f"{totals(d)['balance']:.2f}" for d in delegations])
    result = import_statement(games, data, "icbc-august.csv", Actor("财务"))
    assert result.ok and result.imported == 3000
    assert result.reference > 1000 and result.name_amount > 500 and result.unmatched > 500
    assert result.reference + result.name_amount + result.unmatched + result.possible_duplicates == 3000
    db.session.rollback()
    lines = db.session.scalars(select(BankLine).where(BankLine.statement_name == "icbc-august.csv")).all()
    assert len(lines) == 3000 and len({x.fingerprint for x in lines}) == 3000
    payments = {e.bank_line_id: e for e in db.session.scalars(select(LedgerEntry).where(LedgerEntry.kind == "payment"))}
    matched = [x for x in lines if x.matched_delegation_id is not None]
    assert len(matched) == result.reference + result.name_amount == len(payments)
    for line in matched:  # each its own payment, on its own delegation, of its own amount and day
        entry = payments[line.id]
        assert (entry.delegation_id, entry.amount, entry.value_date, entry.source_key) == (
            line.matched_delegation_id, line.amount, line.booked_on, f"bank:{line.id}")
        assert entry.created_at is not None and entry.actor == "财务"
    audited = dict(db.session.execute(select(AuditLog.object_key, AuditLog.delegation_id)
                                      .where(AuditLog.action == "ledger.payment")).all())
    assert audited == {str(e.id): e.delegation_id for e in payments.values()}
    row = db.session.scalar(select(AuditLog).where(AuditLog.action == "ledger.payment").limit(1))
    assert row.games_slug == "nmsg-2019" and row.after["kind"] == "payment" and row.at is not None
    # Each delegation's balance moved by exactly its lines.
    for d in delegations:
        paid = sum((x.amount for x in matched if x.matched_delegation_id == d.id), Decimal("0"))
        assert totals(d)["payment"] == paid
    # The same file again: nothing new.
    again = import_statement(games, data, "icbc-august.csv", Actor("财务"))
    assert again.ok and again.imported == 0 and again.duplicates == 3000
    db.session.rollback()
    assert db.session.scalar(select(func.count(LedgerEntry.id)).where(LedgerEntry.kind == "payment")) == len(payments)
