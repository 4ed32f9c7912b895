"""benchmarks/worker_cpu.py at CI size: a few registration answers through one gunicorn
worker and in one process, on this suite's database kind. Every answer must be the
arrival page (the benchmark stops otherwise), and both figures are read off a process
that did the work (neither is 0)."""
from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


@pytest.mark.skipif(sys.platform != "linux", reason="gunicorn and /proc")
def test_worker_cpu_measures_answers_through_gunicorn_and_in_process():
    kind = "postgres" if os.environ.get("TEST_DATABASE_URL", "").startswith("postgres") else "sqlite"
    done = subprocess.run([sys.executable, "benchmarks/worker_cpu.py", "--db", kind, "--answers", "20"], cwd=ROOT,
                          capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stdout[-2000:] + done.stderr[-4000:]
    served = re.search(r"one gunicorn worker: ([\d.]+) ms of CPU an answer, ([\d.]+) ms a /healthz", done.stdout)
    local = re.search(r"in one process \(test client\): median ([\d.]+) ms", done.stdout)
    assert served and local, done.stdout
    # A worker not found, or its CPU misread, prints 0.0: twenty answers are over a dozen clock ticks.
    assert float(served.group(1)) > 0 and float(local.group(1)) > 0
