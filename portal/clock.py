"""The application's notion of now. Stage logic takes `now` as a value; views ask here.

PORTAL_CLOCK (ISO 8601 with offset) starts the clock at that instant and lets it run
(the demo stands in August 2019, while nmsg-2019 takes names); tests may set
app.config["FIXED_NOW"] to stand still at any instant."""
from __future__ import annotations

import datetime as dt
import os

from flask import current_app, has_app_context

_started = dt.datetime.now(dt.UTC)


def now() -> dt.datetime:
    real = dt.datetime.now(dt.UTC)
    if has_app_context():
        fixed = current_app.config.get("FIXED_NOW")
        if fixed is not None:
            return fixed
        start = current_app.config.get("CLOCK_START")
        if start is not None:
            return start + (real - _started)
    return real


def configure(app) -> None:
    value = os.environ.get("PORTAL_CLOCK")
    if value and app.config.get("CLOCK_START") is None:
        from dateutil import parser
        start = parser.isoparse(value)
        if start.tzinfo is None:
            start = start.replace(tzinfo=dt.timezone(dt.timedelta(hours=8)))
        app.config["CLOCK_START"] = start
