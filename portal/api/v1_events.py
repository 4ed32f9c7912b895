"""Version 1's events (issue 24, 3): who plays each event (approved, valid entries, as the
draw and the results read them), its draw and its results, and results written by the
organisers' systems (a pairing program) through the same service as the results page.

As on the pages: the organisers see every delegation's players, draws and results; a
leader sees his own delegation's players and results only; an accountant's token has no
business here."""
from __future__ import annotations

from flask import jsonify, request
from flask_login import current_user
from pydantic import BaseModel, Field
from spectree import Response

from ..audit.current import actor
from ..extensions import api_limit, csrf
from ..games.models import Games
from ..games.services import definition_of
from ..results import draws, entrants, services as results
from ..roles import ORGANISERS, Role
from .blueprint import bp
from .gate import games_or_404, gate, problem, require_role, require_token
from .shapes import Problem, Text, spec

STAFF = ORGANISERS  # the API's staff: those who run the Games


class EventRef(BaseModel):
    code: str
    name: Text


class PlayerItem(BaseModel):
    key: str = Field(description="the player in this event: send it back as `player` in results")
    number: int | None = Field(description="the drawn number (序号), once drawn")
    name: str
    unit: Text
    delegation: int
    gender: str | None
    birth_year: int | None
    club: str | None
    members: list[str] = Field(description="a team's members, by name")


class LeftOutItem(BaseModel):
    name: str
    unit: str
    delegation: int | None
    why: Text


class EntriesPage(BaseModel):
    event: EventRef
    players: list[PlayerItem]
    left_out: list[LeftOutItem] = Field(description="entries that do not play, each with the reason")


class DrawnNumber(BaseModel):
    number: int
    name: str
    unit: str


class DrawPage(BaseModel):
    event: EventRef
    drawn_at: str
    reason: str | None
    numbers: list[DrawnNumber]


class PlacingItem(BaseModel):
    place: int
    name: str
    delegation: int | None
    player: str
    score: str | None
    points: str | None
    medal: str | None
    awarded: bool


class ResultsPage(BaseModel):
    event: EventRef
    entrants: int
    computed: bool = Field(description="a team event computed from its members' individual results")
    results: list[PlacingItem]


class ResultLine(BaseModel):
    place: int = Field(ge=1, le=10_000)
    player: str | None = Field(default=None, max_length=40, description="a player's `key` from the entries")
    number: int | None = Field(default=None, ge=1, le=100_000, description="or the drawn number")
    name: str | None = Field(default=None, max_length=200, description="or the name (with the unit if shared)")
    unit: str | None = Field(default=None, max_length=200)
    score: str | None = Field(default=None, max_length=24, description="积分, as decimal text")
    tie_breaks: dict[str, str] | None = Field(default=None, description="buchholz, median, wins, sonneborn")


class ResultsBody(BaseModel):
    entrants: int | None = Field(default=None, ge=1, le=100_000, description="who played, if not every player")
    results: list[ResultLine] = Field(max_length=2000)


def _event(games: Games, code: str):
    event = next((e for e in definition_of(games).events if e.code == code), None)
    if event is None:
        from flask import abort
        abort(problem(404, "Not Found", "No such event in these Games."))
    return event


def _event_ref(event) -> dict:
    return {"code": event.code, "name": {"zh": event.name.zh, "en": event.name.en}}


def _own_only() -> int | None:
    """A leader's token sees its own delegation's players only."""
    return current_user.delegation_id if current_user.role == Role.LEADER else None


