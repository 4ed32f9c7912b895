"""`column IN (a list bound per call)` written the way each database reads it best.

SQLAlchemy's expanding IN gives a statement one parameter per value: a delegation's 150
identity numbers make a 150-parameter statement that psycopg does not cache (it caches
statements of 50 parameters or fewer) and PostgreSQL parses again on every request. On
PostgreSQL the list is bound as one array (`= ANY(%(numbers)s)`): one statement text
whatever the list's length, cached by psycopg and prepared by the server (issue 41, 1).
SQLite has no arrays and keeps the expanding IN."""
from __future__ import annotations

from collections.abc import Callable

from sqlalchemy import any_, bindparam
from sqlalchemy.dialects.postgresql import ARRAY

OneOf = Callable[..., object]  # (column, parameter's name) -> the condition


def _one_of(dialect: str) -> OneOf:
    if dialect == "postgresql":
        return lambda column, key: column == any_(bindparam(key, type_=ARRAY(column.type)))
    return lambda column, key: column.in_(bindparam(key, expanding=True))


class ListStatement:
    """A statement built once per database kind: `build(one_of)` builds it, with
    `one_of(column, key)` for each list condition; calling it with a session gives the
    statement for that session's database."""

    def __init__(self, build: Callable[[OneOf], object]):
        self._build = build
        self._built: dict[str, object] = {}

    def __call__(self, session):
        dialect = session.get_bind().dialect.name
        statement = self._built.get(dialect)
        if statement is None:
            statement = self._built[dialect] = self._build(_one_of(dialect))
        return statement
