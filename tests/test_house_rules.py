"""The house's rules a reviewer would otherwise check by eye (README, Contributing): pages
read through their area's query functions and write through its services, and no page
module outgrows ~300 lines."""
from __future__ import annotations

import re
from pathlib import Path

PORTAL = Path(__file__).resolve().parent.parent / "portal"
ROUTE = re.compile(r"^@\w+\.(get|post|put|delete|route)\(", re.M)
SESSION = re.compile(r"\bdb\.session\.(?!remove\()")  # ending a request's session is no read


def _page_modules() -> list[Path]:
    return sorted(p for p in PORTAL.rglob("*.py") if ROUTE.search(p.read_text(encoding="utf-8")))


def test_the_page_modules_are_found():
    names = {p.relative_to(PORTAL).as_posix() for p in _page_modules()}
    assert {"workflow/views.py", "money/line_views.py", "api/v1.py", "delegations/people_views.py"} <= names


def test_pages_read_through_query_functions_not_the_session():
    found = [f"{p.relative_to(PORTAL)}:{n}" for p in _page_modules()
             for n, line in enumerate(p.read_text(encoding="utf-8").splitlines(), 1) if SESSION.search(line)]
    assert found == [], "a page reads through its area's queries.py (or a service), not db.session"


def test_no_page_module_is_over_300_lines():
    long = {p.relative_to(PORTAL).as_posix(): n for p in _page_modules()
            if (n := len(p.read_text(encoding="utf-8").splitlines())) > 300}
    assert long == {}