@bp.get("/games/<slug>/events/<event>/entries")
@api_limit
@spec.validate(resp=Response(HTTP_200=EntriesPage, HTTP_403=Problem, HTTP_404=Problem), tags=["events"])
def event_entries(slug, event):
    """Who plays the event: approved delegations' entries as they stand after substitutions,
    less withdrawals, the waiting list and entries void without their fee; and each entry
    left out with the reason."""
    require_token("read")
    require_role("leader", *STAFF)
    games = games_or_404(slug)
    ev = _event(games, event)
    listed, left = entrants.players(games, event)
    own = _own_only()
    if own is not None:
        listed = [p for p in listed if p.delegation_id == own]
        left = [x for x in left if x.delegation_id == own]
    members = results.team_members(games, event) if ev.is_team else {}
    return jsonify({"event": _event_ref(ev), "players": [{
        "key": p.key, "number": p.number, "name": p.name, "unit": {"zh": p.unit, "en": p.unit_en},
        "delegation": p.delegation_id, "gender": p.gender, "birth_year": p.birth_date.year if p.birth_date else None,
        "club": p.club, "members": members.get(p.key, [])} for p in listed],
        "left_out": [{"name": x.name, "unit": x.unit, "delegation": x.delegation_id,
                      "why": {"zh": x.why[0], "en": x.why[1]}} for x in left]})


@bp.get("/games/<slug>/events/<event>/draw")
@api_limit
@spec.validate(resp=Response(HTTP_200=DrawPage, HTTP_403=Problem, HTTP_404=Problem), tags=["events"])
def event_draw(slug, event):
    """The event's current draw (a redraw supersedes the last one, with its reason)."""
    require_token("read")
    require_role(*STAFF)
    games = games_or_404(slug)
    ev = _event(games, event)
    draw = draws.current_draw(games, event)
    if draw is None:
        return problem(404, "Not Found", "This event has not been drawn.", code="no_draw")
    return jsonify({"event": _event_ref(ev), "drawn_at": draw.drawn_at.isoformat(), "reason": draw.reason,
                    "numbers": [{"number": n, "name": name, "unit": unit} for n, _pid, name, unit in draw.numbers]})


def _results_page(games: Games, ev) -> dict:
    st = results.games_standings(games)
    own = _own_only()
    placings = [p for p in st.placings.get(ev.code, []) if own is None or p.unit == str(own)]
    text = results.decimal_text  # exact fractions, as the results page prints them
    return {"event": _event_ref(ev), "entrants": st.entrants.get(ev.code, 0), "computed": ev.code in st.computed,
            "results": [{"place": p.place, "name": p.label, "delegation": int(p.unit) if p.unit.isdigit() else None,
                         "player": p.key, "score": text(p.score), "points": text(p.points) if st.points else None,
                         "medal": p.medal, "awarded": p.awarded} for p in placings]}


@bp.get("/games/<slug>/events/<event>/results")
@api_limit
@spec.validate(resp=Response(HTTP_200=ResultsPage, HTTP_403=Problem, HTTP_404=Problem), tags=["events"])
def event_results(slug, event):
    """The event's ranking with what each place earns (points, medal) under the regulation;
    a leader's token, his own delegation's lines."""
    require_token("read")
    require_role("leader", *STAFF)
    games = games_or_404(slug)
    return jsonify(_results_page(games, _event(games, event)))


@bp.put("/games/<slug>/events/<event>/results")
@csrf.exempt  # a bearer token, never a cookie
@api_limit
@spec.validate(json=ResultsBody, resp=Response(HTTP_200=ResultsPage, HTTP_403=Problem, HTTP_404=Problem,
                                               HTTP_422=Problem), tags=["events"], before=gate("write", *STAFF))
def event_results_put(slug, event):
    """Replace the event's results, all or nothing, as the results page does: every line
    unmatched, duplicated, ineligible or out of range is answered at once (422)."""
    require_token("write")
    require_role(*STAFF)
    games = games_or_404(slug)
    ev = _event(games, event)
    body = request.context.json
    lines, problems = results.lines_from_items([x.model_dump() for x in body.results])
    if lines or not problems:
        out = results.enter_results(games, event, lines, actor(), body.entrants, read_problems=problems)
        problems = [] if out.ok else out.details["problems"]
    if problems:
        en = request.accept_languages.best_match(["zh", "en"], "zh") == "en"  # Chinese unless asked
        problems = [p.read(en) for p in problems]
        return problem(422, "Unprocessable Content", problems[0], code="results", problems=problems)
    return jsonify(_results_page(games, ev))
