"""Reading and matching a bank statement of 50,000 lines against 60 delegations.

Run: .venv/bin/python benchmarks/reconcile_50000.py
Prints the time to read the CSV and to match every line (by reference code in the memo,
then by payer name and amount), with pandas and no Python loop per line.
"""
from __future__ import annotations

import random
import statistics
import sys
import time
from pathlib import Path

import pandas as pd

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
from portal.money.bank import match, read_statement


def build(lines: int, delegations: int) -> tuple[bytes, pd.DataFrame, pd.DataFrame]:
    rnd = random.Random(7)
    refs = [f"ZY04{i:05d}{i % 10}" for i in range(delegations)]
    names = [f"某省棋类协会{i}" for i in range(delegations)]
    out = ["中国工商银行 账户明细", "账号,6222020302059638775", "", "交易日期,摘要,收入金额,支出金额,余额,对方户名,附言"]
    for n in range(lines):
        i = rnd.randrange(delegations)
        kind = rnd.random()
        if kind < 0.5:
            payer, memo, amount = f"付款人{n}", f"{refs[i]} 报名费", rnd.choice(["200.00", "400.00", "600.00"])
        elif kind < 0.8:
            payer, memo, amount = names[i], "报名费", "600.00"
        else:
            payer, memo, amount = f"个人{n}", "转账", f"{rnd.randrange(1, 5000)}.00"
        out.append(f"2019-08-{1 + n % 28:02d},网银转入,\"{amount}\",,,{payer},{memo}")
    references = pd.DataFrame({"code": refs, "delegation_id": range(delegations)})
    payers = pd.DataFrame({"name": names, "amount_due": ["600.00"] * delegations, "delegation_id": range(delegations)})
    return "\n".join(out).encode("utf-8"), references, payers


def main() -> None:
    data, references, payers = build(50_000, 60)
    reads, matches = [], []
    for _ in range(3):
        t0 = time.perf_counter()
        statement = read_statement(data, "statement.csv")
        t1 = time.perf_counter()
        result = match(statement.lines, references, payers)
        t2 = time.perf_counter()
        reads.append(t1 - t0)
        matches.append(t2 - t1)
    methods = result["method"].value_counts(dropna=False).to_dict()
    print(f"statement: {len(statement.lines)} credit lines, 60 delegations")
    print(f"read:  {statistics.median(reads):.2f} s (median of 3)")
    print(f"match: {statistics.median(matches):.2f} s (median of 3); by method: {methods}")


if __name__ == "__main__":
    main()
