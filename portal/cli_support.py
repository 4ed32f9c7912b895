"""What the command-line commands of every area share, below them all: the schema made on
a fresh database, instants read as the regulation writes them, and words in the
terminal's language."""
from __future__ import annotations

import datetime as dt
import os

import click
from dateutil import parser as dateparser

from .engine_time import CHINA
from .extensions import db
from .reference_lock import reference_lock
from .text import Text

MIGRATIONS = os.path.join(os.path.dirname(__file__), "..", "migrations")
_heads: set[str] = set()  # the scripts' heads do not change while the process runs


def schema_current() -> bool:
    """Whether the database's schema is at the migrations' head."""
    from alembic.runtime.migration import MigrationContext
    from alembic.script import ScriptDirectory
    if not _heads:
        _heads.update(ScriptDirectory(MIGRATIONS).get_heads())
    with db.engine.connect() as conn:
        return set(MigrationContext.configure(conn).get_current_heads()) == _heads


def ensure_schema() -> None:
    """Create or upgrade the schema when a command runs on a database that is not at the
    migrations' head (one process at a time; the others wait, then find it done). Not
    merely "the version table exists": another process may be half-way through."""
    if schema_current():
        return
    with reference_lock():
        db.engine.dispose()  # look again on a fresh connection, inside the lock
        if not schema_current():
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


def terminal_en() -> bool:
    """Whether the terminal reads English (LC_ALL, LC_MESSAGES or LANG en_*); Chinese
    otherwise, as the product is (C.UTF-8 on a server says nothing of its reader)."""
    for name in ("LC_ALL", "LC_MESSAGES", "LANG"):
        if value := os.environ.get(name):
            return value.lower().startswith("en")
    return False


def say(text: Text | str, err: bool = False) -> None:
    """One line of a command, in the terminal's language."""
    click.echo(text.read(terminal_en()) if isinstance(text, Text) else text, err=err)
