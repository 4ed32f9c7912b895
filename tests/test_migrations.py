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


def test_the_documents_a_node_kept_on_disk_move_into_the_shared_store(tmp_path):
    """Migration 0029: instance/uploads/<delegation>/<sha256>.<ext> is copied into the file
    store, so that every node serves it; the file stays until retention deletes it."""
    import hashlib
    import sqlite3
    db_path, instance = tmp_path / "u.db", tmp_path / "instance"
    env = {**os.environ, "DATABASE_URL": f"sqlite:///{db_path}", "INSTANCE_PATH": str(instance)}

    def run(*args):
        return subprocess.run([sys.executable, "-m", "flask", "--app", "app", "db", *args], cwd=ROOT, env=env,
                              capture_output=True, text=True, timeout=120)
    assert run("upgrade", "0028").returncode == 0
    photo = b"\x89PNG\r\n\x1a\n" + b"photo of a child" * 100
    digest = hashlib.sha256(photo).hexdigest()
    (instance / "uploads" / "7").mkdir(parents=True)
    (instance / "uploads" / "7" / f"{digest}.png").write_bytes(photo)
    (instance / "uploads" / "7" / "notes.txt").write_text("not a document")
    result = run("upgrade")
    assert result.returncode == 0, result.stderr[-2000:]
    with sqlite3.connect(db_path) as con:
        rows = con.execute("SELECT key, content_type, size FROM stored_file").fetchall()
        data = b"".join(r[0] for r in con.execute("SELECT data FROM stored_chunk ORDER BY seq"))
    assert rows == [(f"documents/7/{digest}.png", "image/png", len(photo))] and data == photo
    assert (instance / "uploads" / "7" / f"{digest}.png").exists()
