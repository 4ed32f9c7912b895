"""Out-of-range ids (issue 19, 6): a number no row can have is a 404 on every route, never a
database error (PostgreSQL's int4 overflows at 2^31, SQLite's integer at 2^63)."""
from __future__ import annotations

import re

import pytest

from security.attack import get, login, post

HUGE = ("3000000000", str(2**63), str(2**64 + 7))


def _int_routes(app):
    for rule in app.url_map.iter_rules():
        if "int:" not in str(rule) and not any(type(c).__name__.endswith("IdConverter")
                                               for c in rule._converters.values()):
            continue
        for method in sorted((rule.methods or set()) - {"HEAD", "OPTIONS"}):
            yield rule, method


def _url(rule, value: str) -> str:
    url = str(rule)
    url = re.sub(r"<int:[^>]+>", value, url)
    return re.sub(r"<(?:[a-z]+:)?[^>]+>", "nmsg-2019", url)


@pytest.mark.parametrize("value", HUGE)
def test_every_integer_route_answers_404_for_an_id_no_row_can_have(app, world, no_csrf, value):
    organiser = login(app, "organiser")
    routes = list(_int_routes(app))
    assert len(routes) >= 30, "the walk should find the integer routes"
    for rule, method in routes:
        url = _url(rule, value)
        if method == "GET":
            r = get(app, organiser, url)
        elif method == "POST":
            r = post(app, organiser, url, data={})
        else:  # the API's PUT: werkzeug answers an id its converter refuses with 405 there
            with app.app_context():
                r = organiser.open(url, method=method, data={})
            assert r.status_code in (404, 405), (method, url, r.status_code)
            continue
        assert r.status_code == 404, (method, url, r.status_code)


def test_query_string_ids_out_of_range_are_ignored_not_a_500(app, world, no_csrf):
    organiser = login(app, "organiser")
    for url in ("/org/games/nmsg-2019/checkin?delegation=3000000000", "/org/queue?delegation=99999999999999999999",
                "/org/games/nmsg-2019/cards?delegation=3000000000", "/org/games/nmsg-2019/meeting?delegation=-5"):
        assert get(app, organiser, url).status_code in (200, 404), url
    accountant = login(app, "accountant")
    r = post(app, accountant, "/money/assign/1", data={"delegation": "3000000000"})
    assert r.status_code in (302, 400, 404, 422), r.status_code
