"""A fresh clone runs and tests without `../shared` beside it (issue 9, item 12): the
universities list is public reference data shipped under fixtures/reference/."""
from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys

from portal.config import DEFAULT_UNIVERSITIES_CSV, ROOT


def test_universities_list_ships_in_the_repository():
    assert DEFAULT_UNIVERSITIES_CSV.is_relative_to(ROOT)
    tracked = subprocess.run(["git", "ls-files", "--error-unmatch", str(DEFAULT_UNIVERSITIES_CSV)],
                             cwd=ROOT, capture_output=True, text=True)
    assert tracked.returncode == 0 or not (ROOT / ".git").exists(), tracked.stderr
    header = DEFAULT_UNIVERSITIES_CSV.read_text(encoding="utf-8").splitlines()[0]
    assert header == "code,name,province_code,city,governing_body,level,ownership"


def test_demo_set_up_runs_from_a_copy_without_shared(tmp_path):
    """The set-up half of `make run` (`flask demo`) in a copy of the repository's files
    that has no ../shared beside it: the universities list is loaded from the copy."""
    clone = tmp_path / "clone"
    for rel in ("portal", "migrations", "fixtures", "templates", "static", "translations"):
        shutil.copytree(ROOT / rel, clone / rel)
    shutil.copy(ROOT / "app.py", clone / "app.py")
    assert not (clone.parent / "shared").exists()
    env = {k: v for k, v in os.environ.items() if k not in ("UNIVERSITIES_CSV", "DATABASE_URL", "PORTAL_CLOCK")}
    env["DATABASE_URL"] = f"sqlite:///{tmp_path / 'demo.db'}"
    env["PYTHONPATH"] = str(clone)
    run = subprocess.run([sys.executable, "-m", "flask", "--app", "app", "demo"], cwd=clone, env=env,
                         capture_output=True, text=True, timeout=300)
    assert run.returncode == 0, run.stderr[-2000:]
    loaded = re.search(r"universities: (\d+) from (\S+)", run.stdout)
    assert loaded and int(loaded.group(1)) > 2000 and loaded.group(2).startswith(str(clone)), run.stdout
    assert "not found" not in run.stdout
