"""The deadline night at a size CI can afford (issue 41, 3): co-leaders of one unit, under
gunicorn as gunicorn.conf.py sets it, all entering their own players in the same event at
once; every save must stand (none refused as stale, none lost to an error). The national
run is `benchmarks/deadline_night.py --same-event --leaders 200`."""
from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


@pytest.mark.skipif(sys.platform != "linux", reason="gunicorn runs on Linux")
def test_co_leaders_entering_one_event_at_once_all_stand():
    kind = "postgres" if os.environ.get("TEST_DATABASE_URL", "").startswith("postgres") else "sqlite"
    run = subprocess.run([sys.executable, "benchmarks/deadline_night.py", "--db", kind, "--units", "2",
                          "--sizes", "12,16", "--leaders", "6", "--seconds", "6", "--pace", "0.5", "--workers", "2",
                          "--same-event"], cwd=ROOT, capture_output=True, text=True, timeout=600)
    assert run.returncode == 0, run.stdout[-3000:] + run.stderr[-3000:]
    figures = re.search(r"(\d+) saves a minute.*errors (\d+), stale forms refused and redone (\d+)", run.stdout)
    assert figures, run.stdout[-2000:]
    saves, errors, refused = (int(x) for x in figures.groups())
    assert saves > 0 and errors == 0 and refused == 0, run.stdout[-2000:]
