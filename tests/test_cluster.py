"""The portal as a cluster (issue 23, 6): two gunicorn web nodes, each with its own instance
folder, and an RQ worker, on one database and one Redis, driven through HTTP as a load
balancer would send a user's requests: logged in on one node and working on the other,
an upload read by one node and confirmed by the other, a photo taken by one and shown by
the other, a job started on one, run by the worker and downloaded from the other, wrong
passwords limited across both."""
from __future__ import annotations

import io
import json
import os
import re
import signal
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.parse
import urllib.request
import uuid
from http.cookiejar import CookieJar
from pathlib import Path

import pytest
from builders import csrf_token

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
PASSWORD = "cluster-passphrase-7"
pytestmark = pytest.mark.skipif(sys.platform != "linux", reason="gunicorn runs on Linux")


def _database(workdir: Path) -> str:
    url = os.environ.get("TEST_DATABASE_URL", "")
    if not url.startswith("postgres"):
        return f"sqlite:///{workdir / 'cluster.db'}"
    import sqlalchemy as sa
    name = f"cluster_{os.getpid()}"
    admin = sa.create_engine(url.rsplit("/", 1)[0] + "/postgres", isolation_level="AUTOCOMMIT")
    with admin.connect() as conn:
        conn.exec_driver_sql(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
        conn.exec_driver_sql(f'CREATE DATABASE "{name}"')
    admin.dispose()
    return url.rsplit("/", 1)[0] + "/" + name


def _drop(url: str) -> None:
    if url.startswith("postgres"):
        import sqlalchemy as sa
        admin = sa.create_engine(url.rsplit("/", 1)[0] + "/postgres", isolation_level="AUTOCOMMIT")
        with admin.connect() as conn:
            conn.exec_driver_sql(f'DROP DATABASE IF EXISTS "{url.rsplit("/", 1)[1]}" WITH (FORCE)')
        admin.dispose()


PREPARE = """
from portal import create_app
from portal.cli_support import ensure_schema
from portal.extensions import db
app = create_app()
with app.app_context():
    ensure_schema()
    from portal.games.services import ensure_reference_data, find_games
    ensure_reference_data(sample_games=True)
    from portal.accounts.services import create_account
    from portal.audit.services import Actor
    from portal.workflow.services import new_delegation, save
    from portal.rules.idnumber import make
    import datetime as dt
    games = find_games("nmsg-2019")
    document = {"format": "delegation/1", "games": "nmsg-2019", "unit": "hainan", "declarations": [],
                "people": [{"ref": "p1", "name": "林一", "gender": "M", "birth_date": "1995-05-05",
                            "id_type": "resident_id", "id_number": make("460100", dt.date(1995, 5, 5), 1),
                            "registration": {"unit": "hainan", "year": 2019}, "documents": []}],
                "entries": [], "officials": [], "staff": [], "companions": []}
    d = save(new_delegation(games, "hainan"), document, Actor("t"), dt.datetime(2019, 5, 1, tzinfo=dt.UTC)).delegation
    create_account("node-leader", "领队", "leader", Actor("t"), delegation=d, password=%(pw)r)
    create_account("node-org", "组委会", "organiser", Actor("t"), password=%(pw)r, games=[games])
    db.session.commit()
    print(d.id)
"""


def _free_port() -> int:
    import socket
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Browser:
    """One browser: one cookie jar (cookies are per host, not per port: both nodes get them),
    sending each request to the node the load balancer picks."""

    def __init__(self):
        self.opener = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(CookieJar()))

    def open(self, url: str, data: bytes | None = None, headers: dict | None = None):
        request = urllib.request.Request(url, data=data, headers=headers or {})
        try:
            with self.opener.open(request, timeout=120) as r:
                return r.status, r.geturl(), r.read(), dict(r.headers)
        except urllib.error.HTTPError as e:
            return e.code, url, e.read(), dict(e.headers)

    def token(self, url: str) -> str:
        status, _url, page, _h = self.open(url)
        assert b'name="csrf_token"' in page, (url, status, page[-600:])
        return csrf_token(page)

    def post(self, url: str, fields: dict, files: dict | None = None, token_from: str | None = None):
        fields = {"csrf_token": self.token(token_from or url), **fields}
        if not files:
            return self.open(url, urllib.parse.urlencode(fields).encode())
        boundary = uuid.uuid4().hex
        body = io.BytesIO()
        for name, value in fields.items():
            body.write(f'--{boundary}\r\nContent-Disposition: form-data; name="{name}"\r\n\r\n{value}\r\n'.encode())
        for name, (filename, data, content_type) in files.items():
            body.write(f'--{boundary}\r\nContent-Disposition: form-data; name="{name}"; filename="{filename}"\r\n'
                       f'Content-Type: {content_type}\r\n\r\n'.encode() + data + b"\r\n")
        body.write(f"--{boundary}--\r\n".encode())
        return self.open(url, body.getvalue(), {"Content-Type": f"multipart/form-data; boundary={boundary}"})

    def login(self, base: str, username: str, password: str = PASSWORD):
        return self.post(base + "/login", {"username": username, "password": password})


