"""Submitting, running and following background jobs.

A job kind is a function `work(job, progress) -> (bytes, file_name, mimetype)`, registered
with `@job_kind("name")`; `progress(done, total=None)` records how far it is (at most a
few writes a second, on a connection of its own so that the job's reading transaction is
never committed under it)."""
from __future__ import annotations

import datetime as dt
import importlib
import os
import secrets
import threading
import time
from collections.abc import Callable
from typing import TYPE_CHECKING

from flask import current_app
from sqlalchemy import or_, select, update

from .. import file_store
from ..db_tx import in_write_transaction, write_transaction
from ..extensions import db
from ..games.models import machine_utcnow, utcnow
from ..games.services import find_games
from ..text import Text
from .models import Job, JobStatus

if TYPE_CHECKING:
    from ..games.models import Games

KINDS: dict[str, Callable] = {}
RESTARTABLE: set[str] = set()
QUEUE = "portal"


def job_kind(name: str, restartable: bool = True) -> Callable[[Callable], Callable]:
    """`restartable`: the job only makes its file (it writes nothing else), so when the node
    running it is lost it is run again elsewhere (sweep_stale); a job that books or changes
    rows says False and is failed instead, for its owner to start again."""
    def register(fn):
        KINDS[name] = fn
        if restartable:
            RESTARTABLE.add(name)
        else:
            RESTARTABLE.discard(name)
        return fn
    return register


def games_of(job: Job) -> Games:
    """The Games a job works on (its `games` parameter); a job whose Games was deleted
    after it was queued fails, saying so."""
    games = find_games(job.params["games"])
    if games is None:
        raise ValueError("the Games no longer exists")
    return games


def job_by_id(job_id: int) -> Job | None:
    return db.session.get(Job, job_id)


def backend() -> str:
    configured = current_app.config.get("JOBS_BACKEND") or os.environ.get("JOBS_BACKEND")
    if configured:
        return configured
    return "rq" if os.environ.get("REDIS_URL") else "thread"


def submit(kind: str, params: dict, user_id: int | None, title: str) -> Job:
    """Record the job and hand it to the backend; returns at once."""
    if kind not in KINDS:
        raise ValueError(f"unknown job kind {kind!r}")
    sweep_stale()  # before, in its own transaction: a restarted job is handed over once that is committed
    with write_transaction():
        job = Job(kind=kind, params=params, user_id=user_id, title=title[:200])
        db.session.add(job)
        db.session.flush()
        job_id = job.id
    _hand_over(job_id)
    return db.session.get(Job, job_id)


RQ_PREFIX = "portal-job-"  # an RQ job's id: the prefix, the portal's job id, a dash, a random tail


def _hand_over(job_id: int) -> None:
    """Give a queued job (committed) to the backend: the RQ queue, or a thread of this process."""
    if backend() == "rq":
        from redis import Redis
        from redis.exceptions import RedisError
        from rq import Queue
        try:
            # Named after the job, so that a sweep can tell which jobs the queue still holds.
            Queue(queue_name(), connection=Redis.from_url(redis_url(), socket_connect_timeout=5, socket_timeout=10)) \
                .enqueue("portal.jobs.worker.perform", job_id, job_timeout=3600, result_ttl=0,
                         job_id=f"{RQ_PREFIX}{job_id}-{secrets.token_hex(4)}")
        except (RedisError, OSError) as exc:
            # The queue is out of reach: the job will never run, so it has failed, and says
            # so in words on its page (never "queued" for ever, never a 500).
            current_app.logger.error("job %s not queued: %s", job_id, exc)
            with write_transaction():
                job = db.session.get(Job, job_id)
                job.status, job.finished_at = JobStatus.FAILED, utcnow()
                job.error = QUEUE_UNAVAILABLE
    else:
        app = current_app._get_current_object()
        threading.Thread(target=_in_thread, args=(app, job_id), name=f"job-{job_id}", daemon=True).start()


