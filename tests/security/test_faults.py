"""Faults a real deployment meets (issue 19, 7 and 9): Redis down when a job starts, the
database gone in mid-request. A clean page in words, never a bare 500."""
from __future__ import annotations

from builders import csrf_token, saved_to_people_page
from sqlalchemy import select

from security.attack import get, login, post


def test_redis_down_when_a_job_starts_fails_the_job_in_words(app, world, no_csrf, monkeypatch):
    from portal.extensions import db
    from portal.jobs.models import Job
    monkeypatch.setitem(app.config, "JOBS_BACKEND", "rq")
    monkeypatch.setenv("REDIS_URL", "redis://127.0.0.1:1/0")  # nothing listens there
    organiser = login(app, "organiser")
    r = post(app, organiser, "/org/games/nmsg-2019/cards.pdf", data={"layout": "a4"})
    assert r.status_code == 302, r.status_code
    page = get(app, organiser, r.headers["Location"])
    assert page.status_code == 200 and "后台任务服务暂时无法连接" in page.get_data(as_text=True)
    db.session.rollback()
    job = db.session.scalars(select(Job).order_by(Job.id.desc()).limit(1)).first()
    assert job.status == "failed" and job.finished_at is not None


class LoseTheDatabase:
    """The connection dies under the next statement that matches: on PostgreSQL its backend
    is terminated from another connection (what a failover or a restart does); SQLite has no
    server to lose, so the statement fails as a locked or failing disk makes it fail."""

    def __init__(self, engine, pattern: str):
        self.engine, self.pattern, self.fired = engine, pattern.lower(), 0

    def __enter__(self):
        from sqlalchemy import event
        event.listen(self.engine, "before_cursor_execute", self._fire)
        return self

    def __exit__(self, *exc):
        from sqlalchemy import event
        event.remove(self.engine, "before_cursor_execute", self._fire)

    def _fire(self, conn, cursor, statement, parameters, context, executemany):
        if self.fired or self.pattern not in statement.lower():
            return
        self.fired += 1
        if conn.dialect.name == "postgresql":
            import psycopg
            pid = conn.exec_driver_sql("SELECT pg_backend_pid()").scalar()
            url = self.engine.url.set(drivername="postgresql").render_as_string(hide_password=False)
            with psycopg.connect(url, autocommit=True) as killer:
                killer.execute("SELECT pg_terminate_backend(%s)", (pid,))
        else:
            import sqlite3
            raise sqlite3.OperationalError("disk I/O error")


def test_a_read_with_the_database_gone_is_a_503_in_words(app, world):
    from portal.extensions import db
    organiser = login(app, "organiser")
    url = f"/org/d/{world['a'].id}"
    with app.app_context():
        engine = db.engine
    with LoseTheDatabase(engine, "from delegation") as fault:
        r = get(app, organiser, url)
    assert fault.fired == 1
    page = r.get_data(as_text=True)
    assert r.status_code == 503 and r.headers["Retry-After"] and "暂时无法连接数据库" in page
    assert get(app, organiser, url).status_code == 200  # and it recovers


def test_a_save_that_could_not_be_committed_keeps_what_was_typed(app, world, monkeypatch):
    import re

    from portal.extensions import db
    d = world["a"]
    version = d.version
    client = login(app, "leader_a")
    form = get(app, client, f"/d/{d.id}/people/new").get_data(as_text=True)
    token = csrf_token(form)
    typed = {"csrf_token": token, "version": str(version), "name": "深夜录入", "id_type": "passport",
             "id_number": "E12345678", "gender": "M", "birth_date": "1990-01-01"}
    monkeypatch.setitem(app.config, "FIXED_NOW", __import__("datetime").datetime(2019, 5, 20, tzinfo=__import__("datetime").timezone.utc))
    with app.app_context():
        engine = db.engine
    url = f"/d/{d.id}/people/new"
    with LoseTheDatabase(engine, "update delegation") as fault:
        r = post(app, client, url, data=typed)
    assert fault.fired == 1
    page = r.get_data(as_text=True)
    assert r.status_code == 503 and "没有保存" in page and "重新提交" in page
    assert 'value="深夜录入"' in page and 'value="E12345678"' in page
    action = re.search(r'<form method="post" action="([^"]+)"', page).group(1)
    fresh = csrf_token(page)
    again = dict(re.findall(r'<input type="hidden" name="([^"]+)" value="([^"]*)"', page))
    assert again["csrf_token"] == fresh and again["name"] == "深夜录入"
    # nothing was kept; sending again saves it
    db.session.rollback()
    from portal.delegations.models import Person
    assert db.session.scalar(select(Person).where(Person.name == "深夜录入")) is None
    r = post(app, client, action, data=again)
    assert saved_to_people_page(r), r.status_code
    db.session.rollback()
    assert db.session.scalar(select(Person).where(Person.name == "深夜录入")) is not None
