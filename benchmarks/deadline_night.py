"""The deadline night: every leader of a national Games saving at once, under gunicorn
(gunicorn.conf.py) on PostgreSQL or SQLite. Each leader opens a person's form and saves a
change, again and again, for a fixed time; prints saves a minute, p50/p95 of a save, and
errors (anything but the save's redirect). Bounded in time; loopback only.

    .venv/bin/python benchmarks/deadline_night.py --db postgres --leaders 50 --seconds 60
"""
from __future__ import annotations

import argparse
import os
import random
import re
import signal
import subprocess
import sys
import tempfile
import threading
import time
import urllib.parse
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
PASSWORD = "night-passphrase-1"  # every leader's
results_errors: dict[str, int] = {}  # what the failed saves met, by kind


def prepare(url: str, leaders: int, units: int = 43, sizes: tuple[int, int] = (30, 150)) -> list[tuple[str, int, str]]:
    """One delegation per unit (`units` at most); beyond that, a unit's second and third
    leaders, each editing a different person of the same delegation."""
    os.environ["DATABASE_URL"] = url
    from portal import create_app
    app = create_app({"SECRET_KEY": "night", "STAFF_TWO_FACTOR": False})
    with app.app_context():
        from flask_migrate import upgrade
        upgrade()
        from benchmarks.national import documents, load
        from portal.accounts.services import create_account
        from portal.audit.services import Actor
        from portal.extensions import db
        from portal.games.services import load_units
        load_units()
        out = []
        delegations = [o.delegation for o in load(documents(min(leaders, units), sizes), submit_every=10**9)]
        for i in range(leaders):
            name, d = f"night-{i}", delegations[i % len(delegations)]
            create_account(name, name, "leader", Actor("b"), delegation=d, password=PASSWORD)
            out.append((name, d.id, f"p{1 + i // len(delegations)}"))
        if db.engine.dialect.name == "postgresql":
            # What autovacuum does within a minute of a bulk load, on a database that has
            # been open for weeks: plans made on an empty table's statistics walk every
            # person of the Games to find one delegation's shared numbers.
            db.session.commit()
            with db.engine.connect().execution_options(isolation_level="AUTOCOMMIT") as conn:
                conn.exec_driver_sql("ANALYZE")
        return out


class _Done(Exception):
    """The co-leaders' save is done (leaves the person form's steps)."""


def one_event_save(c, base: str, delegation_id: int, ref: str) -> str:
    """Co-leaders on one event: open the entries page, take this leader's own player (`ref`)
    off the delegation's first individual event, or enter him, as the event's form shows it
    (the people it lists, ticked). Returns the outcome."""
    from benchmarks.soak import csrf_token
    status, page = c.get(f"/d/{delegation_id}/entries")
    token = csrf_token(page)
    form = re.search(rb'<form[^>]*>(?:(?!</form>).)*?name="base_people" value="([^"]*)"(?:(?!</form>).)*?</form>',
                     page, re.S)
    if form is None:
        return "error"
    body = form.group(0)
    event = re.search(rb'name="event" value="([^"]+)"', body).group(1).decode()
    version = re.search(rb'name="version"[^>]*value="(\d+)"|value="(\d+)"[^>]*name="version"', body)
    shown = [r for r in form.group(1).decode().split(",") if r]
    people = [r for r in shown if r != ref] if ref in shown else shown + [ref]
    data = urllib.parse.urlencode([("csrf_token", token), ("version", next(g for g in version.groups() if g).decode()),
                                   ("event", event), ("base_people", ",".join(shown))]
                                  + [("people", r) for r in people if r != ref or ref in shown]
                                  + ([("add", ref)] if ref not in shown else [])).encode()
    with c.opener.open(f"{base}/d/{delegation_id}/entries", data=data, timeout=60) as r:
        r.read()
        return "saved" if r.status == 200 and urllib.parse.urlsplit(r.geturl()).path.endswith("/entries") else "error"


