"""An amendment's impact on a national Games (thousands of people, each delegation judged
twice) worked out in the background: the preview says so at once, the job's page follows
it, and the impact is shown with the confirmation form when it is done."""
from __future__ import annotations

import datetime as dt
import json

from .. import file_store
from ..jobs.models import JobStatus
from ..jobs.services import file_key, games_of, job_kind
from ..rules.definition import GamesDefinition
from .impact import impact


@job_kind("amendment_impact")
def amendment_impact(job, progress):
    games = games_of(job)
    after = GamesDefinition.model_validate(job.params["definition"])
    rows = impact(games, after, dt.datetime.fromisoformat(job.params["at"]), progress)
    return json.dumps({"impact": rows}, ensure_ascii=False).encode("utf-8"), "impact.json", "application/json"


def impact_of(job) -> list[dict] | None:
    """The impact a finished job worked out (None while it runs or if it failed)."""
    key = file_key(job)
    if job.status != JobStatus.DONE or key is None:
        return None
    data = file_store.read(key)
    return json.loads(data)["impact"] if data else None
