"""Inserting many rows at once, in the caller's transaction (a 50,000-line bank statement:
issue 27, 4). On PostgreSQL the rows go by COPY, which takes them as a stream (a multi-row
INSERT of that size spends most of its time in the driver rewriting the statement); on
SQLite by one multi-row INSERT per batch. Column defaults the rows leave out are filled
the same way either way, and values pass through the columns' own types."""
from __future__ import annotations

import json

from sqlalchemy import ARRAY, String, Table, any_, bindparam, select
from sqlalchemy.types import JSON, TypeDecorator

from .extensions import db

BATCH = 5000


def _with_defaults(table: Table, rows: list[dict]) -> tuple[list[str], list[dict]]:
    """Every row with the same columns: those given, and the defaults of the others."""
    given = list(dict.fromkeys(k for row in rows for k in row))
    defaults = {}
    for column in table.c:
        if column.name not in given and column.default is not None and not column.primary_key:
            default = column.default
            defaults[column.name] = default.arg(None) if default.is_callable else default.arg
    columns = given + list(defaults)
    return columns, [{**defaults, **{k: row.get(k) for k in given}} for row in rows]


def insert_rows(table: Table, rows: list[dict], key: str | None = None) -> dict:
    """Insert `rows`; with `key` (a unique column every row has), {key value: new id}."""
    if not rows:
        return {}
    session = db.session
    if session.get_bind().dialect.name != "postgresql":
        found: dict = {}
        for i in range(0, len(rows), BATCH):
            statement = table.insert()
            if key:
                found.update(session.execute(statement.returning(table.c[key], table.c.id), rows[i:i + BATCH]).all())
            else:
                session.execute(statement, rows[i:i + BATCH])
        return found
    columns, rows = _with_defaults(table, rows)
    dialect = session.get_bind().dialect
    converters = []
    for name in columns:
        column_type = table.c[name].type
        if isinstance(column_type, JSON):
            converters.append(lambda v: None if v is None else json.dumps(v, ensure_ascii=False))
        elif isinstance(column_type, TypeDecorator):
            converters.append(lambda v, t=column_type: t.process_bind_param(v, dialect))
        else:
            converters.append(None)
    cursor = session.connection().connection.driver_connection.cursor()
    names = ", ".join(f'"{c}"' for c in columns)
    with cursor.copy(f'COPY "{table.name}" ({names}) FROM STDIN') as copy:
        for row in rows:
            copy.write_row([convert(row[c]) if convert else row[c] for c, convert in zip(columns, converters)])
    cursor.close()
    if not key:
        return {}
    found = {}
    values = [row[key] for row in rows]
    for i in range(0, len(values), 10000):
        found.update(session.execute(select(table.c[key], table.c.id).where(
            table.c[key] == any_(bindparam("keys", values[i:i + 10000], type_=ARRAY(String))))).all())
    return found
