"""Background jobs (issue 12, item 3): the whole-Games workbook is made outside the request,
followed on a page with a progress bar, and downloaded by whoever asked for it only. The
same code runs in a thread (the embedded default) and through RQ on a real Redis."""
from __future__ import annotations

import datetime as dt
import io
import os
import sys
import time
from pathlib import Path

import pytest
from builders import account, csrf_token, logged_in
from openpyxl import load_workbook

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
UTC = dt.UTC
PASSWORD = "jobs-test-passphrase-1"


@pytest.fixture
def games_with_entries(app, db):
    from benchmarks.national import delegation_document
    from portal.audit.services import Actor
    from portal.games.services import find_games
    from portal.workflow.services import import_document
    people = 0
    for i, (unit, n) in enumerate((("beijing", 40), ("tianjin", 60))):
        document = delegation_document(unit, i, n)
        out = import_document(find_games("nmsg-2009"), document, dt.datetime(2009, 8, 1, tzinfo=UTC), Actor("t"))
        assert out.ok, out.violations
        people += n
    db.session.commit()
    account("jobs-org", "organiser", password=PASSWORD, name="组委会甲")
    account("jobs-org2", "organiser", password=PASSWORD, name="组委会乙")
    return people


class _Client:
    """A test client whose every request has an app context of its own, as in production
    (the `db` fixture keeps one open, whose session would read an old snapshot)."""

    def __init__(self, app):
        self.app, self.client = app, app.test_client()

    def get(self, url):
        with self.app.app_context():
            return self.client.get(url)

    def post(self, url, data):
        with self.app.app_context():
            return self.client.post(url, data=data)


def _client(app, username):
    client = _Client(app)
    logged_in(app, username, PASSWORD, client=client.client)
    return client


def _token(client, url):
    return csrf_token(client.get(url).get_data(as_text=True))


def _start(app, client):
    token = _token(client, "/org/games/nmsg-2009")
    r = client.post("/org/games/nmsg-2009/export/workbook", data={"csrf_token": token})
    assert r.status_code == 302
    return int(r.headers["Location"].rstrip("/").split("/")[-1])


def _wait(client, job_id, seconds=60):
    deadline = time.time() + seconds
    while time.time() < deadline:
        status = client.get(f"/jobs/{job_id}/status").get_json()
        if status["status"] in ("done", "failed"):
            return status
        time.sleep(0.2)
    raise AssertionError(f"job {job_id} still {status} after {seconds} s")


def _check_workbook(client, status, people):
    r = client.get(status["download"])
    assert r.status_code == 200
    wb = load_workbook(io.BytesIO(r.get_data()), read_only=True)
    assert wb.sheetnames[:2] == ["汇总", "名册"]  # the organiser's language, one only
    assert "go.MI" in wb.sheetnames or any(name.startswith("chess.") for name in wb.sheetnames)
    roster = list(wb["名册"].iter_rows(values_only=True))
    assert len(roster) == people + 1  # the header, then everyone of both delegations
    summary = list(wb["汇总"].iter_rows(values_only=True))
    assert summary[-1][0] == "合计"


def test_the_whole_games_workbook_is_made_in_the_background(app, games_with_entries):
    client = _client(app, "jobs-org")
    job_id = _start(app, client)
    page = client.get(f"/jobs/{job_id}").get_data(as_text=True)
    assert "<progress" in page and "job.js" in page, page[page.find("<main>"):][:1500]
    status = _wait(client, job_id)
    assert status["status"] == "done", status
    assert status["percent"] == 100 and status["total"] > games_with_entries
    _check_workbook(client, status, games_with_entries)
    # Another organiser does not see it, nor its file; without the token nothing starts.
    other = _client(app, "jobs-org2")
    for url in (f"/jobs/{job_id}", f"/jobs/{job_id}/status", f"/jobs/{job_id}/download"):
        assert other.get(url).status_code == 404, url
    assert client.post("/org/games/nmsg-2009/export/workbook", data={}).status_code == 400


