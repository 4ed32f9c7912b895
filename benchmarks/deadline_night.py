"""The deadline night: every leader of a national Games saving at once, under gunicorn
(gunicorn.conf.py) on PostgreSQL or SQLite. Each leader opens a person's form and saves a
change, again and again, for a fixed time; prints saves a minute, p50/p95 of a save, and
errors (anything but the save's redirect). Bounded in time; loopback only.

    .venv/bin/python benchmarks/deadline_night.py --db postgres --leaders 42 --seconds 60
"""
from __future__ import annotations

import argparse
import os
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


def prepare(url: str, leaders: int) -> list[tuple[str, int]]:
    os.environ["DATABASE_URL"] = url
    from portal import create_app
    app = create_app({"SECRET_KEY": "night"})
    with app.app_context():
        from flask_migrate import upgrade
        upgrade()
        from benchmarks.national import documents, load
        from portal.accounts.services import create_account
        from portal.audit.services import Actor
        from portal.games.services import load_units
        load_units()
        out = []
        for i, outcome in enumerate(load(documents(leaders, (30, 150)), submit_every=10**9)):
            name = f"night-{i}"
            create_account(name, name, "leader", Actor("b"), delegation=outcome.delegation,
                           password="night-passphrase-1")
            out.append((name, outcome.delegation.id))
        return out


def leader(base: str, username: str, delegation_id: int, until: float, results: list, lock: threading.Lock):
    from benchmarks.soak import Client
    c = Client(base)
    c.login(username)
    n = 0
    while time.time() < until:
        n += 1
        try:
            status, page = c.get(f"/d/{delegation_id}/people/p1")
            token = re.search(rb'name="csrf_token" type="hidden" value="([^"]+)"', page).group(1).decode()
            version = re.search(rb'name="version" type="hidden" value="(\d+)"', page).group(1).decode()
            number = re.search(rb'name="id_number" type="text" value="([^"]*)"', page).group(1).decode()
            data = urllib.parse.urlencode({"csrf_token": token, "version": version, "name": f"改名{n}",
                                           "id_type": "resident_id", "id_number": number}).encode()
            t = time.perf_counter()
            with c.opener.open(f"{base}/d/{delegation_id}/people/p1", data=data, timeout=60) as r:
                ok = "/people" in r.geturl() and r.status == 200
            took = time.perf_counter() - t
        except Exception:  # noqa: BLE001 - a benchmark counts every failure
            ok, took = False, 0.0
        with lock:
            results.append((ok, took))


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--db", choices=["sqlite", "postgres"], default="postgres")
    ap.add_argument("--leaders", type=int, default=42)
    ap.add_argument("--seconds", type=int, default=60)
    ap.add_argument("--workers", type=int, default=4)
    a = ap.parse_args()
    from benchmarks import soak
    workdir = Path(tempfile.mkdtemp(prefix="night-"))
    url = soak.database(a.db, workdir)
    proc = None
    try:
        soak.PASSWORD = "night-passphrase-1"
        accounts = subprocess.run([sys.executable, "-c", (
            "import json,sys; sys.path.insert(0, %r); from benchmarks.deadline_night import prepare; "
            "print(json.dumps(prepare(%r, %d)))") % (str(ROOT), url, a.leaders)], cwd=ROOT, capture_output=True,
            text=True, env={**os.environ, "DATABASE_URL": url}, timeout=1800)
        import json
        pairs = json.loads(accounts.stdout.strip().splitlines()[-1])
        port = soak.free_port()
        os.environ["RATE_LIMIT_LOGIN"] = os.environ["RATE_LIMIT_FORMS"] = "100000 per minute"
        proc = soak.start_gunicorn(url, port, a.workers, workdir / "gunicorn.log")
        results, lock = [], threading.Lock()
        until = time.time() + a.seconds
        threads = [threading.Thread(target=leader, args=(f"http://127.0.0.1:{port}", name, did, until, results, lock))
                   for name, did in pairs]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        saves = sorted(took for ok, took in results if ok)
        errors = sum(1 for ok, _ in results if not ok)
        if saves:
            p50, p95 = saves[len(saves) // 2], saves[int(len(saves) * 0.95)]
            print(f"{a.db}: {len(pairs)} leaders, {a.workers} workers, {a.seconds} s: {len(saves) * 60 / a.seconds:.0f} "
                  f"saves a minute, p50 {p50:.2f} s, p95 {p95:.2f} s, errors {errors}")
        else:
            print(f"{a.db}: no save succeeded; errors {errors}")
        return 0
    finally:
        if proc is not None:
            os.killpg(proc.pid, signal.SIGTERM)
            proc.wait(timeout=30)
        soak.drop_database(url)


if __name__ == "__main__":
    sys.exit(main())
