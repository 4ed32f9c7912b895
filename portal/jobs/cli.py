"""`flask jobs worker [--burst]`: the RQ worker that runs background jobs when the portal
uses Redis (JOBS_BACKEND=rq, the default when REDIS_URL is set)."""
from __future__ import annotations

import os
import time

import click
from flask.cli import AppGroup

from .services import queue_name, run_sweepers

jobs_cli = AppGroup("jobs", help="Background jobs.")


@jobs_cli.command("worker")
@click.option("--burst", is_flag=True, help="Run the jobs waiting now, then stop.")
@click.option("--in-process", is_flag=True,
              help="Run each job in this process (RQ's SimpleWorker) instead of a forked child.")
@click.option("--nice", "niceness", type=int, default=lambda: int(os.environ.get("JOBS_NICE", "10")),
              show_default="10, or JOBS_NICE",
              help="Run at this lower CPU priority, so that on a machine shared with the web workers "
                   "the pages answer first (a registration rush's accounts are made between them).")
def worker(burst: bool, in_process: bool, niceness: int) -> None:
    """Run background jobs from the portal's queue. Each job runs in a child process forked
    for it (RQ's Worker), so the memory a big job takes (a 50,000-line statement, a whole
    Games' cards) is returned when it ends; the child opens its own database connections."""
    from redis import Redis
    from rq import Queue, SimpleWorker

    if niceness > 0:
        os.nice(niceness)

    from flask import current_app

    from .worker import use_app
    use_app(current_app._get_current_object())  # RQ calls worker.perform: it runs in this app
    _echo_swept(run_sweepers())  # jobs a worker that died left "running", tickets a lost queue left waiting
    if not burst:
        _sweep_every(SWEEP_EVERY)  # and while it runs: a lost node's jobs finish here
    url = os.environ.get("REDIS_URL", "redis://127.0.0.1:6379/0")
    connection = Redis.from_url(url)
    kind = SimpleWorker if in_process else _forking_worker()
    kind([Queue(queue_name(), connection=connection)], connection=connection).work(burst=burst)


def _forking_worker():
    from rq import Worker

    from ..extensions import db

    class ForkingWorker(Worker):
        """RQ's Worker, whose child never uses a database connection of its parent."""

        def main_work_horse(self, job, queue):
            db.session.registry.clear()  # the parent's session (and its connection) stay the parent's
            db.engine.dispose(close=False)
            return super().main_work_horse(job, queue)
    return ForkingWorker


# Seconds between a worker's sweeps (JOBS_SWEEP_SECONDS): with STALE_AFTER, a lost node's
# job starts again here within a minute and a half.
SWEEP_EVERY = float(os.environ.get("JOBS_SWEEP_SECONDS", "30"))


def _sweep_every(seconds: float) -> None:
    """Run the sweepers every `seconds` in a thread of the worker's process (between and
    during its jobs), each sweep in an app context of its own."""
    import threading

    from flask import current_app
    app = current_app._get_current_object()

    def sweep_forever():
        while True:
            time.sleep(seconds)
            try:
                with app.app_context():
                    _echo_swept(run_sweepers())
            except Exception:  # the database away for a moment: the next sweep
                app.logger.exception("sweep failed")
    threading.Thread(target=sweep_forever, name="jobs-sweep", daemon=True).start()


@jobs_cli.command("sweep")
def sweep() -> None:
    """Start again (or, for a job that books, mark failed) the running jobs whose worker
    stopped (no heartbeat for a minute), and hand to the worker again the work its queue lost (registrations still waiting for their
    account 5 minutes after they arrived)."""
    _echo_swept(run_sweepers(), always=True)


def _echo_swept(counts: list[tuple[int, str]], always: bool = False) -> None:
    for count, what in counts:
        if count or always:
            click.echo(f"{count} {what}")
