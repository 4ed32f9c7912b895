"""A node lost on deadline night (issue 41, 7): two web nodes (gunicorn as gunicorn.conf.py
sets it, each with its own instance folder and its jobs worker) behind a balancer, on one
database and one Redis; the leaders save their people again and again, an organiser's
whole-Games workbooks are being made, and one node is killed (SIGKILL: its web workers
and its jobs worker, as a machine that loses its power).

It shows, or fails (exit 1):
- no acknowledged save is lost: each person holds the last name the portal acknowledged
  for him, or one sent after it whose answer the kill swallowed;
- the leaders' next requests go to the other node: after the first few seconds, no
  request fails;
- the jobs the lost node held finish on the other (restarted by its worker's sweep).

The balancer is a small one here (round robin; a node that refuses connections is taken
out for a while and the request goes to the other; a request cut off mid-answer is a 502
to the browser, never sent twice), as nginx's upstream does with its default
`proxy_next_upstream error timeout`.

    .venv/bin/python benchmarks/node_lost.py --db postgres --leaders 100 --seconds 60
    .venv/bin/python benchmarks/node_lost.py --db postgres --leaders 20 --seconds 20 --units 10   # a quick look
"""
from __future__ import annotations

import argparse
import http.client
import json
import os
import re
import signal
import subprocess
import sys
import tempfile
import threading
import time
import urllib.error
import urllib.parse
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
PASSWORD = "night-passphrase-1"
HOP = {"connection", "keep-alive", "transfer-encoding", "te", "trailer", "upgrade", "proxy-connection", "content-length"}


class Balancer(ThreadingHTTPServer):
    """Round robin over the nodes; a node that refuses a connection is out for `rest`
    seconds, and the request (nothing of it sent yet) goes to the next one."""
    daemon_threads = True
    request_queue_size = 512

    def __init__(self, nodes: list[tuple[str, int]], rest: float = 10.0):
        self.nodes, self.rest, self.down_until = nodes, rest, [0.0] * len(nodes)
        self.turn, self.lock = 0, threading.Lock()
        self.served = [0] * len(nodes)
        super().__init__(("127.0.0.1", 0), _Forward)

    def order(self) -> list[int]:
        with self.lock:
            self.turn += 1
            ring = [(self.turn + i) % len(self.nodes) for i in range(len(self.nodes))]
        now = time.monotonic()
        return [i for i in ring if self.down_until[i] <= now] or ring

    def out(self, i: int) -> None:
        self.down_until[i] = time.monotonic() + self.rest


class _Forward(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def log_message(self, *_args):  # quiet: the benchmark prints its own figures
        pass

    def _forward(self):
        body = self.rfile.read(int(self.headers.get("Content-Length") or 0))
        headers = {k: v for k, v in self.headers.items() if k.lower() not in HOP}
        lb: Balancer = self.server
        for i in lb.order():
            host, port = lb.nodes[i]
            conn = http.client.HTTPConnection(host, port, timeout=60)
            try:
                conn.connect()
            except OSError:  # refused: the node is gone; nothing was sent, so the next one may take it
                lb.out(i)
                continue
            try:
                conn.request(self.command, self.path, body=body or None, headers=headers)
                answer = conn.getresponse()
                data = answer.read()
            except (OSError, http.client.HTTPException):
                lb.out(i)
                self._reply(502, [("Content-Type", "text/plain")], b"bad gateway")  # never sent twice
                return
            finally:
                conn.close()
            lb.served[i] += 1
            self._reply(answer.status, [(k, v) for k, v in answer.getheaders() if k.lower() not in HOP], data)
            return
        self._reply(503, [("Content-Type", "text/plain")], b"no node")

    def _reply(self, status: int, headers: list, data: bytes):
        self.send_response_only(status)
        for k, v in headers:
            self.send_header(k, v)
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)

    do_GET = do_POST = _forward


def prepare(url: str, leaders: int, units: int, sizes: tuple[int, int]) -> list:
    """deadline_night's delegations and leaders, and an organiser of the Games."""
    from benchmarks.deadline_night import prepare as night
    pairs = night(url, leaders, units, sizes)
    from portal import create_app
    app = create_app({"SECRET_KEY": "night", "STAFF_TWO_FACTOR": False})
    with app.app_context():
        from portal.accounts.services import create_account
        from portal.audit.services import Actor
        from portal.extensions import db
        from portal.games.services import find_games
        create_account("night-org", "组委会", "organiser", Actor("b"), password=PASSWORD,
                       games=[find_games("nmsg-2009")])
        db.session.commit()
    return pairs