@pytest.fixture
def cluster():
    from redis import Redis
    workdir = Path(tempfile.mkdtemp(prefix="cluster-"))
    url = _database(workdir)
    redis_url = os.environ.get("REDIS_URL", "redis://127.0.0.1:6379/0").rsplit("/", 1)[0] + "/9"
    Redis.from_url(redis_url).flushdb()  # this test's own Redis database: its limits start at zero
    env = {**os.environ, "DATABASE_URL": url, "SECRET_KEY": "one-secret-for-every-node", "REDIS_URL": redis_url,
           "JOBS_BACKEND": "rq", "JOBS_QUEUE": f"cluster-{os.getpid()}", "STAFF_TWO_FACTOR": "0",
           "PORTAL_SETUP_ON_START": "0", "GUNICORN_WORKERS": "1", "RATE_LIMIT_LOGIN": "4 per minute",
           "PORTAL_CLOCK": "2019-08-20T10:00:00+08:00"}
    env.pop("PORTAL_SINGLE_NODE", None)
    prepared = subprocess.run([sys.executable, "-c", PREPARE % {"pw": PASSWORD}], cwd=ROOT, env=env,
                              capture_output=True, text=True, timeout=300)
    assert prepared.returncode == 0, prepared.stderr[-3000:]
    delegation_id = int(prepared.stdout.strip().splitlines()[-1])
    procs, bases = [], []
    try:
        for node in ("a", "b"):
            port = _free_port()
            with (workdir / f"{node}.log").open("wb") as log:  # the child writes to its own copy
                procs.append(subprocess.Popen(
                    [sys.executable, "-m", "gunicorn", "-c", "gunicorn.conf.py", "app:app"], cwd=ROOT,
                    env={**env, "INSTANCE_PATH": str(workdir / node), "GUNICORN_BIND": f"127.0.0.1:{port}"},
                    stdout=log, stderr=subprocess.STDOUT, start_new_session=True))
            bases.append(f"http://127.0.0.1:{port}")
        with (workdir / "worker.log").open("wb") as log:
            procs.append(subprocess.Popen([sys.executable, "-m", "flask", "--app", "app", "jobs", "worker"], cwd=ROOT,
                                          env={**env, "INSTANCE_PATH": str(workdir / "worker")},
                                          stdout=log, stderr=subprocess.STDOUT, start_new_session=True))
        for base in bases:
            for _ in range(240):
                try:
                    with urllib.request.urlopen(base + "/healthz", timeout=1):
                        break
                except OSError:
                    time.sleep(0.25)
            else:
                raise AssertionError("a node did not start: " + (workdir / "a.log").read_text(errors="replace")[-2000:])
        yield {"a": bases[0], "b": bases[1], "delegation_id": delegation_id, "workdir": workdir}
    finally:
        for proc in procs:
            try:
                os.killpg(proc.pid, signal.SIGTERM)
                proc.wait(timeout=30)
            except (ProcessLookupError, subprocess.TimeoutExpired):
                os.killpg(proc.pid, signal.SIGKILL)
        _drop(url)


