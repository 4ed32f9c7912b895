"""What the command-line commands of every area share, below them all: the schema made on
a fresh database, and instants read as the regulation writes them."""
from __future__ import annotations

import datetime as dt

import click
from dateutil import parser as dateparser
from sqlalchemy import inspect

from .engine_time import CHINA
from .extensions import db
from .reference_lock import reference_lock


def ensure_schema() -> None:
    """Create or upgrade the schema when a command runs on a fresh database (one process
    at a time; the others wait, then find it there)."""
    if "alembic_version" in inspect(db.engine).get_table_names():
        return
    with reference_lock():
        db.engine.dispose()  # look again on a fresh connection, inside the lock
        if "alembic_version" not in inspect(db.engine).get_table_names():
            from flask_migrate import upgrade
            upgrade()


def parse_instant(value: str | None) -> dt.datetime | None:
    """ISO 8601 with its UTC offset; an instant without one is read as China time."""
    if value is None:
        return None
    try:
        at = dateparser.isoparse(value)
    except (ValueError, OverflowError):
        raise click.BadParameter(f"{value!r} is not an ISO 8601 instant, e.g. 2019-08-31T23:59:59+08:00")
    return at if at.tzinfo else at.replace(tzinfo=CHINA)