def enqueue_call(path: str, *args) -> bool:
    """Run the function at `path` ("package.module.function") with `args` in the background,
    inside the app: on the portal's RQ queue, or in a thread of this process. For work that
    follows an answer already given (it needs no Job row, no output and no page of its own).
    False when the queue is out of reach (the caller's own sweep runs it later)."""
    if backend() == "rq":
        from redis.exceptions import RedisError
        from rq import Queue
        try:
            Queue(queue_name(), connection=_redis(redis_url())) \
                .enqueue("portal.jobs.worker.call", path, *args, job_timeout=600, result_ttl=0)
            return True
        except (RedisError, OSError) as exc:
            current_app.logger.error("%s%r not queued: %s", path, args, exc)
            return False
    app = current_app._get_current_object()
    threading.Thread(target=_call_in_thread, args=(app, path, args), name=f"job-call-{path}", daemon=True).start()
    return True


_clients: dict = {}


def redis_client(timeout: float = 5):
    """The shared Redis of the rq backend (None with the thread backend: one process).
    `timeout`: how long a call may wait for it (a cache that can do without it asks for less)."""
    return _redis(redis_url(), timeout) if backend() == "rq" else None


def _redis(url: str, timeout: float = 5):
    """One client (and its connection pool) per process, URL and timeout: a call enqueued in
    a request costs a round trip, not a new connection. After a fork it starts afresh."""
    from redis import Redis
    key = (url, os.getpid(), timeout)
    if key not in _clients:
        _clients[key] = Redis.from_url(url, socket_connect_timeout=timeout, socket_timeout=2 * timeout)
    return _clients[key]


def call_path(path: str, *args) -> None:
    """The function at `path` ("package.module.function"), called with `args` (in an app context)."""
    module, name = path.rsplit(".", 1)
    getattr(importlib.import_module(module), name)(*args)


def _call_in_thread(app, path: str, args: tuple) -> None:
    with app.app_context():
        call_path(path, *args)


QUEUE_UNAVAILABLE = "queue_unavailable"  # job.error: why it failed, told in words by error_text


def redis_url() -> str:
    return os.environ.get("REDIS_URL", "redis://127.0.0.1:6379/0")


def queue_name() -> str:
    return current_app.config.get("JOBS_QUEUE") or os.environ.get("JOBS_QUEUE") or QUEUE


def _in_thread(app, job_id: int) -> None:
    with app.app_context():
        run(job_id)


def file_key(job: Job) -> str | None:
    """Where the job's output is in the shared file store (every node can serve it)."""
    stored = (job.params or {}).get("_file")
    return f"jobs/{stored}" if stored else None


def run(job_id: int) -> None:
    """Run one job to its end (done or failed); never raises. Claimed with one conditional
    UPDATE: of several workers handed the same job (a queue delivering twice, a restarted
    worker), exactly one runs it."""
    with db.engine.begin() as conn:  # started: as people read it; the heartbeat: the machine's
        claimed = conn.execute(update(Job.__table__).where(Job.__table__.c.id == job_id,
                                                           Job.__table__.c.status == JobStatus.QUEUED)
                               .values(status=JobStatus.RUNNING, started_at=utcnow(), heartbeat_at=machine_utcnow())).rowcount
    if claimed != 1:
        return
    beating = _heartbeat(job_id)
    try:
        _run_claimed(job_id)
    finally:
        beating.set()


def _heartbeat(job_id: int) -> threading.Event:
    """Beat every HEARTBEAT_EVERY while the job runs, whatever it is doing (a long step that
    reports no progress too): a job that stops beating has lost its node. Set the event
    returned to stop."""
    engine, stop = db.engine, threading.Event()
    table = Job.__table__

    def beat():
        while not stop.wait(HEARTBEAT_EVERY.total_seconds()):
            try:
                with engine.begin() as conn:
                    conn.execute(update(table).where(table.c.id == job_id, table.c.status == JobStatus.RUNNING)
                                 .values(heartbeat_at=machine_utcnow()))
            except Exception:  # a missed beat is no failure: the next one may pass
                continue
    threading.Thread(target=beat, name=f"job-{job_id}-heartbeat", daemon=True).start()
    return stop


