"""The cycle's CPU benchmark at a size CI can afford (issue 41, 1): it runs, every cycle
saves (it is answered with the people page, showing the new name, or the benchmark stops), and it prints its
figures. The national figure is `benchmarks/cycle_cpu.py --db postgres --cycles 40`."""
from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def test_cycle_benchmark_saves_every_cycle_and_prints_its_figures():
    kind = "postgres" if os.environ.get("TEST_DATABASE_URL", "").startswith("postgres") else "sqlite"
    run = subprocess.run([sys.executable, "benchmarks/cycle_cpu.py", "--db", kind, "--size", "12", "--cycles", "3"],
                         cwd=ROOT, capture_output=True, text=True, timeout=600)
    assert run.returncode == 0, run.stdout[-3000:] + run.stderr[-3000:]
    figures = re.search(r"cycle median ([\d.]+) ms \(least ([\d.]+), mean ([\d.]+)\); form ([\d.]+), "
                        r"save with the page it answers with ([\d.]+) ms; (\d+) statements", run.stdout)
    assert figures, run.stdout[-2000:]
    median, least, mean, form, save, statements = (float(x) for x in figures.groups())
    assert 0 < least <= median and least <= mean and form > 0 and save > 0 and statements > 0