def test_downloads_are_audited(app, db, games_with_entries):
    from sqlalchemy import select

    from portal.audit.models import AuditLog
    client = _client(app, "jobs-org")
    status = _wait(client, _start(app, client))
    assert client.get(status["download"]).status_code == 200
    rows = db.session.scalars(select(AuditLog).where(AuditLog.action == "export.download")).all()
    assert rows and rows[-1].after["kind"] == "games_workbook"


def test_the_same_job_runs_through_rq_on_redis(app, games_with_entries, monkeypatch):
    from redis import Redis
    from rq import Queue, SimpleWorker
    url = os.environ.get("REDIS_URL", "redis://127.0.0.1:6379/0")
    connection = Redis.from_url(url)
    connection.ping()  # Redis is part of the stack: no skipping when it is missing
    queue_name = app.config["JOBS_QUEUE"]
    monkeypatch.setitem(app.config, "JOBS_BACKEND", "rq")
    try:
        client = _client(app, "jobs-org")
        job_id = _start(app, client)
        assert client.get(f"/jobs/{job_id}/status").get_json()["status"] == "queued"
        with app.app_context():
            SimpleWorker([Queue(queue_name, connection=connection)], connection=connection).work(burst=True)
        status = _wait(client, job_id, seconds=5)
        assert status["status"] == "done", status
        _check_workbook(client, status, games_with_entries)
    finally:
        monkeypatch.setitem(app.config, "JOBS_BACKEND", "thread")


def test_the_programme_book_in_pdf_and_excel(app, games_with_entries, db):
    """秩序册: approved delegations with officials and athletes, each event's entrants, counts."""
    from sqlalchemy import select

    from portal.audit.services import Actor
    from portal.delegations.models import Delegation
    from portal.workflow.services import approve
    for d in db.session.scalars(select(Delegation)).all():
        assert approve(d, Actor("组委会"), dt.datetime(2009, 8, 21, tzinfo=UTC)).ok
    db.session.commit()
    client = _client(app, "jobs-org")
    token = _token(client, "/org/games/nmsg-2009")
    for fmt in ("pdf", "xlsx"):
        r = client.post("/org/games/nmsg-2009/programme", data={"csrf_token": token, "fmt": fmt})
        assert r.status_code == 302
        status = _wait(client, int(r.headers["Location"].rstrip("/").split("/")[-1]))
        assert status["status"] == "done", status
        data = client.get(status["download"]).get_data()
        if fmt == "pdf":
            assert data[:5] == b"%PDF-" and len(data) > 10_000
            with open(os.environ.get("PROGRAMME_PDF", os.devnull), "wb") as f:
                f.write(data)
        else:
            wb = load_workbook(io.BytesIO(data), read_only=True)
            assert wb.sheetnames[0] == "封面" and "统计" in wb.sheetnames  # the book's language, as its PDF
            rows = list(wb["代表团"].iter_rows(values_only=True))
            assert sum(1 for r in rows if r[1] == "运动员") > 50


def test_the_cards_of_the_whole_games_are_a_background_job(app, games_with_entries, db):
    """Thousands of cards are hundreds of pages: the whole Games' PDF is made outside the
    request; one delegation's still comes at once."""
    from sqlalchemy import select

    from portal.audit.services import Actor
    from portal.delegations.models import Delegation
    from portal.workflow.services import approve
    for d in db.session.scalars(select(Delegation)).all():
        assert approve(d, Actor("组委会"), dt.datetime(2009, 8, 21, tzinfo=UTC)).ok
    db.session.commit()
    client = _client(app, "jobs-org")
    token = _token(client, "/org/games/nmsg-2009/cards")
    assert client.get("/org/games/nmsg-2009/cards.pdf").status_code == 400
    r = client.post("/org/games/nmsg-2009/cards.pdf", data={"csrf_token": token, "layout": "a4"})
    assert r.status_code == 302
    status = _wait(client, int(r.headers["Location"].rstrip("/").split("/")[-1]))
    assert status["status"] == "done", status
    data = client.get(status["download"]).get_data()
    assert data[:5] == b"%PDF-" and data.count(b"/Type /Page\n") + data.count(b"/Type /Page ") >= games_with_entries // 8
    other = _client(app, "jobs-org2")
    assert other.get(status["download"]).status_code in (403, 404)


