"""The migrations build exactly the models' schema, and go down again."""
import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def flask(*args, db_path):
    env = {**os.environ, "DATABASE_URL": f"sqlite:///{db_path}"}
    return subprocess.run([sys.executable, "-m", "flask", "--app", "app", "db", *args], cwd=ROOT, env=env,
                          capture_output=True, text=True, timeout=120)


def test_upgrade_check_downgrade(tmp_path):
    db_path = tmp_path / "m.db"
    assert flask("upgrade", db_path=db_path).returncode == 0
    check = flask("check", db_path=db_path)
    assert check.returncode == 0 and "No new upgrade operations detected" in check.stdout + check.stderr
    assert flask("downgrade", "base", db_path=db_path).returncode == 0
    assert flask("upgrade", db_path=db_path).returncode == 0
