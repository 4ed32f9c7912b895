"""Concurrency at first use (issue 9, item 11): reference data loads once, whoever comes
first, on SQLite and PostgreSQL; gunicorn with four workers comes up clean on an empty
database."""
from __future__ import annotations

import json
import os
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import pytest
from builders import doc, individual, person

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))


def _fresh_database(tmp_path, name):
    if os.environ.get("TEST_DATABASE_URL", "").startswith("postgres"):
        from benchmarks.soak import database
        return database("postgres", tmp_path)
    return f"sqlite:///{tmp_path / name}"


def _drop(url):
    from benchmarks.soak import drop_database
    drop_database(url)


def test_four_check_commands_at_once_on_a_fresh_database(tmp_path):
    url = _fresh_database(tmp_path, "fresh.db")
    path = tmp_path / "d.json"
    path.write_text(json.dumps(doc("nmsg-2019", people=[person("p1", year=2019)],
                                   entries=[individual("chess.MI", "p1")])), encoding="utf-8")
    env = {**os.environ, "DATABASE_URL": url}
    try:
        procs = [subprocess.Popen([sys.executable, "-m", "flask", "--app", "app", "check", str(path),
                                   "--at", "2019-08-01T00:00:00+08:00"], cwd=ROOT, env=env,
                                  stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True) for _ in range(4)]
        results = [p.communicate(timeout=240) + (p.returncode,) for p in procs]
        for out, err, code in results:
            assert code == 0, err[-1500:]
            assert "Traceback" not in err and json.loads(out)["ok"] is True
    finally:
        _drop(url)


@pytest.mark.skipif(sys.platform != "linux", reason="gunicorn runs on Linux")
def test_gunicorn_with_four_workers_comes_up_clean_on_an_empty_database(tmp_path):
    from benchmarks.soak import free_port
    url = _fresh_database(tmp_path, "empty.db")
    port = free_port()
    env = {**os.environ, "DATABASE_URL": url, "SECRET_KEY": "t", "STAFF_TWO_FACTOR": "0", "GUNICORN_WORKERS": "4",
           "REDIS_URL": os.environ.get("REDIS_URL", "redis://127.0.0.1:6379/0"),
           "GUNICORN_BIND": f"127.0.0.1:{port}"}
    log = tmp_path / "g.log"
    with log.open("wb") as out:  # the server writes to its own copy of the file
        proc = subprocess.Popen([sys.executable, "-m", "gunicorn", "-c", "gunicorn.conf.py", "app:app"], cwd=ROOT,
                                env=env, stdout=out, stderr=subprocess.STDOUT, start_new_session=True)
    try:
        statuses = []
        deadline = time.time() + 120
        while time.time() < deadline and len(statuses) < 12:
            try:
                with urllib.request.urlopen(f"http://127.0.0.1:{port}/login", timeout=30) as r:
                    statuses.append(r.status)
            except (ConnectionError, urllib.error.URLError):
                time.sleep(0.3)
        assert statuses == [200] * 12, log.read_text(errors="replace")[-3000:]
        text = log.read_text(errors="replace")
        assert "Traceback" not in text and "Worker failed to boot" not in text, text[-3000:]
        # set up once, before the workers; a real install loads no sample Games (issue 37, 8)
        assert "portal set-up:" in text and "units:" in text and "games:" not in text
    finally:
        import signal
        os.killpg(proc.pid, signal.SIGTERM)
        proc.wait(timeout=30)
        _drop(url)
