"""Soak the portal under gunicorn: a generated Games, every heavy page requested N times
per role, and a count of what went wrong (dropped connections, non-200 answers, worker
deaths seen in gunicorn's log). Exit status 1 if anything did.

    .venv/bin/python benchmarks/soak.py --db sqlite --units 43 --big 1000,2000 --requests 20
    .venv/bin/python benchmarks/soak.py --db postgres --units 43 --big 1000,2000 --requests 20
    .venv/bin/python benchmarks/soak.py --db postgres --debug-malloc --max-requests 2

Workers are recycled every 3 requests by default, so that every heavy page is often the
first request of a fresh worker: issue 13's crash (CPython 3.11) came only then, which is
why earlier soak runs, each worker warmed by a login first, never saw it.

The CI-sized run is tests/test_soak.py (a few delegations, a few requests per page)."""
from __future__ import annotations

import argparse
import http.cookiejar
import os
import re
import signal
import socket
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.parse
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
PASSWORD = "soak-test-passphrase-1"
PG_ADMIN = "postgresql+psycopg://postgres@127.0.0.1:5432/postgres"


def database(kind: str, workdir: Path) -> str:
    if kind == "sqlite":
        return f"sqlite:///{workdir / 'soak.db'}"
    import sqlalchemy as sa
    name = f"soak_{os.getpid()}"
    engine = sa.create_engine(PG_ADMIN, isolation_level="AUTOCOMMIT")
    with engine.connect() as conn:
        conn.exec_driver_sql(f'DROP DATABASE IF EXISTS "{name}"')
        conn.exec_driver_sql(f'CREATE DATABASE "{name}"')
    engine.dispose()
    return f"postgresql+psycopg://postgres@127.0.0.1:5432/{name}"


def drop_database(url: str) -> None:
    if url.startswith("postgresql"):
        import sqlalchemy as sa
        engine = sa.create_engine(PG_ADMIN, isolation_level="AUTOCOMMIT")
        with engine.connect() as conn:
            conn.exec_driver_sql(f'DROP DATABASE IF EXISTS "{url.rsplit("/", 1)[1]}" WITH (FORCE)')
        engine.dispose()


def on_scratch_database(kind: str, prefix: str, run) -> int:
    """`run(app)` inside an app context on a database of its own (created, then dropped),
    with the schema, the units and the universities loaded."""
    import tempfile
    url = database(kind, Path(tempfile.mkdtemp(prefix=prefix)))
    os.environ["DATABASE_URL"] = url
    try:
        from portal import create_app
        app = create_app({"SECRET_KEY": "bench"})
        with app.app_context():
            from flask_migrate import upgrade
            upgrade()
            from portal.config import DEFAULT_UNIVERSITIES_CSV
            from portal.games.services import import_universities, load_units
            load_units()
            import_universities(DEFAULT_UNIVERSITIES_CSV)
            return run(app)
    finally:
        drop_database(url)


def prepare(url: str, units: int, sizes: tuple[int, int], big: tuple[int, ...]) -> dict:
    """Schema, reference data, the Games and its delegations, one account per role."""
    os.environ["DATABASE_URL"] = url
    from portal import create_app
    app = create_app({"SECRET_KEY": "soak", "STAFF_TWO_FACTOR": False})
    with app.app_context():
        from flask_migrate import upgrade
        upgrade()
        from benchmarks.national import documents, load
        from portal.accounts.services import create_account
        from portal.audit.services import Actor
        from portal.config import DEFAULT_UNIVERSITIES_CSV
        from portal.games.services import import_universities, load_units
        load_units()
        import_universities(DEFAULT_UNIVERSITIES_CSV)
        docs = documents(units, sizes, big)
        started = time.perf_counter()
        outcomes = load(docs)
        loaded = time.perf_counter() - started
        biggest = max(outcomes, key=lambda o: len(o.delegation.people)).delegation
        create_account("soak-org", "组委会", "organiser", Actor("soak"), password=PASSWORD, games=[biggest.games])
        create_account("soak-acc", "财务", "accountant", Actor("soak"), password=PASSWORD, games=[biggest.games])
        create_account("soak-leader", "领队", "leader", Actor("soak"), delegation=biggest, password=PASSWORD)
        return {"people": sum(len(d["people"]) for d in docs), "delegations": len(docs), "load_s": loaded,
                "big_id": biggest.id}


