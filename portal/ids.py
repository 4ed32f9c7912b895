"""Row ids in URLs and query strings: only what a database column can hold.

Every table's primary key is an INTEGER (PostgreSQL int4, at most 2^31 - 1). A larger
number in a URL is no row of ours: it is a 404, never a database error (issue 19, 6)."""
from __future__ import annotations

import builtins

from werkzeug.routing import IntegerConverter

MAX_ID = 2**31 - 1


class DatabaseIdConverter(IntegerConverter):
    """`<int:...>` in every route: 0 .. MAX_ID, anything else does not match (404)."""

    def __init__(self, map, fixed_digits=0, min=None, max=None, signed=False):
        super().__init__(map, fixed_digits=fixed_digits, min=min,
                         max=MAX_ID if max is None else builtins.min(max, MAX_ID), signed=signed)


def db_id(value: str) -> int:
    """`type=` for request.args.get / request.form.get: an id a row can have, else ValueError
    (which werkzeug turns into the default)."""
    number = int(value)
    if not 0 < number <= MAX_ID:
        raise ValueError(value)
    return number
