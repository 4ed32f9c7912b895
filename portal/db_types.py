"""Column types shared by the areas."""
from __future__ import annotations

import datetime as dt

from sqlalchemy import CheckConstraint, DateTime
from sqlalchemy.types import TypeDecorator


class UTCDateTime(TypeDecorator):
    """Stores UTC (naive in the database, the same on SQLite and PostgreSQL); gives back an
    aware UTC datetime. Refuses naive input, so local times cannot slip in unconverted."""

    impl = DateTime
    cache_ok = True

    def process_bind_param(self, value, dialect):
        if value is None:
            return None
        if value.tzinfo is None:
            raise ValueError("naive datetime: give the UTC offset")
        return value.astimezone(dt.UTC).replace(tzinfo=None)

    def process_result_value(self, value, dialect):
        if value is None:
            return None
        return value.replace(tzinfo=dt.UTC)


def status_check(states, column: str = "status") -> CheckConstraint:
    """The CHECK constraint of a named-state column: its enum's values, nothing else (the
    constraint is named after the column, as the migrations name it)."""
    return CheckConstraint(f"{column} IN ({', '.join(repr(str(s)) for s in states)})", name=column)
