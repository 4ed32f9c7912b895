"""A node lost on deadline night, CI-sized (issue 41, 7): benchmarks/node_lost.py with a few
leaders on small delegations, a job heartbeat of one second, and sweeps every two: no
acknowledged save is lost, no request fails once the balancer knows, and the job the lost
node held is made by the other. The national run (100 leaders) is the benchmark itself."""
from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
pytestmark = pytest.mark.skipif(sys.platform != "linux", reason="gunicorn runs on Linux")


def test_a_node_killed_while_leaders_save_loses_no_acknowledged_save_and_its_job_finishes_elsewhere():
    db = "postgres" if os.environ.get("TEST_DATABASE_URL", "").startswith("postgres") else "sqlite"
    env = {**os.environ, "JOBS_HEARTBEAT_SECONDS": "1", "JOBS_STALE_SECONDS": "5", "JOBS_SWEEP_SECONDS": "2",
           "GUNICORN_WORKERS": "2"}
    run = subprocess.run([sys.executable, "benchmarks/node_lost.py", "--db", db, "--leaders", "8", "--seconds", "16",
                          "--kill-at", "6", "--units", "4", "--sizes", "10,20", "--pace", "1", "--jobs", "4",
                          "--jobs-wait", "240",  # a job started again on a loaded 2-core CI machine took over 90 s
                          "--b-jobs-after-kill"], cwd=ROOT, env=env, capture_output=True, text=True, timeout=600)
    out = run.stdout
    assert run.returncode == 0, out + run.stderr[-3000:]
    assert re.search(r"acknowledged saves [1-9]\d*, lost 0", out), out
    assert re.search(r"after that: +\d+ tried, 0 failed", out), out
    # Every job node a held when lost was started again (the run fails otherwise); the kill
    # lands while its work horse is at a job, which nearly always holds one.
    held, again = map(int, re.search(r"workbooks: 4 of 4 done .*held by the lost node: (\d+); started again: (\d+)",
                                     out).groups())
    assert again >= held, out
    served_a, served_b = map(int, re.search(r"node a / b: (\d+) / (\d+)", out).groups())
    assert served_a > 0 and served_b > served_a  # both served; the survivor took the rest