def leader(base: str, username: str, delegation_id: int, ref: str, until: float, results: list,
           lock: threading.Lock, pace: float = 0.0, same_event: bool = False, ready: threading.Barrier | None = None):
    """Open the person's form, save a change; when another leader of the unit saved in
    between (the optimistic lock refuses a stale form), open it again and save again, as
    the page tells a user to. `same_event`: enter or withdraw one's own player in the
    event co-leaders of the unit are all entering (one_event_save). `ready`: every leader
    logs in before the clock and the CPU count start (a login's scrypt hash is no save's)."""
    from benchmarks.soak import Client, csrf_token, shows_people_page
    c = Client(base)
    try:
        c.login(username)
    finally:
        if ready is not None:
            ready.wait()
    n = 0
    # Leaders do not all click in the same instant: start somewhere within one pace.
    time.sleep(random.uniform(0, pace))
    until += time.time()  # each leader works for the same length of time
    while time.time() < until:
        n += 1
        started = time.time()
        outcome = "error"
        try:
            if same_event:
                t = time.perf_counter()
                outcome = one_event_save(c, base, delegation_id, ref)
                took = time.perf_counter() - t
                raise _Done
            status, page = c.get(f"/d/{delegation_id}/people/{ref}")
            token = csrf_token(page)
            version = re.search(rb'name="version" type="hidden" value="(\d+)"', page).group(1).decode()
            number = re.search(rb'name="id_number" type="text" value="([^"]*)"', page).group(1).decode()
            # The fingerprint of the person as the form showed him, as a browser sends it: a
            # co-leader's save of another person meanwhile merges instead of refusing.
            base_print = re.search(rb'name="base" value="([^"]*)"', page)
            data = urllib.parse.urlencode({"csrf_token": token, "version": version, "name": f"改名{n}",
                                           "id_type": "resident_id", "id_number": number,
                                           **({"base": base_print.group(1).decode()} if base_print else {})}).encode()
            t = time.perf_counter()
            with c.opener.open(f"{base}/d/{delegation_id}/people/{ref}", data=data, timeout=60) as r:
                body = r.read()
                if shows_people_page(r.status, body):
                    outcome = "saved"
                elif "已在其他窗口或由其他人修改过".encode() in body or b'id="conflict"' in body:
                    outcome = "conflict"
            took = time.perf_counter() - t
        except _Done:
            pass
        except Exception as exc:
            took = 0.0
            with lock:
                kinds = results_errors.setdefault(type(exc).__name__ + (f" {exc.code}" if hasattr(exc, "code") else ""), 0)
                results_errors[type(exc).__name__ + (f" {exc.code}" if hasattr(exc, "code") else "")] = kinds + 1
        with lock:
            results.append((outcome, took))
        # A leader types between two saves: one save every `pace` seconds (0: none). A
        # refused stale form is opened and saved again at once.
        if outcome != "conflict":
            time.sleep(max(0.0, pace - (time.time() - started)))


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--db", choices=["sqlite", "postgres"], default="postgres")
    ap.add_argument("--leaders", type=int, default=50)
    ap.add_argument("--seconds", type=int, default=60)
    ap.add_argument("--workers", type=int, default=4)
    ap.add_argument("--worker-class", default="sync", help="gunicorn's worker class (sync, gthread)")
    ap.add_argument("--threads", type=int, default=1, help="threads per worker (gthread)")
    ap.add_argument("--units", type=int, default=43, help="delegations (leaders beyond them are co-leaders)")
    ap.add_argument("--sizes", type=lambda v: tuple(int(x) for x in v.split(",")), default=(30, 150),
                    help="smallest,largest delegation")
    ap.add_argument("--same-event", action="store_true",
                    help="co-leaders of a unit all entering their own players in one event (issue 41, 3)")
    ap.add_argument("--other-work", type=int, default=0,
                    help="processes keeping a core busy each meanwhile (2: a shared machine at load 2)")
    ap.add_argument("--pace", type=float, default=5.0,
                    help="seconds between one leader's saves (typing time); 0 for back-to-back saves")
    a = ap.parse_args(argv)
    from benchmarks import soak
    workdir = Path(tempfile.mkdtemp(prefix="night-"))
    url = soak.database(a.db, workdir)
    proc = None
    try:
        soak.PASSWORD = PASSWORD
        accounts = subprocess.run([sys.executable, "-c", (
            f"import json,sys; sys.path.insert(0, {str(ROOT)!r}); from benchmarks.deadline_night import prepare; "
            f"print(json.dumps(prepare({url!r}, {int(a.leaders)}, {int(a.units)}, ({int(a.sizes[0])}, {int(a.sizes[1])}))))")], cwd=ROOT, capture_output=True,
            text=True, env={**os.environ, "DATABASE_URL": url}, timeout=1800)
        import json
        pairs = json.loads(accounts.stdout.strip().splitlines()[-1])
        port = soak.free_port()
        os.environ["RATE_LIMIT_LOGIN"] = os.environ["RATE_LIMIT_FORMS"] = "100000 per minute"
        os.environ["RATE_LIMIT_LOGIN_ADDRESS"] = "100000 per minute"
        # The night before nmsg-2009's names deadline: saves are open.
        os.environ["PORTAL_CLOCK"] = "2009-08-20T22:00:00+08:00"
        os.environ["GUNICORN_WORKER_CLASS"], os.environ["GUNICORN_THREADS"] = a.worker_class, str(a.threads)
        proc = soak.start_gunicorn(url, port, a.workers, workdir / "gunicorn.log")
        results, lock = [], threading.Lock()
        until = a.seconds
        ready = threading.Barrier(len(pairs) + 1)
        threads = [threading.Thread(target=leader, args=(f"http://127.0.0.1:{port}", name, did, ref, until,
                                                         results, lock, a.pace, a.same_event, ready))
                   for name, did, ref in pairs]
        with soak.OtherWork(a.other_work):
            for t in threads:
                t.start()
            ready.wait()  # every leader logged in: the saves begin
            load_before, cpu_before = os.getloadavg()[0], soak.cpu_seconds(web=proc.pid)
            for t in threads:
                t.join()
            cpu = {k: v - cpu_before[k] for k, v in soak.cpu_seconds(web=proc.pid).items()}
            load_after = os.getloadavg()[0]
        saves = sorted(took for outcome, took in results if outcome == "saved")
        conflicts = sum(1 for outcome, _ in results if outcome == "conflict")
        errors = sum(1 for outcome, _ in results if outcome == "error")
        if saves:
            p50, p95 = saves[len(saves) // 2], saves[int(len(saves) * 0.95)]
            print(f"{a.db}: {len(pairs)} leaders, one save every {a.pace:g} s each, {a.workers} {a.worker_class} workers"
                  f"{f' x {a.threads} threads' if a.threads > 1 else ''}, {a.seconds} s: {len(saves) * 60 / a.seconds:.0f} "
                  f"saves a minute, p50 {p50:.2f} s, p95 {p95:.2f} s, errors {errors}, "
                  f"stale forms refused and redone {conflicts}; the errors: {results_errors or 'none'}")
            print(f"  load average {load_before:.2f} before, {load_after:.2f} after"
                  f"{f' ({a.other_work} busy processes of other work)' if a.other_work else ''}; CPU per save "
                  "(its form, and the save answered with the people page): "
                  + ", ".join(f"{k} {1000 * v / len(saves):.0f} ms" for k, v in cpu.items() if k != "jobs"))
        else:
            print(f"{a.db}: no save succeeded; errors {errors}")
        if errors:  # what the server said, for the reader to see why
            log = (workdir / "gunicorn.log").read_text(errors="replace")
            print("gunicorn log, last lines:\n" + "\n".join(log.splitlines()[-15:]))
        return 1 if errors or not saves else 0  # a failed save is a failed run
    finally:
        if proc is not None:
            os.killpg(proc.pid, signal.SIGTERM)
            proc.wait(timeout=30)
        soak.drop_database(url)


if __name__ == "__main__":
    sys.exit(main())
