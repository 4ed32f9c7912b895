"""The first-come-first-served rush (issue 27, 6): the moment shaanxi-mind-2025's
registration opens, 300 people register themselves at once for its 160 places (四: "限160
人，按报名先后顺序"), each through the public form over HTTP, under gunicorn
(gunicorn.conf.py), with the portal's RQ worker beside it. Prints the answer each got (a
place or the wait list: it must be exactly 160 and 140, with no error) and how long he
waited for it (p50, p95, slowest); then, once the worker has made every delegation and
account, that the stored places agree, and how long the last account took; with the
machine's load average.

    .venv/bin/python benchmarks/rush.py [--db postgres|sqlite] [--people 300] [--workers 2]
"""
from __future__ import annotations

import argparse
import datetime as dt
import os
import statistics
import subprocess
import sys
import tempfile
import threading
import time
import urllib.parse
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
SLUG = "shaanxi-mind-2025"
OPENS = "2025-09-01T12:00:00+08:00"


def prepare(url: str) -> None:
    os.environ["DATABASE_URL"] = url
    from portal import create_app
    app = create_app({"SECRET_KEY": "rush"})
    with app.app_context():
        from flask_migrate import upgrade
        upgrade()
        from portal.games.services import load_games, load_units
        load_units()
        load_games(SLUG)


def prepare_in_child(url: str) -> None:
    """prepare() in a process of its own, so that this one imports nothing of the app."""
    subprocess.run([sys.executable, "-c", f"import sys; sys.path.insert(0, {str(ROOT)!r}); "
                    f"from benchmarks.rush import prepare; prepare({url!r})"],
                   cwd=ROOT, check=True, capture_output=True, env={**os.environ, "DATABASE_URL": url}, timeout=600)


def open_registration(queue: str) -> None:
    """The environment the servers started after it see: the clock at the opening, no rate
    limit (every entrant comes from one address here), and a job queue of this run's own."""
    for key in ("RATE_LIMIT_REGISTER", "RATE_LIMIT_FORMS", "RATE_LIMIT_LOGIN", "RATE_LIMIT_LOGIN_ADDRESS"):
        os.environ[key] = "100000 per minute"
    os.environ["PORTAL_CLOCK"] = OPENS
    os.environ["JOBS_QUEUE"] = queue


def entrant(i: int) -> dict:
    """One person as he types himself into the form."""
    from portal.rules.idnumber import make
    born = dt.date(1970 + i % 40, 1 + i % 12, 1 + i % 28)
    gender = "M" if i % 2 else "F"
    return {"name": f"选手{i:03d}", "id_type": "resident_id", "gender": gender, "birth_date": born.isoformat(),
            "id_number": make("610102", born, 2 * (i % 400) + (1 if gender == "M" else 2)), "event": "gomoku.OPEN",
            "username": f"rush{i:03d}", "password": f"amber-river-{i:03d}-stone", "confirm": f"amber-river-{i:03d}-stone"}


def register(base: str, i: int, start: threading.Barrier, results: list, lock: threading.Lock) -> None:
    from benchmarks.soak import Client, csrf_token
    c = Client(base)
    outcome, took = "error", 0.0
    try:
        _status, page = c.get(f"/register/{SLUG}")
        data = urllib.parse.urlencode({"csrf_token": csrf_token(page), **entrant(i)}).encode()
        start.wait()  # everyone presses the button in the same instant
        t = time.perf_counter()
        with c.opener.open(f"{base}/register/{SLUG}", data=data, timeout=120) as r:
            body = r.read()  # the arrival page: the answer, while the worker makes the account
            if b'id="arrival"' in body:
                outcome = "waitlisted" if "候补名单第".encode() in body else "placed"
        took = time.perf_counter() - t
    except Exception as exc:  # counted as an error, with what it was
        outcome = f"error: {type(exc).__name__}"
    with lock:
        results.append((outcome, took))