class Night:
    """What the leaders sent and what the portal acknowledged, with when (against the kill)."""

    def __init__(self):
        self.lock = threading.Lock()
        self.sent: dict[tuple[int, str], list[tuple[str, bool]]] = {}  # (delegation, ref) -> [(name, acknowledged)]
        self.requests: list[tuple[float, bool, float]] = []  # (when, ok, seconds)
        self.killed_at: float | None = None
        self.orphaned: set[int] | None = None  # the jobs node a held when lost, where that is known
        self.ready: threading.Barrier | None = None  # every leader logged in, and this thread
        self.until = 0.0  # when the leaders stop saving, set once they are all in


def leader(base: str, username: str, delegation_id: int, ref: str, night: Night, pace: float):
    from benchmarks import soak
    from benchmarks.soak import Client
    c = Client(base)
    for _ in range(20):  # the balancer may meet the lost node's refusals: log in again as a user would
        try:
            c.login(username)
            break
        except Exception:
            time.sleep(0.5)
    # The night's clock starts when every leader is in: on a slow machine the logins (each a
    # password hash) took the whole of a short run, and the node was killed before any save.
    night.ready.wait()
    n, key = 0, (delegation_id, ref)
    time.sleep(pace * (hash(username) % 100) / 100)
    while time.time() < night.until:
        n += 1
        started = time.time()
        name, ok = f"{username}-{n}", False
        t = time.perf_counter()
        try:
            status, page = c.get(f"/d/{delegation_id}/people/{ref}", timeout=60)
            if status != 200:
                raise RuntimeError(status)
            token = _token(page)
            version = re.search(rb'name="version" type="hidden" value="(\d+)"', page).group(1).decode()
            number = re.search(rb'name="id_number" type="text" value="([^"]*)"', page).group(1).decode()
            fields = {"csrf_token": token, "version": version, "name": name, "id_type": "resident_id",
                      "id_number": number}
            base_print = re.search(rb'name="base" value="([^"]*)"', page)
            if base_print:
                fields["base"] = base_print.group(1).decode()
            with night.lock:
                night.sent.setdefault(key, []).append((name, False))
            with c.opener.open(f"{base}/d/{delegation_id}/people/{ref}", data=urllib.parse.urlencode(fields).encode(),
                               timeout=60) as r:
                ok = soak.shows_people_page(r.status, r.read())
            if ok:
                with night.lock:
                    night.sent[key][-1] = (name, True)
        except (OSError, urllib.error.URLError, RuntimeError, AttributeError, http.client.HTTPException):
            ok = False
        with night.lock:
            night.requests.append((time.time(), ok, time.perf_counter() - t))
        time.sleep(max(0.0, pace - (time.time() - started)))


def _token(page: bytes) -> str:
    found = re.search(rb'name="csrf_token" type="hidden" value="([^"]+)"', page) or \
        re.search(rb'name="csrf_token" value="([^"]+)"', page)
    if found is None:
        raise RuntimeError("no form on the page: " + page[-300:].decode(errors="replace"))
    return found.group(1).decode()


def start_workbooks(base: str, count: int) -> list[int]:
    """The organiser starts `count` whole-Games workbooks (background jobs)."""
    from benchmarks.soak import Client
    c = Client(base)
    c.login("night-org")
    ids = []
    for _ in range(count):
        _s, page = c.get("/org/games/nmsg-2009")
        token = _token(page)
        with c.opener.open(f"{base}/org/games/nmsg-2009/export/workbook",
                           data=urllib.parse.urlencode({"csrf_token": token, "drafts": "1"}).encode(), timeout=60) as r:
            ids.append(int(urllib.parse.urlsplit(r.geturl()).path.rstrip("/").split("/")[-1]))
    return ids


def has_child(proc: subprocess.Popen) -> bool:
    """The process has one of its own (an RQ worker's work horse, while a job runs)."""
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            if int(stat.read_text().rsplit(")", 1)[1].split()[1]) == proc.pid:
                return True
        except (OSError, ValueError, IndexError):
            continue
    return False


def lose(proc: subprocess.Popen) -> None:
    """SIGKILL a process and everything it started, as a machine losing its power: RQ's
    work horse runs in a session of its own (os.setsid), so a group kill alone would spare it."""
    family, grown = {proc.pid}, True
    while grown:
        grown = False
        for stat in Path("/proc").glob("[0-9]*/stat"):
            try:
                pid, ppid = int(stat.parent.name), int(stat.read_text().rsplit(")", 1)[1].split()[1])
            except (OSError, ValueError, IndexError):
                continue
            if ppid in family and pid not in family:
                family.add(pid)
                grown = True
    for pid in family:
        try:
            os.kill(pid, signal.SIGKILL)
        except ProcessLookupError:
            pass


