"""The RQ side: `flask --app app jobs worker` runs an RQ worker for the portal's queue;
each job runs inside the app of that command (given by it to use_app), so this module
needs nothing above the jobs area."""
from __future__ import annotations

from flask import Flask, has_app_context

from .services import call_path, run

_app: Flask | None = None


def use_app(app: Flask) -> None:
    """The app the jobs of this process run in (the `flask jobs worker` command's)."""
    global _app
    _app = app


def _in_app(fn, *args) -> None:
    if has_app_context():  # the command's own context, in its process or in RQ's forked work horse
        fn(*args)
        return
    if _app is None:
        raise RuntimeError("portal jobs run in the portal's app: start the worker with `flask --app app jobs worker`")
    with _app.app_context():
        fn(*args)


def perform(job_id: int) -> None:
    _in_app(run, job_id)


def call(path: str, *args) -> None:
    """enqueue_call's side: the function at `path`, called with `args`."""
    _in_app(call_path, path, *args)
