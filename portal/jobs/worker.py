"""The RQ side: `flask --app app jobs worker` runs an RQ worker for the portal's queue;
each job runs inside the app (the worker's own, created once per process)."""
from __future__ import annotations

from flask import has_app_context

from .services import call_path, run

_app = None


def _in_app(fn, *args) -> None:
    if has_app_context():
        fn(*args)
        return
    global _app
    if _app is None:
        from .. import create_app
        _app = create_app()
    with _app.app_context():
        fn(*args)


def perform(job_id: int) -> None:
    _in_app(run, job_id)


def call(path: str, *args) -> None:
    """enqueue_call's side: the function at `path`, called with `args`."""
    _in_app(call_path, path, *args)