class OtherWork:
    """`n` processes that keep a core busy each, as the machine's other work does (a shared
    machine at load 2 has two such): started before the measurement, stopped after it, so
    that a figure "at load 2" can be measured again on a quiet machine. Their CPU is not
    the portal's and is not counted (cpu_seconds follows the portal's own processes)."""

    def __init__(self, n: int):
        self.n, self.procs = n, []

    def __enter__(self):
        spin = "import time\nwhile True:\n    sum(i * i for i in range(100_000))\n"
        self.procs = [subprocess.Popen([sys.executable, "-c", spin], start_new_session=True) for _ in range(self.n)]
        if self.n:
            time.sleep(2)  # at work before the portal is asked anything
        return self

    def __exit__(self, *_exc):
        for proc in self.procs:
            proc.kill()
            proc.wait(timeout=10)


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Client:
    def __init__(self, base: str):
        self.base = base
        self.opener = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(http.cookiejar.CookieJar()))

    def get(self, path: str, timeout: float = 120) -> tuple[int, bytes]:
        try:
            with self.opener.open(self.base + path, timeout=timeout) as r:
                return r.status, r.read()
        except urllib.error.HTTPError as e:
            return e.code, e.read()

    def login(self, username: str) -> None:
        _status, page = self.get("/login")
        token = re.search(rb'name="csrf_token" type="hidden" value="([^"]+)"', page) or \
            re.search(rb'name="csrf_token" value="([^"]+)"', page)
        data = urllib.parse.urlencode({"csrf_token": token.group(1).decode(), "username": username,
                                       "password": PASSWORD}).encode()
        with self.opener.open(self.base + "/login", data=data, timeout=60) as r:
            if "/login" in r.geturl():
                raise RuntimeError(f"login as {username} failed")


def redis_url() -> str:
    """The Redis the servers and workers a benchmark starts use (limits, jobs, shared caches)."""
    return os.environ.get("REDIS_URL", "redis://127.0.0.1:6379/0")


def shows_people_page(status: int, body: bytes) -> bool:
    """A person's save answered as it should be: with the people page itself (its address
    set by the page, static/address.js), not a form shown again."""
    return status == 200 and re.search(rb'<main data-page-address="[^"]*/people[?#"]', body) is not None


def csrf_token(page: bytes) -> str:
    """The CSRF token of the first form on a page, as Flask-WTF renders it."""
    return re.search(rb'name="csrf_token" type="hidden" value="([^"]+)"', page).group(1).decode()


def cpu_seconds(web: int | None = None, jobs: int | None = None) -> dict[str, float]:
    """CPU seconds used so far by this benchmark's own processes: the gunicorn it started
    (`web`: the master's pid) with its workers, the jobs worker it started (`jobs`), and its
    own process (the client threads); and the database's processes. Read from /proc.

    Only the trees of the pids given count, never another gunicorn on the host (a shared
    machine ran two benchmarks at once and printed "web -77 ms per save"); a worker recycled
    meanwhile is counted through its master's cutime/cstime (the CPU of children it reaped),
    so no exit makes the figure go backwards. Without pids, web and jobs are 0."""
    tick = os.sysconf("SC_CLK_TCK")
    used = {"web": 0.0, "jobs": 0.0, "database": 0.0, "client": 0.0}
    parent, spent, reaped, commands = {}, {}, {}, {}
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            cmd = (entry / "cmdline").read_bytes().replace(b"\0", b" ")
            fields = (entry / "stat").read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        pid = int(entry.name)
        parent[pid] = int(fields[1])
        spent[pid] = (int(fields[11]) + int(fields[12])) / tick  # utime + stime
        reaped[pid] = (int(fields[13]) + int(fields[14])) / tick  # cutime + cstime: children waited for
        commands[pid] = cmd
    roots = {pid: kind for kind, pid in (("web", web), ("jobs", jobs)) if pid}

    def tree_of(pid: int) -> str | None:
        seen = 0
        while pid and seen < 64:
            if pid in roots:
                return roots[pid]
            pid, seen = parent.get(pid, 0), seen + 1
        return None
    for pid, seconds in spent.items():
        cmd = commands[pid]
        if pid == os.getpid():
            used["client"] += seconds
        elif (kind := tree_of(pid)) is not None:
            used[kind] += seconds + (reaped[pid] if pid in roots else 0.0)
        elif cmd.startswith(b"postgres") or b"postgres:" in cmd:
            used["database"] += seconds
    return used