def _run_claimed(job_id: int) -> None:
    job = db.session.get(Job, job_id)
    last = [0.0]

    def progress(done: int, total: int | None = None, force: bool = False) -> None:
        now = time.monotonic()
        if not force and now - last[0] < 0.3:
            return
        last[0] = now
        values = {"done_count": done, "heartbeat_at": machine_utcnow()}
        if total is not None:
            values["total_count"] = total
        with db.engine.begin() as conn:
            conn.execute(update(Job.__table__).where(Job.__table__.c.id == job_id).values(**values))

    try:
        content, name, mimetype = KINDS[job.kind](job, progress)
        stored = f"{job_id}-{secrets.token_hex(8)}-{os.path.basename(name)}"
        db.session.rollback()
        with write_transaction():  # the output and the job saying it is done, together
            file_store.put(f"jobs/{stored}", content, mimetype)
            job = db.session.get(Job, job_id)
            job.params = {**(job.params or {}), "_file": stored}
            job.status, job.file_name, job.mimetype, job.finished_at = JobStatus.DONE, name, mimetype, utcnow()
            job.done_count = job.total_count or job.done_count
    except Exception as exc:
        current_app.logger.exception("job %s failed", job_id)
        db.session.rollback()
        with write_transaction():
            job = db.session.get(Job, job_id)
            job.status, job.finished_at = JobStatus.FAILED, utcnow()
            job.error = f"{type(exc).__name__}: {exc}"[:500]


# How often a running job beats, and how long without a beat means its node is gone (six
# beats missed); JOBS_HEARTBEAT_SECONDS and JOBS_STALE_SECONDS change them for every node.
HEARTBEAT_EVERY = dt.timedelta(seconds=float(os.environ.get("JOBS_HEARTBEAT_SECONDS", "10")))
STALE_AFTER = dt.timedelta(seconds=float(os.environ.get("JOBS_STALE_SECONDS", "60")))
MAX_RESTARTS = 2  # a job that lost its node this often is failed: something about it, not the node
STOPPED = "stopped"
JOB_ERRORS = {
    QUEUE_UNAVAILABLE: Text("后台任务服务暂时无法连接，任务没有开始。请稍后再试；如仍不行，请联系系统管理员。",
                            "The background job service cannot be reached, so the job did not start. "
                            "Try again later, or tell the administrator."),
    STOPPED: Text("后台任务中断了（运行它的服务器停止了），请重新开始这项任务。",
                  "The job stopped (the server running it went away): start it again."),
}


def error_text(error: str | None, en: bool) -> str | None:
    """Why a job failed, in the reader's language (a portal reason), or the exception's words."""
    known = JOB_ERRORS.get(error or "")
    return known.read(en) if known else error


def is_stale(job: Job, at: dt.datetime | None = None) -> bool:
    beat = job.heartbeat_at or job.started_at
    return job.status == JobStatus.RUNNING and beat is not None and (at or machine_utcnow()) - beat > STALE_AFTER


def will_restart(job: Job) -> bool:
    """A job that lost its node is run again elsewhere (rather than failed)."""
    return job.kind in RESTARTABLE and int((job.params or {}).get("_restarts", 0)) < MAX_RESTARTS


SWEEPERS: list[tuple[str, Callable]] = []


def sweeper(label: str) -> Callable[[Callable], Callable]:
    """Registers an area's `fn(at) -> int` that hands lost background work to the worker
    again, with what its count means; each worker runs them as it starts, as does
    `flask jobs sweep`."""
    def register(fn):
        SWEEPERS.append((label, fn))
        return fn
    return register


