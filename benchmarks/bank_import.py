"""A first 50,000-line bank statement booked end to end (issue 27, 4): read, matched against
the Games' delegations (by reference, by payer and amount), its lines stored, the payments
posted to the ledgers and the leaders told, in one transaction, on a real database.

    .venv/bin/python benchmarks/bank_import.py [--db sqlite|postgres] [--lines 50000] [--units 42] [--profile]

Prints the time of the first import and of a second (every line already imported), and
the machine's load average beside them."""
from __future__ import annotations

import argparse
import os
import random
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))


def statement(references: list[str], names: list[str], lines: int, dues: list[str] | None = None) -> bytes:
    """An ICBC export as accountants download it: half the lines quote a delegation's
    reference, a quarter come from the unit by name (the amount it owes), the rest are
    other credits."""
    rnd = random.Random(7)
    out = ["中国工商银行 账户明细", "账号,6222020302059638775", "", "交易日期,摘要,收入金额,支出金额,余额,对方户名,附言"]
    for n in range(lines):
        i = rnd.randrange(len(references))
        kind = rnd.random()
        if kind < 0.5:
            payer, memo, amount = f"付款人{n}", f"{references[i]} 报名费", rnd.choice(["200.00", "400.00", "600.00"])
        elif kind < 0.75:
            payer, memo, amount = names[i], "报名费", dues[i] if dues else "600.00"
        else:
            payer, memo, amount = f"个人{n}", "转账", f"{rnd.randrange(1, 5000)}.00"
        out.append(f"2019-08-{1 + n % 28:02d},网银转入,\"{amount}\",,,{payer},{memo} 第{n}笔")
    return "\n".join(out).encode("utf-8")


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--db", choices=["sqlite", "postgres"], default="sqlite")
    ap.add_argument("--lines", type=int, default=50_000)
    ap.add_argument("--units", type=int, default=42)
    ap.add_argument("--profile", action="store_true")
    a = ap.parse_args()
    from benchmarks.soak import on_scratch_database
    return on_scratch_database(a.db, "bank-", lambda app: run(a))


def run(a) -> int:
    """Inside on_scratch_database's app context."""
    from benchmarks.national import documents, load
    from portal.audit.services import Actor
    from portal.extensions import db
    from portal.games.services import unit_names
    from portal.money.services import import_statement, payment_reference_of, sync_charges, totals
    outcomes = load(documents(a.units, (30, 60)), submit_every=1)
    delegations = [o.delegation for o in outcomes]
    from decimal import Decimal

    from portal.money.services import post
    for i, d in enumerate(delegations):  # nmsg-2009 charges no entry fee: each owes a sum here
        sync_charges(d, Actor("b"))
        post(d, "charge", Decimal(600 + 100 * (i % 5)), "报名费", Actor("b"), source_key=f"bench:{d.id}")
    db.session.commit()
    names = unit_names()
    references = [payment_reference_of(d) for d in delegations]
    dues = [f"{totals(d)['balance']:.2f}" if totals(d)["balance"] > 0 else "600.00" for d in delegations]
    data = statement(references, [names.get(d.unit_code, d.unit_code) for d in delegations], a.lines, dues)
    games = delegations[0].games
    load_avg = os.getloadavg()
    timings = []
    for attempt in ("first", "again"):
        t0 = time.perf_counter()
        if a.profile and attempt == "first":
            import cProfile
            import pstats
            profile = cProfile.Profile()
            result = profile.runcall(import_statement, games, data, "icbc-august.csv", Actor("财务"))
            pstats.Stats(profile).sort_stats("cumulative").print_stats(25)
        else:
            result = import_statement(games, data, "icbc-august.csv", Actor("财务"))
        timings.append((attempt, time.perf_counter() - t0, result))
    print(f"{a.lines} lines, {len(delegations)} delegations, {a.db}; load average {load_avg[0]:.2f}")
    for attempt, seconds, result in timings:
        print(f"  {attempt}: {seconds:.1f} s  imported {result.imported}, by reference {result.reference}, "
              f"by payer and amount {result.name_amount}, unmatched {result.unmatched}, "
              f"possible duplicates {result.possible_duplicates}, already imported {result.duplicates}")
    return 0 if timings[0][2].ok else 1


if __name__ == "__main__":
    raise SystemExit(main())
