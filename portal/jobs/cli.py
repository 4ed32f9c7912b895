"""`flask jobs worker [--burst]`: the RQ worker that runs background jobs when the portal
uses Redis (JOBS_BACKEND=rq, the default when REDIS_URL is set)."""
from __future__ import annotations

import os

import click
from flask.cli import AppGroup

from .services import queue_name, sweep_stale

jobs_cli = AppGroup("jobs", help="Background jobs.")


@jobs_cli.command("worker")
@click.option("--burst", is_flag=True, help="Run the jobs waiting now, then stop.")
def worker(burst: bool) -> None:
    from redis import Redis
    from rq import Queue, SimpleWorker

    swept = sweep_stale()  # jobs a worker that died left "running"
    if swept:
        click.echo(f"{swept} jobs whose worker had stopped marked failed")
    url = os.environ.get("REDIS_URL", "redis://127.0.0.1:6379/0")
    connection = Redis.from_url(url)
    # SimpleWorker runs jobs in this process, inside the app context this command has.
    SimpleWorker([Queue(queue_name(), connection=connection)], connection=connection).work(burst=burst)


@jobs_cli.command("sweep")
def sweep() -> None:
    """Mark failed the running jobs whose worker stopped (no progress for 10 minutes)."""
    click.echo(f"{sweep_stale()} jobs marked failed")