def test_a_big_bank_statement_is_imported_in_the_background(app, db):
    """Tens of thousands of lines take seconds to read, match and book: the upload becomes a
    job; its report says what was booked; the kept upload is gone once it has run."""
    from builders import doc, individual, person
    from sqlalchemy import func, select

    from portal.audit.services import Actor
    from portal.games.services import find_games
    from portal.money.models import BankLine
    from portal.money.services import payment_reference_of
    from portal.workflow.services import import_document
    games = find_games("youth-gomoku-2015")
    out = import_document(games, doc("youth-gomoku-2015", unit={"name": "河西棋院", "kind": "club"},
                                     people=[person("b", "M", "2006-06-06", docs=("photo", "id_copy"))],
                                     entries=[individual("gomoku.MCA", "b")]),
                          dt.datetime(2015, 7, 1, tzinfo=UTC), Actor("t"))
    assert out.ok
    reference = payment_reference_of(out.delegation)
    db.session.commit()
    account("big-acc", "accountant", password=PASSWORD, name="财务")
    lines = [f"2015-07-0{1 + i % 8},{100 + i % 500}.00,家长{i},报名费 第{i}笔,SN{i:06d}" for i in range(9000)]
    lines.append(f"2015-07-03,200.00,河西棋院,{reference} 报名费,SN999999")
    data = ("交易日期,收入金额,对方户名,摘要,交易流水号\n" + "\n".join(lines) + "\n").encode("utf-8")
    assert len(data) > 300_000
    client = _client(app, "big-acc")
    token = _token(client, "/money/import")
    with app.app_context():
        r = client.client.post("/money/import", data={"csrf_token": token, "games": "youth-gomoku-2015", "on_error": "all",
                                                      "file": (io.BytesIO(data), "icbc-big.csv")},
                               content_type="multipart/form-data")
    assert r.status_code == 302 and "/jobs/" in r.headers["Location"]
    job_id = int(r.headers["Location"].rstrip("/").split("/")[-1])
    status = _wait(client, job_id)
    assert status["status"] == "done", status
    text = client.get(status["download"]).get_data().decode("utf-8-sig")
    # One reader, one language: the report speaks the accountant's (issue 40, 1).
    assert "已导入：9001" in text and "按参考码匹配：1" in text and "imported" not in text
    page = client.get(f"/jobs/{job_id}").get_data(as_text=True)
    assert "statement=icbc-big.csv" in page
    with app.app_context():
        from portal.extensions import db as _db
        assert _db.session.scalar(select(func.count()).select_from(BankLine)) == 9001
        from portal.file_store import StoredFile
        assert not _db.session.scalars(select(StoredFile.key).where(StoredFile.key.startswith("jobs/upload-"))).all()


