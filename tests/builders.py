"""Builders for delegation documents in tests: valid people by default, so that each test
changes only what it is about."""
from __future__ import annotations

import datetime as dt
import functools
import itertools
import re

from portal.rules.idnumber import make

_seq = itertools.count(11)
AREA = {"zhejiang": "330102", "beijing": "110101", "sichuan": "510104", "tianjin": "120101",
        "shaanxi": "610102", "dalian": "210202", "xpcc": "659001", "qianwei": "110102"}


def id_for(born: str, gender: str, area: str = "330102") -> str:
    n = next(_seq) % 500 * 2 + (1 if gender == "M" else 0)  # odd sequence: male
    return make(area, dt.date.fromisoformat(born), n)


def person(ref, gender="M", born="1995-05-05", *, unit="zhejiang", year=None, name=None,
           docs=(), area=None, **extra):
    p = {
        "ref": ref,
        "name": name or f"选手{ref}",
        "gender": gender,
        "birth_date": born,
        "id_type": "resident_id",
        "id_number": id_for(born, gender, area or AREA.get(unit or "", "330102")),
        "documents": list(docs),
    }
    if year is not None:
        p["registration"] = {"unit": unit, "year": year}
    p.update(extra)
    return p


@functools.cache
def _definition(slug):
    import yaml

    from portal.config import FIXTURES
    from portal.rules import GamesDefinition
    path = FIXTURES / "games" / f"{slug}.yaml"
    return GamesDefinition.model_validate(yaml.safe_load(path.read_text(encoding="utf-8"))) if path.exists() else None


def _declarable(games, event, named):
    """As many as are named, but never more than the regulation lets a unit declare (so a
    test of a quota on names is not also a test of the declaration)."""
    from portal.rules.checks.entries import declared_max
    definition = _definition(games)
    cap = declared_max(definition, event) if definition else None
    return max(1, min(named, cap) if cap is not None else named)


def doc(games, unit="zhejiang", people=(), entries=(), declarations=None, officials=(), staff=(),
        companions=()):
    if declarations is None:  # declare whatever is entered, as many as are named
        named: dict[str, set] = {}
        for e in entries:
            refs = e.get("people") or [s["person"] for s in e.get("lineup") or []]
            named.setdefault(e["event"], set()).update(refs)
        declarations = [{"event": e, "count": _declarable(games, e, len(refs))} for e, refs in named.items()]
    return {"format": "delegation/1", "games": games, "unit": unit, "declarations": list(declarations),
            "people": list(people), "entries": list(entries), "officials": list(officials),
            "staff": list(staff), "companions": list(companions)}


def individual(event, *refs):
    return {"event": event, "people": list(refs)}


def team(event, *slots, label="A"):
    """slots: (ref, board) or (ref, 'R') for a reserve, or a plain ref (no board)."""
    lineup = []
    for s in slots:
        if isinstance(s, str):
            lineup.append({"person": s})
        elif s[1] == "R":
            lineup.append({"person": s[0], "reserve": True})
        else:
            lineup.append({"person": s[0], "board": s[1]})
    return {"event": event, "team": label, "lineup": lineup}


def csrf_token(html: str | bytes) -> str:
    """The page's CSRF token: a form's (Flask-WTF's hidden field), else the language form's
    (every page has one). The one way the tests read it."""
    if isinstance(html, bytes):
        html = html.decode("utf-8", "replace")
    found = re.search(r'name="csrf_token" type="hidden" value="([^"]+)"', html) or \
        re.search(r'name="csrf_token" value="([^"]+)"', html)
    assert found, html[-600:]
    return found.group(1)


def logged_in(app, username: str, password: str = "password-123", client=None):
    """A test client logged in through the real login form, with its CSRF token when the
    form has one: the one way the tests log in."""
    client = client or app.test_client()
    with app.app_context():
        data = {"username": username, "password": password}
        page = client.get("/login").get_data(as_text=True)
        if 'name="csrf_token"' in page:
            data["csrf_token"] = csrf_token(page)
        resp = client.post("/login", data=data)
    assert resp.status_code == 302, resp.get_data(as_text=True)[:500]
    return client


# --- rows in the database (through the services, as the portal makes them) ------------------

def account(username: str, role: str, *, delegation=None, name: str | None = None,
            password: str = "password-123", games: list[str] | None = None):
    """A user who can log in with `password`: a leader of `delegation`, or staff of the
    Games whose slugs `games` lists (by default of every Games loaded)."""
    from sqlalchemy import select

    from portal.accounts.services import create_account
    from portal.audit.services import Actor
    from portal.extensions import db
    from portal.games.models import Games
    q = select(Games) if games is None else select(Games).where(Games.slug.in_(games))
    return create_account(username, name or username, role, Actor("t"), delegation=delegation, password=password,
                          games=db.session.scalars(q).all())[0]


def stored(games_slug: str, document: dict, at):
    """The delegation `document` describes, saved (not submitted) at `at` as the portal saves it."""
    from portal.audit.services import Actor
    from portal.games.services import find_games
    from portal.workflow import services as workflow
    out = workflow.save(workflow.new_delegation(find_games(games_slug), document["unit"]), document, Actor("t"), at)
    assert out.ok, [v.code for v in out.violations] or out.message
    return out.delegation


def saved_to_people_page(response) -> bool:
    """A person's save that stood: answered with the people page itself, whose address the
    page gives the browser (people_views._saved_person_page), not the form again."""
    return response.status_code == 200 and b'<main data-page-address="' in response.data
