"""The CPU of one deadline-night cycle in one process: a leader of a 150-person delegation
opens a person's form, saves a change, and is shown the people page the save answers
with. Prints the median, least and mean process CPU of a cycle (and the median of each of
its two requests) and the statements it sends; `--profile FILE` writes a cProfile of the cycles.

Process CPU, not wall time: the figure is what the cycle costs this process whatever else
the machine is doing (the database's own CPU is not in it); run it twice to see it hold.

    .venv/bin/python benchmarks/cycle_cpu.py --db postgres --cycles 40
"""
from __future__ import annotations

import argparse
import cProfile
import os
import re
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))


def run(url: str, cycles: int, size: int, profile: str | None) -> dict:
    # The deadline night of the national fixture's Games, 22:00 China time.
    os.environ.setdefault("PORTAL_CLOCK", "2009-08-20T22:00:00+08:00")
    from benchmarks.deadline_night import PASSWORD, prepare
    (username, delegation_id, ref), = prepare(url, 1, 1, (size, size))
    from benchmarks.soak import csrf_token, shows_people_page
    from portal import create_app
    from portal.extensions import db
    # Runs one after another log in from one address as one leader: no login limit between them.
    app = create_app({"SECRET_KEY": "cycle", "STAFF_TWO_FACTOR": False, "RATE_LIMIT_LOGIN": "100000 per minute",
                      "RATE_LIMIT_LOGIN_ADDRESS": "100000 per minute"})
    client = app.test_client()

    login = client.get("/login").data
    client.post("/login", data={"csrf_token": csrf_token(login), "username": username, "password": PASSWORD})
    statements = [0]
    with app.app_context():
        import sqlalchemy as sa
        sa.event.listen(db.engine, "before_cursor_execute", lambda *a: statements.__setitem__(0, statements[0] + 1))

    person = f"/d/{delegation_id}/people/{ref}"
    times: dict[str, list[float]] = {"cycle": [], "form": [], "save": []}
    counts: list[int] = []
    profiler = cProfile.Profile(time.process_time) if profile else None

    def one(n: int, measured: bool) -> None:
        before, sent = time.process_time(), statements[0]
        if profiler and measured:
            profiler.enable()
        form = client.get(person)
        assert form.status_code == 200, form.status_code
        t1 = time.process_time()
        page = form.data
        number = re.search(rb'name="id_number" type="text" value="([^"]*)"', page).group(1).decode()
        version = re.search(rb'name="version" type="hidden" value="(\d+)"', page).group(1).decode()
        base = re.search(rb'name="base" value="([^"]*)"', page)
        saved = client.post(person, data={"csrf_token": csrf_token(page), "version": version, "name": f"改名{n}",
                                          "id_type": "resident_id", "id_number": number,
                                          **({"base": base.group(1).decode()} if base else {})})
        # Answered with the people page itself (no redirect to it).
        assert shows_people_page(saved.status_code, saved.data) and f"改名{n}".encode() in saved.data, saved.status_code
        t2 = time.process_time()
        if profiler and measured:
            profiler.disable()
        if measured:
            times["cycle"].append(t2 - before)
            times["form"].append(t1 - before)
            times["save"].append(t2 - t1)
            counts.append(statements[0] - sent)

    for n in range(5):  # warm: the first requests build caches every worker builds once
        one(n, measured=False)
    for n in range(5, 5 + cycles):
        one(n, measured=True)
    if profiler:
        profiler.dump_stats(profile)
    return {"median": {k: statistics.median(v) for k, v in times.items()},
            "mean": {k: statistics.fmean(v) for k, v in times.items()},
            "least": {k: min(v) for k, v in times.items()},
            "statements": statistics.median(counts)}


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--db", choices=["sqlite", "postgres"], default="postgres")
    ap.add_argument("--cycles", type=int, default=40)
    ap.add_argument("--size", type=int, default=150, help="people in the delegation")
    ap.add_argument("--profile", help="write a cProfile (process CPU) of the measured cycles here")
    args = ap.parse_args(argv)
    load = os.getloadavg()[0]
    from benchmarks.soak import database, drop_database
    url = database(args.db, Path(tempfile.mkdtemp(prefix="cycle-")))
    try:
        out = run(url, args.cycles, args.size, args.profile)
    finally:
        drop_database(url)
    ms = {k: {p: round(v * 1000, 1) for p, v in out[k].items()} for k in ("median", "mean", "least")}
    print(f"{args.size} people, {args.db}, {args.cycles} cycles, load {load:.1f} before: "
          f"cycle median {ms['median']['cycle']} ms (least {ms['least']['cycle']}, mean {ms['mean']['cycle']}); "
          f"form {ms['median']['form']}, save with the page it answers with {ms['median']['save']} ms; "
          f"{out['statements']:.0f} statements")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