def start_gunicorn(url: str, port: int, workers: int, log: Path, max_requests: int = 0,
                   debug_malloc: bool = False) -> subprocess.Popen:
    """max_requests recycles each worker after that many requests, so that heavy pages are
    often the first request of a fresh worker (issue 13's crash came only then);
    debug_malloc runs the workers with CPython's debug allocator, which turns a
    use-after-free into a crash every time."""
    env = {**os.environ, "DATABASE_URL": url, "SECRET_KEY": "soak", "STAFF_TWO_FACTOR": "0", "PYTHONFAULTHANDLER": "1",
           "REDIS_URL": redis_url(),
           "GUNICORN_WORKERS": str(workers), "GUNICORN_BIND": f"127.0.0.1:{port}"}
    if max_requests:
        env.update(GUNICORN_MAX_REQUESTS=str(max_requests), GUNICORN_MAX_REQUESTS_JITTER="0")
    if debug_malloc:
        env["PYTHONMALLOC"] = "debug"
    with log.open("wb") as out:  # the server writes to its own copy of the file
        proc = subprocess.Popen([sys.executable, "-m", "gunicorn", "-c", str(ROOT / "gunicorn.conf.py"), "app:app"],
                                cwd=ROOT, env=env, stdout=out, stderr=subprocess.STDOUT, start_new_session=True)
    for _ in range(120):
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=0.5):
                return proc
        except OSError:
            time.sleep(0.25)
    proc.kill()
    raise RuntimeError("gunicorn did not start: " + log.read_text(errors="replace")[-2000:])


def start_worker(url: str, log: Path) -> subprocess.Popen:
    """The portal's RQ worker (`flask jobs worker`, at its lower CPU priority) on the queue
    that start_gunicorn's workers use (JOBS_QUEUE, set by the caller)."""
    env = {**os.environ, "DATABASE_URL": url, "SECRET_KEY": "soak", "PYTHONFAULTHANDLER": "1",
           "REDIS_URL": redis_url(), "FLASK_APP": "app"}
    with log.open("wb") as out:
        return subprocess.Popen([sys.executable, "-m", "flask", "jobs", "worker"], cwd=ROOT, env=env, stdout=out,
                                stderr=subprocess.STDOUT, start_new_session=True)


def soak(base: str, pages: dict[str, list[str]], requests: int) -> dict:
    results = {"requests": 0, "dropped": 0, "bad_status": 0, "times": {}}
    for username, paths in pages.items():
        client = Client(base)
        client.login(username)
        for path in paths:
            times = results["times"].setdefault(f"{username} {path}", [])
            for _ in range(requests):
                results["requests"] += 1
                started = time.perf_counter()
                try:
                    status, _body = client.get(path)
                except (urllib.error.URLError, ConnectionError, OSError):
                    results["dropped"] += 1
                    continue
                times.append(time.perf_counter() - started)
                if status != 200:
                    results["bad_status"] += 1
    return results