def test_two_workers_on_one_queue_run_a_job_delivered_twice_once(app, games_with_entries, monkeypatch):
    """Issue 23 (5): several `flask jobs worker` processes share one queue; a job the queue
    hands out twice (a worker restarted mid-delivery) is run by exactly one of them."""
    import subprocess
    import sys
    from pathlib import Path

    from redis import Redis
    from rq import Queue

    from portal.extensions import db
    from portal.file_store import StoredFile
    url = os.environ.get("REDIS_URL", "redis://127.0.0.1:6379/0")
    connection = Redis.from_url(url)
    connection.ping()
    queue_name = app.config["JOBS_QUEUE"]
    monkeypatch.setitem(app.config, "JOBS_BACKEND", "rq")
    try:
        client = _client(app, "jobs-org")
        job_id = _start(app, client)
        Queue(queue_name, connection=connection).enqueue("portal.jobs.worker.perform", job_id, result_ttl=0)
        env = {**os.environ, "DATABASE_URL": app.config["SQLALCHEMY_DATABASE_URI"], "JOBS_QUEUE": queue_name,
               "REDIS_URL": url, "SECRET_KEY": app.config["SECRET_KEY"], "JOBS_BACKEND": "rq"}
        root = Path(__file__).resolve().parent.parent
        workers = [subprocess.Popen([sys.executable, "-m", "flask", "--app", "app", "jobs", "worker", "--burst"],
                                    cwd=root, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE) for _ in range(2)]
        for w in workers:
            _out, err = w.communicate(timeout=240)
            assert w.returncode == 0, err[-2000:]
        status = _wait(client, job_id, seconds=5)
        assert status["status"] == "done", status
        with app.app_context():
            outputs = db.session.query(StoredFile).filter(StoredFile.key.startswith(f"jobs/{job_id}-")).count()
        assert outputs == 1  # made once, by one worker
    finally:
        monkeypatch.setitem(app.config, "JOBS_BACKEND", "thread")


def _stale_jobs(app, *specs):
    """Running jobs of jobs-org that stopped beating 11 minutes ago ((kind, params) each),
    and one still beating; their ids, the beating one last."""
    import datetime as dt

    from portal.extensions import db
    from portal.jobs.models import Job
    with app.app_context():
        owner = db.session.execute(db.text("SELECT id FROM user_account WHERE username = 'jobs-org'")).scalar()
        long_ago = dt.datetime.now(dt.UTC) - dt.timedelta(minutes=11)
        jobs = [Job(kind=kind, params=params, user_id=owner, status="running", title="t", started_at=long_ago,
                    heartbeat_at=long_ago) for kind, params in specs]
        jobs.append(Job(kind="games_workbook", params={"games": "nmsg-2009"}, user_id=owner, status="running",
                        title="t", started_at=long_ago, heartbeat_at=dt.datetime.now(dt.UTC)))
        db.session.add_all(jobs)
        db.session.commit()
        return [j.id for j in jobs]


def test_a_job_whose_worker_died_is_started_again_and_finishes(app, games_with_entries, cli):
    """Issue 41 (7): a running job that stops beating (its node was lost) is queued again by
    the next sweep (each worker, at start and every 30 s; `flask jobs sweep`) and made by
    another worker; meanwhile its page says it is waiting, not failed."""
    from portal.extensions import db
    from portal.jobs.models import Job
    job_id, alive_id = _stale_jobs(app, ("games_workbook", {"games": "nmsg-2009"}))
    client = _client(app, "jobs-org")
    assert client.get(f"/jobs/{job_id}/status").get_json()["status"] == "queued"
    assert "排队中" in client.get(f"/jobs/{job_id}").get_data(as_text=True)
    result = cli.invoke(args=["jobs", "sweep"])
    assert result.exit_code == 0 and "1 jobs started again" in result.output, result.output
    status = _wait(client, job_id)
    assert status["status"] == "done" and status["download"], status
    assert client.get(status["download"]).get_data()[:2] == b"PK"
    with app.app_context():
        assert db.session.get(Job, job_id).params["_restarts"] == 1
        assert db.session.get(Job, alive_id).status == "running"  # still beating: left alone