def test_every_node_serves_every_request(cluster):
    a, b, d = cluster["a"], cluster["b"], cluster["delegation_id"]
    leader = Browser()
    status, where, _page, _h = leader.login(a, "node-leader")
    assert status == 200 and f"/d/{d}" in where
    # Logged in on A, working on B.
    status, _url, page, _h = leader.open(f"{b}/d/{d}/people")
    assert status == 200 and "林一".encode() in page

    # An entry file read by A, confirmed on B.
    _s, _u, raw, _h = leader.open(f"{a}/d/{d}/document.json")
    document = json.loads(raw)
    document["people"][0]["name"] = "林二"
    status, _url, page, _h = leader.post(f"{a}/d/{d}/upload", {}, files={
        "file": ("d.json", json.dumps(document, ensure_ascii=False).encode(), "application/json")})
    assert status == 200, page[-500:]
    token = re.search(rb'name="token"[^>]*value="([^"]+)"', page).group(1).decode()
    version = re.search(rb'name="version"[^>]*value="([^"]+)"', page).group(1).decode()
    status, where, page, _h = leader.post(f"{b}/d/{d}/upload/confirm", {"token": token, "version": version},
                                          token_from=f"{b}/d/{d}/upload")
    assert status == 200 and "/upload" not in where, page[-800:]
    _s, _u, raw, _h = leader.open(f"{b}/d/{d}/document.json")
    assert json.loads(raw)["people"][0]["name"] == "林二"

    # The judged cache is each process's own, keyed by what is in the database: B, which
    # judged the delegation before, judges right after a write it never saw (made on A).
    _s, _u, before, _h = leader.open(f"{b}/d/{d}")
    assert b"ID_NUMBER_INVALID" not in before
    document = json.loads(raw)
    number = document["people"][0]["id_number"]
    document["people"][0]["id_number"] = number[:-1] + ("1" if number[-1] != "1" else "2")  # a wrong check digit
    status, _url, page, _h = leader.post(f"{a}/d/{d}/upload", {}, files={
        "file": ("d.json", json.dumps(document, ensure_ascii=False).encode(), "application/json")})
    token = re.search(rb'name="token"[^>]*value="([^"]+)"', page).group(1).decode()
    version = re.search(rb'name="version"[^>]*value="([^"]+)"', page).group(1).decode()
    status, where, page, _h = leader.post(f"{a}/d/{d}/upload/confirm", {"token": token, "version": version},
                                          token_from=f"{a}/d/{d}/upload")
    assert status == 200 and "/upload" not in where, page[-800:]
    _s, _u, after, _h = leader.open(f"{b}/d/{d}")
    assert b"ID_NUMBER_INVALID" in after

    # A photo taken by A, shown by B.
    from PIL import Image
    buffer = io.BytesIO()
    Image.new("RGB", (300, 400), "white").save(buffer, "PNG")
    _s, _u, person_page, _h = leader.open(f"{a}/d/{d}/people/p1")
    version = re.search(rb'name="version"[^>]*value="([^"]+)"', person_page).group(1).decode()
    status, _url, _page, _h = leader.post(f"{a}/d/{d}/people/p1/documents", {"version": version, "kind": "photo"},
                                          files={"file": ("me.png", buffer.getvalue(), "image/png")},
                                          token_from=f"{a}/d/{d}/people/p1")
    assert status == 200
    _s, _u, person_page, _h = leader.open(f"{b}/d/{d}/people/p1")
    file_url = re.search(rb'href="(/d/\d+/files/\d+)"', person_page).group(1).decode()
    status, _url, photo, headers = leader.open(b + file_url)
    assert status == 200 and photo == buffer.getvalue()

    # A job started on A, run by the worker, downloaded from B.
    organiser = Browser()
    assert organiser.login(b, "node-org")[0] == 200
    status, where, _page, _h = organiser.post(f"{a}/org/games/nmsg-2019/export/workbook", {},
                                              token_from=f"{a}/org/games/nmsg-2019")
    job_id = int(re.search(r"/jobs/(\d+)", where).group(1))
    for _ in range(240):
        _s, _u, raw, _h = organiser.open(f"{b}/jobs/{job_id}/status")
        state = json.loads(raw)
        if state["status"] in ("done", "failed"):
            break
        time.sleep(0.25)
    assert state["status"] == "done", (state, (cluster["workdir"] / "worker.log").read_text(errors="replace")[-2000:])
    status, _url, workbook, _h = organiser.open(b + state["download"])
    assert status == 200 and workbook[:2] == b"PK"

    # Wrong passwords spread over both nodes: one limit (in Redis) for both.
    guesser = Browser()
    answers = [guesser.login(node, "someone-else", "wrong-password-1")[0] for node in (a, b, a, b, a)]
    assert answers == [200, 200, 200, 200, 429], answers