def jobs_state(url: str, ids: list[int]) -> dict[int, tuple[str, int]]:
    import sqlalchemy as sa
    engine = sa.create_engine(url)
    with engine.connect() as conn:
        rows = conn.execute(sa.text("SELECT id, status, params FROM job WHERE id IN :ids")
                            .bindparams(sa.bindparam("ids", expanding=True)), {"ids": ids}).all()
    engine.dispose()
    # Started again: after its running worker stopped beating, or handed over again after the
    # lost node's worker took it and died before claiming it (jobs.services.sweep_unheld).
    return {i: (status, sum(int((json.loads(p) if isinstance(p, str) else p or {}).get(k, 0))
                            for k in ("_restarts", "_handed_again")))
            for i, status, p in rows}


def stored_names(url: str) -> dict[tuple[int, str], str]:
    import sqlalchemy as sa
    engine = sa.create_engine(url)
    with engine.connect() as conn:
        rows = conn.execute(sa.text("SELECT delegation_id, ref, name FROM person")).all()
    engine.dispose()
    return {(d, ref): name for d, ref, name in rows}


def lost_saves(night: Night, stored: dict) -> list[str]:
    """Each person holds the last name acknowledged, or one sent after it (its answer lost)."""
    lost = []
    for key, sent in night.sent.items():
        acked = [i for i, (_n, ok) in enumerate(sent) if ok]
        if not acked:
            continue
        allowed = {name for name, _ok in sent[acked[-1]:]}
        if stored.get(key) not in allowed:
            lost.append(f"{key}: holds {stored.get(key)!r}, acknowledged {sent[acked[-1]][0]!r}")
    return lost


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--db", choices=["sqlite", "postgres"], default="postgres")
    ap.add_argument("--leaders", type=int, default=100)
    ap.add_argument("--seconds", type=int, default=60, help="how long the leaders save")
    ap.add_argument("--kill-at", type=float, default=None, help="seconds in (default: a third of the way)")
    ap.add_argument("--workers", type=int, default=int(os.environ.get("GUNICORN_WORKERS", "2")),
                    help="web workers per node")
    ap.add_argument("--units", type=int, default=43)
    ap.add_argument("--sizes", type=lambda v: tuple(int(x) for x in v.split(",")), default=(30, 150))
    ap.add_argument("--pace", type=float, default=5.0, help="seconds between one leader's saves")
    ap.add_argument("--jobs", type=int, default=2, help="workbooks being made when the node is lost")
    ap.add_argument("--jobs-wait", type=float, default=240, help="seconds the jobs may take to finish after it")
    ap.add_argument("--b-jobs-after-kill", action="store_true",
                    help="node b's jobs worker starts only once node a is lost: the job running then is surely "
                         "node a's (the CI-sized run; with both at work a kill may land as node a's job ends)")
    a = ap.parse_args(argv)
    from benchmarks import soak
    workdir = Path(tempfile.mkdtemp(prefix="node-lost-"))
    url = soak.database(a.db, workdir)
    procs: dict[str, subprocess.Popen] = {}
    lb = None
    try:
        soak.PASSWORD = PASSWORD
        made = subprocess.run([sys.executable, "-c", (
            f"import json,sys; sys.path.insert(0, {str(ROOT)!r}); from benchmarks.node_lost import prepare; "
            f"print(json.dumps(prepare({url!r}, {a.leaders}, {a.units}, {tuple(a.sizes)!r})))")], cwd=ROOT,
            capture_output=True, text=True, env={**os.environ, "DATABASE_URL": url}, timeout=1800)
        if made.returncode:
            print(made.stderr[-3000:])
            return 1
        pairs = json.loads(made.stdout.strip().splitlines()[-1])
        os.environ.update({
            "RATE_LIMIT_LOGIN": "100000 per minute", "RATE_LIMIT_FORMS": "100000 per minute",
            "RATE_LIMIT_LOGIN_ADDRESS": "100000 per minute", "PORTAL_CLOCK": "2009-08-20T22:00:00+08:00",
            "PORTAL_SETUP_ON_START": "0", "JOBS_BACKEND": "rq", "JOBS_QUEUE": f"node-lost-{os.getpid()}"})
        nodes = []
        for node in ("a", "b"):
            os.environ["INSTANCE_PATH"] = str(workdir / node)
            port = soak.free_port()
            procs[f"web-{node}"] = soak.start_gunicorn(url, port, a.workers, workdir / f"web-{node}.log")
            if node == "a" or not a.b_jobs_after_kill:
                procs[f"jobs-{node}"] = soak.start_worker(url, workdir / f"jobs-{node}.log")
            nodes.append(("127.0.0.1", port))
        lb = Balancer(nodes)
        threading.Thread(target=lb.serve_forever, daemon=True).start()
        base = f"http://127.0.0.1:{lb.server_address[1]}"
        night = Night()

        def start_the_clock():  # run by the barrier before it lets anyone through
            night.until = time.time() + a.seconds
        night.ready = threading.Barrier(len(pairs) + 1, action=start_the_clock, timeout=600)
        threads = [threading.Thread(target=leader, args=(base, name, did, ref, night, a.pace), daemon=True)
                   for name, did, ref in pairs]
        for t in threads:
            t.start()
        night.ready.wait()
        until = night.until
        kill_at = until - a.seconds + (a.kill_at if a.kill_at is not None else a.seconds / 3)
        time.sleep(max(0.0, kill_at - time.time() - 2))
        job_ids = start_workbooks(base, a.jobs)
        for _ in range(400):  # the workers at work, node a's too (its work horse is at a job)
            if has_child(procs["jobs-a"]) and (a.b_jobs_after_kill or sum(
                    1 for s, _r in jobs_state(url, job_ids).values() if s == "running") >= min(2, a.jobs)):
                break
            time.sleep(0.05)
        for name in ("web-a", "jobs-a"):
            lose(procs[name])
        night.killed_at = time.time()
        held = {i for i, (s, _r) in jobs_state(url, job_ids).items() if s == "running"}
        if a.b_jobs_after_kill:
            # Node b's worker not yet started: a job running now is one node a held when it was
            # lost (none, when the job ended as the kill landed). Every job left is node b's.
            night.orphaned = held
            os.environ["INSTANCE_PATH"] = str(workdir / "b")
            procs["jobs-b"] = soak.start_worker(url, workdir / "jobs-b.log")
        print(f"node a killed {night.killed_at - (until - a.seconds):.1f} s in, jobs running then: {sorted(held)}")
        for t in threads:
            t.join()
        deadline = time.time() + a.jobs_wait
        while time.time() < deadline and any(s != "done" for s, _r in jobs_state(url, job_ids).values()):
            time.sleep(1)
        jobs = jobs_state(url, job_ids)
        jobs_after = time.time() - night.killed_at
        lost = lost_saves(night, stored_names(url))
        return report(a, night, lost, jobs, jobs_after, lb)
    finally:
        if lb is not None:
            lb.shutdown()
        for proc in procs.values():
            try:
                os.killpg(proc.pid, signal.SIGTERM)
                proc.wait(timeout=30)
            except (ProcessLookupError, subprocess.TimeoutExpired):
                pass
        soak.drop_database(url)