def test_a_job_that_books_or_keeps_losing_its_node_is_failed(app, games_with_entries, cli):
    """Issue 23 (5), 41 (7): a lost bank import (it books rows) and a job that lost its node
    twice already are failed, reading so at once with what to do; the sweep writes it down."""
    from portal.extensions import db
    from portal.jobs.models import Job
    booking, tired, alive_id = _stale_jobs(
        app, ("bank_import", {"games": "nmsg-2009", "upload": "upload-x", "name": "a.csv"}),
        ("games_workbook", {"games": "nmsg-2009", "_restarts": 2}))
    client = _client(app, "jobs-org")
    for job_id in (booking, tired):
        status = client.get(f"/jobs/{job_id}/status").get_json()
        assert status["status"] == "failed" and "请重新开始" in status["error"]
        assert "后台任务中断了" in client.get(f"/jobs/{job_id}").get_data(as_text=True)
    assert client.get(f"/jobs/{alive_id}/status").get_json()["status"] == "running"
    result = cli.invoke(args=["jobs", "sweep"])
    assert result.exit_code == 0 and "2 jobs marked failed" in result.output and "0 jobs started again" in result.output
    with app.app_context():
        assert {db.session.get(Job, i).status for i in (booking, tired)} == {"failed"}
        assert db.session.get(Job, alive_id).status == "running"


def test_a_running_job_beats_while_it_works_without_reporting_progress(app, games_with_entries, monkeypatch):
    """Issue 41 (7): the heartbeat is the job's own thread, not its progress: a long step
    that reports nothing is not taken for a lost node."""
    import datetime as dt

    from portal.extensions import db
    from portal.jobs import services
    from portal.jobs.models import Job
    monkeypatch.setattr(services, "HEARTBEAT_EVERY", dt.timedelta(seconds=0.1))
    beats = []

    def quiet(job, progress):
        for _ in range(8):
            time.sleep(0.1)
            with db.engine.connect() as conn:
                beats.append(conn.execute(db.text("SELECT heartbeat_at FROM job WHERE id = :i"), {"i": job.id}).scalar())
        return b"x", "x.txt", "text/plain"
    monkeypatch.setitem(services.KINDS, "quiet", quiet)
    with app.app_context():
        job = Job(kind="quiet", params={}, user_id=None, status="queued", title="t")
        db.session.add(job)
        db.session.commit()
        services.run(job.id)
        assert db.session.get(Job, job.id).status == "done"
    assert len(set(beats)) >= 3, beats  # beat again and again while the step ran


def test_a_big_delegations_cards_are_a_background_job_too(app, games_with_entries, db, monkeypatch):
    """Issue 27 (3): beyond CARDS_IN_REQUEST people, one delegation's cards are made in the
    background with progress (the page offers the job, the GET sends there); a small one's
    still come at once."""
    from sqlalchemy import select

    from portal.audit.services import Actor
    from portal.delegations.models import Delegation
    from portal.venue import views
    from portal.workflow.services import approve
    monkeypatch.setattr(views, "CARDS_IN_REQUEST", 50)
    delegations = db.session.scalars(select(Delegation).order_by(Delegation.id)).all()
    for d in delegations:
        assert approve(d, Actor("组委会"), dt.datetime(2009, 8, 21, tzinfo=UTC)).ok
    db.session.commit()
    small, big = delegations[0].id, delegations[1].id  # 40 and 60 people
    client = _client(app, "jobs-org")
    assert client.get(f"/org/games/nmsg-2009/cards.pdf?delegation={small}").get_data()[:5] == b"%PDF-"
    r = client.get(f"/org/games/nmsg-2009/cards.pdf?delegation={big}")
    assert r.status_code == 303 and f"/org/games/nmsg-2009/cards?delegation={big}" in r.headers["Location"]
    page = client.get(f"/org/games/nmsg-2009/cards?delegation={big}").get_data(as_text=True)
    assert "生成本代表团证件 PDF" in page
    token = _token(client, f"/org/games/nmsg-2009/cards?delegation={big}")
    r = client.post("/org/games/nmsg-2009/cards.pdf", data={"csrf_token": token, "delegation": str(big)})
    status = _wait(client, int(r.headers["Location"].rstrip("/").split("/")[-1]))
    assert status["status"] == "done", status
    data = client.get(status["download"]).get_data()
    assert data[:5] == b"%PDF-" and data.count(b"/Type /Page\n") + data.count(b"/Type /Page ") == 60 // 8 + 1


