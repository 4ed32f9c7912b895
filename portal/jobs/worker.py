"""The RQ side: `flask --app app jobs worker` runs an RQ worker for the portal's queue;
each job runs inside the app (the worker's own, created once per process)."""
from __future__ import annotations

from flask import has_app_context

from .services import run

_app = None


def perform(job_id: int) -> None:

    if has_app_context():
        run(job_id)
        return
    global _app
    if _app is None:
        from .. import create_app
        _app = create_app()
    with _app.app_context():
        run(job_id)
