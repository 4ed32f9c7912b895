"""The benchmarks count only their own processes' CPU (issue 41, 6): another gunicorn on the
host is not theirs, and a worker that exits meanwhile is still counted (through the CPU its
master reaped), so a figure never goes backwards."""
import subprocess
import sys
import time

from benchmarks.soak import cpu_seconds

BURN = "import time\nt = time.process_time()\nwhile time.process_time() - t < {s}: pass\n"


def test_only_the_benchmarks_own_tree_counts_and_an_exited_worker_still_does():
    # A "master" that runs one busy worker to its end, then idles: the worker's CPU is reaped.
    master = subprocess.Popen([sys.executable, "-c", (
        "import subprocess, sys, time\n"
        f"subprocess.run([sys.executable, '-c', {BURN.format(s=0.6)!r}])\n"
        "time.sleep(30)\n")])
    # Another "gunicorn" on the host, busy too: not the benchmark's.
    stranger = subprocess.Popen([sys.executable, "-c", BURN.format(s=1.0), "gunicorn"])
    try:
        before = cpu_seconds(web=master.pid)["web"]
        deadline = time.time() + 20
        while time.time() < deadline and cpu_seconds(web=master.pid)["web"] - before < 0.55:
            time.sleep(0.1)
        stranger.wait(timeout=30)
        time.sleep(0.2)
        after = cpu_seconds(web=master.pid)["web"]
        assert 0.3 <= after - before < 0.95, (before, after)  # the worker's 0.6 s, never the stranger's 1.0
        assert cpu_seconds()["web"] == 0.0
    finally:
        for proc in (master, stranger):
            proc.kill()
            proc.wait(timeout=10)
