"""A job's page (progress bar, then the download), its status for the page's polling, and
its file. Only the person who started a job sees it."""
from __future__ import annotations

from flask import Blueprint, abort, jsonify, redirect, render_template, url_for
from flask_login import current_user, login_required

from .. import file_store
from ..access import scope
from ..audit.current import actor
from ..audit.services import record
from ..db_tx import write_transaction
from ..file_store import stored_download
from ..games.services import find_games
from ..web import is_en
from .models import Job, JobStatus
from .services import STOPPED, error_text, file_key, is_stale, job_by_id, submit, will_restart

bp = Blueprint("jobs", __name__, url_prefix="/jobs")


def _own(job_id: int) -> Job:
    job = job_by_id(job_id)
    if job is None or job.user_id != current_user.id:
        abort(404)  # someone else's job does not exist for you
    if current_user.is_staff and job.params.get("games"):
        games = find_games(job.params["games"])
        scope.require(games.id if games else None)  # no longer on this Games' staff: gone
    return job


def start(kind: str, params: dict, title: str):
    """Queue a job for the person asking, and send them to the page that follows it."""
    job = submit(kind, params, current_user.id, title)
    return redirect(url_for("jobs.show", job_id=job.id))


def status_of(job: Job) -> dict:
    if is_stale(job) and will_restart(job):  # its worker died: another will run it again (sweep_stale)
        return {"id": job.id, "status": JobStatus.QUEUED, "percent": 0, "done": 0, "total": job.total_count,
                "error": None, "download": None}
    if is_stale(job):  # its worker died: say so now (a worker or the next job writes it down)
        return {"id": job.id, "status": JobStatus.FAILED, "percent": job.percent, "done": job.done_count,
                "total": job.total_count, "error": error_text(STOPPED, is_en()), "download": None}
    return {"id": job.id, "status": job.status, "percent": job.percent, "done": job.done_count,
            "total": job.total_count, "error": error_text(job.error, is_en()) if job.status == JobStatus.FAILED else None,
            "download": url_for("jobs.download", job_id=job.id) if job.status == JobStatus.DONE else None}


@bp.get("/<int:job_id>")
@login_required
def show(job_id):
    job = _own(job_id)
    return render_template("jobs/job.html", job=job, state=status_of(job))


@bp.get("/<int:job_id>/status")
@login_required
def status(job_id):
    return jsonify(status_of(_own(job_id)))


@bp.get("/<int:job_id>/download")
@login_required
def download(job_id):
    job = _own(job_id)
    key = file_key(job)
    if job.status != JobStatus.DONE or key is None or not file_store.exists(key):
        abort(404)
    with write_transaction():
        record(actor(), "export.download", "job", str(job.id), after={"kind": job.kind, "file": job.file_name,
                                                                        "params": {k: v for k, v in job.params.items()
                                                                                   if not k.startswith("_")}})
    return stored_download(key, job.file_name, job.mimetype)