def accounts_made(url: str, since: float) -> tuple[int, int]:
    """Waits for the worker to finish every ticket; prints and returns the stored places."""
    import sqlalchemy as sa
    engine = sa.create_engine(url)
    started = time.perf_counter()
    with engine.connect() as conn:
        while True:
            pending, refused = conn.execute(sa.text(
                "SELECT count(*) FILTER (WHERE status = 'pending'), count(*) FILTER (WHERE status = 'refused') "
                "FROM arrival_ticket")).one()
            if not pending or time.perf_counter() - started > 600:
                break
            time.sleep(0.5)
        accounts = conn.execute(sa.text("SELECT count(*) FROM user_account WHERE delegation_id IS NOT NULL")).scalar()
        places = dict(conn.execute(sa.text(
            "SELECT d.status, count(*) FROM place p JOIN delegation d ON d.id = p.delegation_id GROUP BY d.status")).all())
    engine.dispose()
    print(f"  then the worker: {accounts} accounts and delegations made, the last {time.perf_counter() - since:.1f} s "
          f"after the rush began; {pending} still waiting, {refused} refused; stored: "
          f"{places.get('submitted', 0)} placed, {places.get('waitlisted', 0)} wait-listed")
    return places.get("submitted", 0), places.get("waitlisted", 0)


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--db", choices=["sqlite", "postgres"], default="postgres")
    ap.add_argument("--people", type=int, default=300)
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--other-work", type=int, default=0,
                    help="processes keeping a core busy each meanwhile (2: a shared machine at load 2)")
    a = ap.parse_args()
    from benchmarks import soak
    workdir = Path(tempfile.mkdtemp(prefix="rush-"))
    url = soak.database(a.db, workdir)
    proc = worker = None
    try:
        prepare_in_child(url)
        port = soak.free_port()
        open_registration(f"rush-{os.getpid()}")
        proc = soak.start_gunicorn(url, port, a.workers, workdir / "gunicorn.log")
        worker = soak.start_worker(url, workdir / "worker.log")
        results, lock = [], threading.Lock()
        start = threading.Barrier(a.people + 1, timeout=300)  # and this thread
        threads = [threading.Thread(target=register, args=(f"http://127.0.0.1:{port}", i, start, results, lock))
                   for i in range(a.people)]
        for t in threads:
            t.start()
        while start.n_waiting < a.people:
            time.sleep(0.01)  # every form page is fetched: the CPU counted is the answers' alone
        with soak.OtherWork(a.other_work):
            load_before = os.getloadavg()[0]
            start_cpu = soak.cpu_seconds(web=proc.pid, jobs=worker.pid)
            start.wait()
            rushed = time.perf_counter()
            for t in threads:
                t.join()
            cpu = {k: v - start_cpu[k] for k, v in soak.cpu_seconds(web=proc.pid, jobs=worker.pid).items()}
            load_after = os.getloadavg()[0]
        waits = sorted(took for outcome, took in results if not outcome.startswith("error"))
        errors = [outcome for outcome, _ in results if outcome.startswith("error")]
        placed = sum(1 for outcome, _ in results if outcome == "placed")
        waiting = sum(1 for outcome, _ in results if outcome == "waitlisted")
        print(f"{a.people} at once for 160 places, {a.db}, {a.workers} gunicorn workers"
              f"{f', {a.other_work} busy processes of other work' if a.other_work else ''}; load average "
              f"{load_before:.2f} before, {load_after:.2f} after")
        print(f"  placed {placed}, wait-listed {waiting}, errors {len(errors)} {sorted(set(errors))[:3]}")
        if waits:
            p95 = waits[int(0.95 * (len(waits) - 1))]
            print(f"  answer in: p50 {statistics.median(waits):.2f} s, p95 {p95:.2f} s, slowest {waits[-1]:.2f} s, "
                  f"over 5 s: {sum(1 for w in waits if w > 5)}")
        print("  CPU during the answers: " + ", ".join(f"{k} {v:.1f} s" for k, v in cpu.items()))
        stored = accounts_made(url, rushed)
        expected = (min(160, a.people), max(0, a.people - 160))
        return 0 if (placed, waiting, errors) == (*expected, []) and stored == expected else 1
    finally:
        for p in (proc, worker):
            if p is not None:
                os.killpg(p.pid, 15)
                p.wait(timeout=30)
        soak.drop_database(url)
        print("  logs in", workdir)


if __name__ == "__main__":
    raise SystemExit(main())