def run_sweepers(at: dt.datetime | None = None) -> list[tuple[int, str]]:
    """The stale jobs failed, then every registered sweeper's work: (count, what it means)."""
    restarted, failed = sweep_stale(at)
    return [(restarted, "jobs started again (their worker had stopped)"),
            (failed, "jobs marked failed (their worker had stopped)"),
            (sweep_unheld(), "queued jobs handed to the queue again (no queue held them)")] \
        + [(fn(at), label) for label, fn in SWEEPERS]


def sweep_unheld() -> int:
    """Every queued job that the queue no longer holds, handed over again: a worker took it
    and its node was lost before the job was claimed (it never ran, never beat, and no
    sweep of running jobs sees it), or Redis restarted empty. A job taken by a live worker
    is claimed within milliseconds; one handed over twice still runs once (run() claims it
    with a conditional UPDATE, and the second delivery finds it taken)."""
    if backend() != "rq" or in_write_transaction():
        return 0
    from redis import Redis
    from redis.exceptions import RedisError
    from rq import Queue
    try:
        waiting = Queue(queue_name(), connection=Redis.from_url(redis_url(), socket_connect_timeout=5,
                                                                socket_timeout=10)).get_job_ids()
    except (RedisError, OSError):
        return 0  # the queue out of reach: the next sweep
    held = {rq_id[len(RQ_PREFIX):].split("-")[0] for rq_id in waiting if rq_id.startswith(RQ_PREFIX)}
    queued = db.session.scalars(select(Job.id).where(Job.status == JobStatus.QUEUED)).all()
    db.session.rollback()  # the read ends here: a worker's claim must not wait on it
    unheld = [job_id for job_id in queued if str(job_id) not in held]
    if unheld:
        with write_transaction():  # counted on the job, as a restart is
            for job in db.session.scalars(select(Job).where(Job.id.in_(unheld), Job.status == JobStatus.QUEUED)):
                job.params = {**(job.params or {}), "_handed_again": int((job.params or {}).get("_handed_again", 0)) + 1}
    for job_id in unheld:
        _hand_over(job_id)
    return len(unheld)


def sweep_stale(at: dt.datetime | None = None) -> tuple[int, int]:
    """Every running job whose worker stopped beating: queued again for another worker when
    it only makes a file and has not lost its node MAX_RESTARTS times, else failed, saying
    so. (restarted, failed). Run by each worker as it starts and every SWEEP_EVERY, before
    each new job, and by `flask jobs sweep`."""
    if in_write_transaction():
        return 0, 0  # a restart is handed over after its commit, which a joined sweep cannot see: the next sweep
    limit = (at or machine_utcnow()) - STALE_AFTER
    restarted: list[int] = []
    failed = 0
    with write_transaction():
        stale = db.session.scalars(select(Job).where(
            Job.status == JobStatus.RUNNING,
            or_(Job.heartbeat_at < limit, Job.heartbeat_at.is_(None) & (Job.started_at < limit)))
            .with_for_update(skip_locked=True)).all()  # two sweepers: each job swept by one
        for job in stale:
            if will_restart(job):
                job.params = {**(job.params or {}), "_restarts": int((job.params or {}).get("_restarts", 0)) + 1}
                job.status, job.started_at, job.heartbeat_at, job.done_count = JobStatus.QUEUED, None, None, 0
                restarted.append(job.id)
            else:
                job.status, job.error, job.finished_at = JobStatus.FAILED, STOPPED, utcnow()
                failed += 1
    for job_id in restarted:  # committed: the worker that takes it finds it queued
        _hand_over(job_id)
    return len(restarted), failed


def jobs_of(user_id: int, limit: int = 10) -> list[Job]:
    return db.session.scalars(select(Job).where(Job.user_id == user_id)
                              .order_by(Job.created_at.desc(), Job.id.desc()).limit(limit)).all()
