"""What one registration answer (benchmarks/rush.py's POST) costs a gunicorn worker when
nothing else runs: the answers are sent one after another to a single sync worker, and
that worker's CPU is read from /proc before and after. Beside it, the same answers in
one process through Flask's test client, and `/healthz` through gunicorn (what serving
any request costs).

The rush measures the answers under contention (300 at once, four workers, PostgreSQL and
other work on two cores); this measures the code alone, so that a change to the answer can
be told apart from the machine's mood, and the two figures say how much of the rush's CPU
per answer is the contention's.

    .venv/bin/python benchmarks/worker_cpu.py [--db postgres|sqlite] [--answers 200]
"""
from __future__ import annotations

import argparse
import os
import statistics
import sys
import tempfile
import time
import urllib.parse
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
WARM = 10  # answers each way before the measured ones (caches every worker builds once)


def _worker_cpu(master: int) -> float:
    """CPU seconds of the master's children (the one worker)."""
    tick = os.sysconf("SC_CLK_TCK")
    total = 0
    for child in Path(f"/proc/{master}/task/{master}/children").read_text().split():
        fields = Path(f"/proc/{child}/stat").read_text().rsplit(")", 1)[1].split()
        total += int(fields[11]) + int(fields[12])
    return total / tick


def through_gunicorn(url: str, answers: int, first: int) -> dict[str, float]:
    from benchmarks import soak
    from benchmarks.rush import SLUG, entrant
    workdir = Path(tempfile.mkdtemp(prefix="worker-cpu-"))
    port = soak.free_port()
    proc = soak.start_gunicorn(url, port, 1, workdir / "gunicorn.log")
    base = f"http://127.0.0.1:{port}"
    try:
        for _ in range(50):  # the worker warms itself before it accepts (post_worker_init)
            urllib.request.urlopen(f"{base}/healthz", timeout=30).read()
        before = _worker_cpu(proc.pid)
        for _ in range(answers):
            urllib.request.urlopen(f"{base}/healthz", timeout=30).read()
        healthz = (_worker_cpu(proc.pid) - before) / answers
        forms = []
        for i in range(first, first + WARM + answers):  # every form fetched first: only the answers are counted
            client = soak.Client(base)
            _status, page = client.get(f"/register/{SLUG}")
            forms.append((client, urllib.parse.urlencode({"csrf_token": soak.csrf_token(page), **entrant(i)}).encode()))

        def answer(client, data) -> None:
            with client.opener.open(f"{base}/register/{SLUG}", data=data, timeout=30) as r:
                assert b'id="arrival"' in r.read(), "no arrival page"

        for client, data in forms[:WARM]:
            answer(client, data)
        before = _worker_cpu(proc.pid)
        for client, data in forms[WARM:]:
            answer(client, data)
        return {"healthz": healthz, "answer": (_worker_cpu(proc.pid) - before) / answers}
    finally:
        os.killpg(proc.pid, 15)
        proc.wait(timeout=30)


def in_process(answers: int, first: int) -> dict[str, float]:
    from benchmarks.rush import SLUG, entrant
    from benchmarks.soak import csrf_token
    from portal import create_app
    app = create_app({"SECRET_KEY": "worker-cpu"})
    took = []
    for i in range(first, first + WARM + answers):
        client = app.test_client()
        data = {"csrf_token": csrf_token(client.get(f"/register/{SLUG}").data), **entrant(i)}
        started = time.process_time()
        page = client.post(f"/register/{SLUG}", data=data).data
        took.append(time.process_time() - started)
        assert b'id="arrival"' in page, "no arrival page"
    return {"answer median": statistics.median(took[WARM:]), "answer least": min(took[WARM:])}


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--db", choices=["sqlite", "postgres"], default="postgres")
    ap.add_argument("--answers", type=int, default=200, help="measured answers each way (the cap is 160: "
                                                              "the later ones are wait-listed, as in the rush)")
    a = ap.parse_args(argv)
    from benchmarks import soak
    from benchmarks.rush import open_registration, prepare_in_child
    open_registration(f"worker-cpu-{os.getpid()}")  # nobody takes its jobs: only the answers count
    load = os.getloadavg()[0]
    url = soak.database(a.db, Path(tempfile.mkdtemp(prefix="worker-cpu-")))
    try:
        prepare_in_child(url)
        served = through_gunicorn(url, a.answers, 0)
        os.environ["DATABASE_URL"] = url
        os.environ["REDIS_URL"] = soak.redis_url()  # as the workers have it (limits, jobs)
        local = in_process(a.answers, 10_000)
    finally:
        soak.drop_database(url)
    print(f"{a.db}, {a.answers} answers each way, one after another, load {load:.1f} before:")
    print(f"  one gunicorn worker: {served['answer'] * 1000:.1f} ms of CPU an answer, "
          f"{served['healthz'] * 1000:.2f} ms a /healthz")
    print(f"  in one process (test client): median {local['answer median'] * 1000:.1f} ms, "
          f"least {local['answer least'] * 1000:.1f} ms an answer")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