def run(db: str, units: int, sizes: tuple[int, int], big: tuple[int, ...], requests: int, workers: int,
        quiet: bool = False, only: str | None = None, max_requests: int = 0, debug_malloc: bool = False) -> dict:
    workdir = Path(tempfile.mkdtemp(prefix="soak-"))
    url = database(db, workdir)
    proc = None
    try:
        # Set-up in a child process: the server must not inherit anything from it.
        info = subprocess.run([sys.executable, "-c", (
            f"import json,sys; sys.path.insert(0, {str(ROOT)!r}); from benchmarks.soak import prepare; "
            f"print(json.dumps(prepare({url!r}, {int(units)}, {sizes!r}, {big!r})))")],
            cwd=ROOT, capture_output=True, text=True, env={**os.environ, "DATABASE_URL": url}, timeout=3600)
        if info.returncode != 0:
            raise RuntimeError(info.stderr[-3000:])
        import json
        facts = json.loads(info.stdout.strip().splitlines()[-1])
        port = free_port()
        log = workdir / "gunicorn.log"
        proc = start_gunicorn(url, port, workers, log, max_requests, debug_malloc)
        big_id = facts["big_id"]
        pages = {
            "soak-org": ["/org/games/nmsg-2009", "/org/", "/org/queue", f"/org/d/{big_id}",
                         "/org/games/nmsg-2009/export/roster.csv"],
            "soak-acc": ["/money/?games=nmsg-2009"],
            "soak-leader": [f"/d/{big_id}", f"/d/{big_id}/people", f"/d/{big_id}/entries"],
        }
        if only:
            pages = {user: [p for p in paths if only in p] for user, paths in pages.items()}
        results = soak(f"http://127.0.0.1:{port}", {u: p for u, p in pages.items() if p}, requests)
        text = log.read_text(errors="replace")
        results["worker_deaths"] = len(re.findall(r"terminated due to signal|WORKER TIMEOUT|was sent SIG", text))
        results.update(facts)
        results["log_tail"] = text[-3000:] if results["worker_deaths"] or results["dropped"] else ""
        if not quiet:
            report(db, results)
        return results
    finally:
        if proc is not None:
            os.killpg(proc.pid, signal.SIGTERM)
            try:
                proc.wait(timeout=30)
            except subprocess.TimeoutExpired:
                os.killpg(proc.pid, signal.SIGKILL)
        drop_database(url)


def report(db: str, r: dict) -> None:
    print(f"{db}: {r['delegations']} delegations, {r['people']} people (loaded in {r['load_s']:.1f} s)")
    print(f"{'page':58} {'n':>4} {'p50 s':>7} {'max s':>7}")
    for key, times in r["times"].items():
        if times:
            times = sorted(times)
            print(f"{key:58} {len(times):4d} {times[len(times) // 2]:7.2f} {times[-1]:7.2f}")
    print(f"requests {r['requests']}, dropped {r['dropped']}, non-200 {r['bad_status']}, "
          f"worker deaths {r['worker_deaths']}")
    if r["log_tail"]:
        print(r["log_tail"])


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--db", choices=["sqlite", "postgres", "both"], default="both")
    ap.add_argument("--units", type=int, default=43)
    ap.add_argument("--sizes", default="30,150")
    ap.add_argument("--big", default="1000,2000")
    ap.add_argument("--requests", type=int, default=20)
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--only", default=None, help="only the pages whose path contains this")
    ap.add_argument("--max-requests", type=int, default=3,
                    help="recycle each worker after this many requests (0: gunicorn.conf.py's 1000)")
    ap.add_argument("--debug-malloc", action="store_true", help="workers on CPython's debug allocator")
    a = ap.parse_args()
    sizes = tuple(int(x) for x in a.sizes.split(","))
    big = tuple(int(x) for x in a.big.split(",") if x)
    bad = 0
    for db in (["sqlite", "postgres"] if a.db == "both" else [a.db]):
        r = run(db, a.units, sizes, big, a.requests, a.workers, only=a.only, max_requests=a.max_requests,
                debug_malloc=a.debug_malloc)
        bad += r["dropped"] + r["bad_status"] + r["worker_deaths"]
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
