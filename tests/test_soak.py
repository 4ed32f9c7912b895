"""The gunicorn soak run at a size CI can afford (issue 13): a generated nmsg-2009 of a
few delegations under the production gunicorn settings (gunicorn.conf.py, two sync
workers, recycled every 3 requests so that heavy pages are often a fresh worker's first
request, on CPython's debug allocator), every heavy page requested several times per role
on this suite's database kind; every request must be answered with 200 and no worker may
die. The national-size
run is `benchmarks/soak.py`."""
from __future__ import annotations

import os
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))


@pytest.mark.skipif(sys.platform != "linux", reason="gunicorn runs on Linux")
def test_gunicorn_answers_every_request_and_no_worker_dies():
    from benchmarks.soak import run
    kind = "postgres" if os.environ.get("TEST_DATABASE_URL", "").startswith("postgres") else "sqlite"
    result = run(kind, units=6, sizes=(30, 60), big=(200,), requests=4, workers=2, quiet=True,
                 max_requests=3, debug_malloc=True)
    assert result["requests"] > 30
    assert (result["dropped"], result["bad_status"], result["worker_deaths"]) == (0, 0, 0), result["log_tail"]