def test_the_import_report_speaks_the_language_of_who_started_it():
    from portal.money.import_jobs import report
    from portal.money.services import StatementImport
    result = StatementImport(ok=True, imported=3, duplicates=1, reference=2, name_amount=0, unmatched=1, possible_duplicates=0,
                             problems=[("第 4 行：金额不是数字", "row 4: the amount is not a number")])
    english = report(result, "icbc.csv", en=True)
    assert "imported: 3" in english and "row 4: the amount is not a number" in english
    assert not any("\u4e00" <= ch <= "\u9fff" for ch in english)
    chinese = report(result, "icbc.csv")
    assert "已导入：3" in chinese and "第 4 行" in chinese and "imported" not in chinese


def test_a_stopped_job_is_told_in_its_readers_language_only(app, games_with_entries):
    """Issue 40 (1): the job stores why it failed by name; each reader reads his language."""
    import datetime as dt

    from portal.extensions import db
    from portal.jobs.models import Job
    with app.app_context():
        owner = db.session.execute(db.text("SELECT id FROM user_account WHERE username = 'jobs-org'")).scalar()
        job = Job(kind="games_workbook", params={"games": "nmsg-2009"}, user_id=owner, status="failed", title="t",
                  error="stopped", finished_at=dt.datetime.now(dt.UTC))
        db.session.add(job)
        db.session.commit()
        job_id = job.id
    client = _client(app, "jobs-org")
    chinese = client.get(f"/jobs/{job_id}/status").get_json()["error"]
    assert chinese.startswith("后台任务中断了") and "went away" not in chinese and " / " not in chinese
    with app.app_context(), client.client.session_transaction() as s:
        s["lang"] = "en"
    english = client.get(f"/jobs/{job_id}/status").get_json()["error"]
    assert english.startswith("The job stopped") and "后台" not in english
    page = client.get(f"/jobs/{job_id}").get_data(as_text=True)
    assert "The job stopped" in page and "后台任务中断了" not in page


def test_a_queued_job_its_lost_worker_took_before_claiming_it_is_handed_over_again(app, games_with_entries, monkeypatch):
    """A node lost between the queue handing a job to its worker and the worker claiming it
    leaves the job queued in the database and in no queue: it never ran, never beat, and no
    sweep of running jobs sees it. The next sweep hands it over again, once (a job the queue
    still holds is left alone), and it runs once."""
    from redis import Redis
    from rq import Queue, SimpleWorker

    from portal.jobs.services import run_sweepers
    UNHELD = "queued jobs handed to the queue again (no queue held them)"
    url = os.environ.get("REDIS_URL", "redis://127.0.0.1:6379/0")
    connection = Redis.from_url(url)
    queue_name = app.config["JOBS_QUEUE"]
    queue = Queue(queue_name, connection=connection)
    monkeypatch.setitem(app.config, "JOBS_BACKEND", "rq")
    try:
        client = _client(app, "jobs-org")
        job_id = _start(app, client)
        with app.app_context():
            assert (UNHELD, 0) in [(w, c) for c, w in run_sweepers()]  # the queue holds it: left alone
            queue.empty()  # the worker that took it is gone, and the job with it
            assert client.get(f"/jobs/{job_id}/status").get_json()["status"] == "queued"
            assert (UNHELD, 1) in [(w, c) for c, w in run_sweepers()]
            assert (UNHELD, 0) in [(w, c) for c, w in run_sweepers()]  # held again: once
            assert len(queue.get_job_ids()) == 1
            SimpleWorker([queue], connection=connection).work(burst=True)
        status = _wait(client, job_id, seconds=5)
        assert status["status"] == "done", status
        with app.app_context():
            from portal.extensions import db
            from portal.jobs.models import Job
            assert db.session.get(Job, job_id).params["_handed_again"] == 1
    finally:
        monkeypatch.setitem(app.config, "JOBS_BACKEND", "thread")