def report(a, night: Night, lost: list[str], jobs: dict, jobs_after: float, lb: Balancer) -> int:
    k = night.killed_at
    before = [r for r in night.requests if r[0] < k]
    settling = [r for r in night.requests if k <= r[0] < k + 5]
    after = [r for r in night.requests if r[0] >= k + 5]
    acked = sum(1 for sent in night.sent.values() for _n, ok in sent if ok)

    def p95(rows):
        took = sorted(t for _w, ok, t in rows if ok)
        return f"{took[int(len(took) * 0.95)]:.2f} s" if took else "-"
    failed_after = sum(1 for _w, ok, _t in after if not ok)
    print(f"{a.db}: {a.leaders} leaders, one save every {a.pace:g} s, {a.seconds} s, two nodes of {a.workers} "
          f"workers; load average {os.getloadavg()[0]:.2f}")
    print(f"  before the kill: {len(before)} saves tried, {sum(1 for r in before if not r[1])} failed, p95 {p95(before)}")
    print(f"  first 5 s after: {len(settling)} tried, {sum(1 for r in settling if not r[1])} failed (in flight on the lost node)")
    print(f"  after that:      {len(after)} tried, {failed_after} failed, p95 {p95(after)}")
    print(f"  acknowledged saves {acked}, lost {len(lost)}" + (": " + "; ".join(lost[:5]) if lost else ""))
    print(f"  requests served by node a / b: {lb.served[0]} / {lb.served[1]}")
    done = sum(1 for s, _r in jobs.values() if s == "done")
    again = {i for i, (_s, r) in jobs.items() if r}
    held = "-" if night.orphaned is None else str(len(night.orphaned))
    print(f"  workbooks: {done} of {len(jobs)} done {jobs_after:.0f} s after the kill; held by the lost node: {held}; "
          f"started again: {len(again)}")
    orphans_left = night.orphaned is not None and not night.orphaned <= again
    return 1 if lost or failed_after or done < len(jobs) or not acked or orphans_left else 0


if __name__ == "__main__":
    sys.exit(main())
