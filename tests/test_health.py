"""The load balancer's checks (issue 23, 4) and the settings a cluster cannot run without
(issue 23, 3)."""
import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def test_healthz_answers_and_readyz_checks_database_schema_and_redis(app, monkeypatch):
    client = app.test_client()
    with app.app_context():
        health = client.get("/healthz")
        ready = client.get("/readyz")
    assert health.status_code == 200 and health.get_data(as_text=True) == "ok\n"
    assert ready.status_code == 200 and ready.get_json() == {"ready": True, "failing": []}
    monkeypatch.setitem(app.config, "REDIS_URL", "redis://127.0.0.1:1/0")  # nothing listens there
    with app.app_context():
        down = client.get("/readyz")
    assert down.status_code == 503 and down.get_json() == {"ready": False, "failing": ["redis"]}


def test_readyz_says_when_the_schema_is_behind(tmp_path, monkeypatch):
    from portal import create_app
    monkeypatch.setenv("DATABASE_URL", f"sqlite:///{tmp_path / 'empty.db'}")
    monkeypatch.delenv("REDIS_URL", raising=False)
    app = create_app({"TESTING": True, "SECRET_KEY": "x"})
    with app.app_context():
        r = app.test_client().get("/readyz")
    assert r.status_code == 503 and r.get_json()["failing"] == ["migrations"]


def test_gunicorn_refuses_to_start_without_what_a_cluster_needs(tmp_path):
    env = {k: v for k, v in os.environ.items() if k not in ("SECRET_KEY", "REDIS_URL", "PORTAL_SINGLE_NODE")}
    env.update(DATABASE_URL=f"sqlite:///{tmp_path / 'g.db'}", GUNICORN_BIND="127.0.0.1:0")
    out = subprocess.run([sys.executable, "-m", "gunicorn", "-c", "gunicorn.conf.py", "app:app"], cwd=ROOT, env=env,
                         capture_output=True, text=True, timeout=60)
    assert out.returncode != 0
    assert "SECRET_KEY" in out.stderr and "REDIS_URL" in out.stderr and "every node" in out.stderr, out.stderr[-2000:]
