"""Results and standings: the organisers enter each event's ranking by choosing among its
players (or import the pairing program's sheet), see the tables the regulation sets up,
record absences per round and export the players for pairing programs; a leader sees his
delegation's standing in his workspace."""
from __future__ import annotations

from urllib.parse import quote

from flask import Blueprint, Response, abort, flash, redirect, render_template, request, url_for
from flask_wtf import FlaskForm

from ..access import scope
from ..access.guards import delegation_view, roles
from ..audit.current import actor
from ..delegations.queries import delegation_units
from ..delegations.views import Workspace
from ..games.models import Games
from ..games.services import definition_of, unit_names
from ..ids import db_id
from ..jobs.views import start
from ..roles import ORGANISERS, STAFF
from ..rules.standings import places_awarded
from ..sheets import csv_chunks
from ..translation import gettext as _
from ..web import in_language, is_en, outcome_text
from . import draws, entrants, pairing, programme, services  # noqa: F401  (programme registers its job kind)

bp = Blueprint("results", __name__)
ORG = ORGANISERS
MAX_BYTES = 2 * 1024 * 1024


def _games(slug) -> Games:
    return scope.games_or_404(slug)  # only the staff of this Games (and administrators)


def _names(games) -> dict[str, str]:
    en = is_en()
    units = unit_names("en" if en else "zh")
    return {str(did): units.get(code, name or code or "") for did, code, name in delegation_units([games.id])}


def _events(games):
    en = is_en()
    definition = definition_of(games)
    sports = {s.code: s for s in definition.sports}
    return [(e.code, f"{(sports[e.sport].name.en if en else sports[e.sport].name.zh)} "
                     f"{e.name.en if en else e.name.zh}") for e in definition.events]


def _event(games, code):
    event = next((e for e in definition_of(games).events if e.code == code), None)
    return event or abort(404)


@bp.get("/org/games/<slug>/results")
@roles(*ORG)
def results(slug):
    games = _games(slug)
    st = services.games_standings(games)
    definition = definition_of(games)
    awarded = {code: places_awarded(definition, code, n) for code, n in st.entrants.items()}
    return render_template("results/games.html", games=games, events=_events(games), st=st,
                           awarded=awarded, names=_names(games), form=FlaskForm(),
                           outside_rule=services.outside_medals_rule(definition),
                           delegations=_delegation_choices(games))


def _delegation_choices(games):
    names = _names(games)
    return sorted(((did, name) for did, name in names.items()), key=lambda x: x[1])


@bp.route("/org/games/<slug>/results/<event>", methods=["GET", "POST"])
@roles(*ORG)
def event_results(slug, event):
    games = _games(slug)
    ev = _event(games, event)
    definition = definition_of(games)
    form = FlaskForm()
    problems, typed = [], ""
    listed, left_out = entrants.players(games, event)
    computed = services.computed_from_individuals(definition, event) is not None
    if request.method == "POST" and not computed:
        if not form.validate_on_submit():
            abort(400)
        upload = request.files.get("file")
        data = upload.read(MAX_BYTES + 1) if upload and upload.filename else b""
        typed = (request.form.get("lines") or "")[:50_000]
        lines = []
        if len(data) > MAX_BYTES:
            problems = [_("文件太大（最多 2 MB）。")]
        elif data or typed.strip():
            lines, problems = services.read_sheet(data or typed.encode("utf-8"), upload.filename if data else "results.csv")
        else:
            lines, problems = services.lines_from_form(request.form, listed)
        if lines or not problems:  # every bad line at once: those unreadable and those unmatched
            out = services.enter_results(games, event, lines, actor(),
                                         request.form.get("entrants", type=db_id), read_problems=problems)
            problems = [] if out.ok else out.details["problems"]
        if not problems:
            flash(_("成绩已保存。"), "success")
            return redirect(url_for(".event_results", slug=slug, event=event))
    st = services.games_standings(games)
    shown = {p.key: p for p in st.placings.get(event, [])}
    wins = not computed and services.wins_read(definition, event)  # a promotion by wins reads them
    from ..rules.standings import clauses_for, places_awarded
    return render_template("results/event.html", clauses=clauses_for(definition, event), games=games, event=ev, label=dict(_events(games))[event],
                           players=listed, left_out=left_out, placings=st.placings.get(event, []), shown=shown,
                           awarded=places_awarded(definition, event, len(listed)), points=st.points,
                           computed=computed, form=form, problems=problems, typed=typed,
                           wins=wins, wins_stored=services.stored_wins(games, event) if wins else {},
                           rounds=pairing.rounds_rule(definition, ev), absences=pairing.absences(games, event),
                           members=services.team_members(games, event) if ev.is_team else {}), \
        (422 if problems else 200)


@bp.post("/org/games/<slug>/results/<event>/absences")
@roles(*ORG)
def absences(slug, event):
    games = _games(slug)
    ev = _event(games, event)
    if not FlaskForm().validate_on_submit():
        abort(400)
    rule = pairing.rounds_rule(definition_of(games), ev) or abort(404)
    listed, _left = entrants.players(games, event)
    marked = set(request.form.getlist("absent")[:10_000])
    upload = request.files.get("file")
    problem = None
    if upload and upload.filename:  # the pairing program's TRF-16, its rounds read for who was absent
        from ..sheets import decode_text
        marked, problems = pairing.absences_from_trf(decode_text(upload.read(MAX_BYTES)), listed)
        problem = "；".join(in_language(p) for p in problems) or None
    if problem is None:
        out = pairing.record_absences(games, event, rule, listed, marked, actor())
        problem = None if out.ok else outcome_text(out)
    flash(problem if problem else _("出勤记录已保存。"), "error" if problem else "success")
    return redirect(url_for(".event_results", slug=slug, event=event))


@bp.get("/org/games/<slug>/results/<event>/players.<fmt>")
@roles(*ORG)
def pairing_export(slug, event, fmt):
    """The players for a pairing program: TRF-16 (chess programs) or an Excel sheet of 序号,
    姓名, 性别, 单位, 组别 (Chinese 编排 programs); those no longer paired are left out."""


    games = _games(slug)
    ev = _event(games, event)
    if fmt not in ("xlsx", "trf"):
        abort(404)
    content, mimetype = pairing.export(games, ev, fmt)
    name = f"{slug}-{event}-players.{'txt' if fmt == 'trf' else fmt}"
    return Response(content, mimetype=mimetype,
                    headers={"Content-Disposition": f"attachment; filename*=UTF-8''{quote(name)}"})


@bp.post("/org/games/<slug>/outside-medals")
@roles(*ORG)
def outside_medal(slug):
    games = _games(slug)
    if not FlaskForm().validate_on_submit():
        abort(400)
    problems = services.add_outside_medal(games, request.form.get("delegation", type=db_id) or 0,
                                          request.form.get("medal") or "", (request.form.get("athlete") or "")[:200],
                                          (request.form.get("event_name") or "")[:200], actor())
    for p in problems:
        flash(in_language(p), "error")
    if not problems:
        flash(_("已计入奖牌榜。"), "success")
    return redirect(url_for(".results", slug=slug))


@bp.get("/d/<int:delegation_id>/standing")
@delegation_view(*STAFF)
def standing(d):
    st = services.games_standings(d.games)
    mine = next((u for u in st.table if u.unit == str(d.id)), None)
    placings = [p for ps in st.placings.values() for p in ps if p.unit == str(d.id)]
    derived = [(s, [r for r in s.rows if r.unit == str(d.id)]) for s in st.derived]
    return render_template("results/standing.html", ws=Workspace(d), d=d, games=d.games, mine=mine, st=st,
                           placings=placings, derived=derived, names=_names(d.games), events=dict(_events(d.games)))


@bp.route("/org/games/<slug>/draw", methods=["GET", "POST"])
@roles(*ORG)
def draw(slug):
    games = _games(slug)
    form = FlaskForm()
    events = [(code, label) for code, label in _events(games)
              if not next(e for e in definition_of(games).events if e.code == code).is_team]
    problem = None
    shown = request.values.get("event") or (events[0][0] if events else "")
    if request.method == "POST":
        if not form.validate_on_submit():
            abort(400)
        made = None
        if shown not in dict(events):
            problem = _("请选择一个个人项目。")
        elif request.form.get("confirmed") != "yes":
            problem = _("请先核对下方可参赛的选手和未编排的报名，再确认抽签。")
        else:
            out = draws.make_draw(games, shown, actor(), request.form.get("reason"))
            made, problem = (out.details["draw"], None) if out.ok else (None, outcome_text(out))
        if made is not None:
            flash(_("已抽签：%(n)d 名选手。", n=len(made.numbers)), "success")
            return redirect(url_for(".draw", slug=slug, event=shown))
    current = draws.current_draw(games, shown) if shown else None
    listed, left_out = entrants.players(games, shown) if shown in dict(events) else ([], [])
    return render_template("results/draw.html", games=games, events=events, shown=shown, current=current,
                           players=listed, left_out=left_out, form=form, problem=problem), (422 if problem else 200)


@bp.get("/org/games/<slug>/draw/<event>.csv")
@roles(*ORG)
def draw_csv(slug, event):
    from urllib.parse import quote

    from flask import Response

    from . import draws
    games = _games(slug)
    current = draws.current_draw(games, event) or abort(404)
    rows = [[n, name, unit] for n, _pid, name, unit in current.numbers]
    header = ["number", "name", "unit"] if is_en() else ["序号", "姓名", "单位"]  # the reader's language
    return Response(b"".join(csv_chunks(header, rows)), mimetype="text/csv",
                    headers={"Content-Disposition": f"attachment; filename*=UTF-8''{quote(f'{slug}-{event}-draw.csv')}"})


@bp.post("/org/games/<slug>/programme")
@roles(*ORG)
def programme_book(slug):
    """The programme book (秩序册), made in the background; PDF or Excel."""
    games = _games(slug)
    if not FlaskForm().validate_on_submit():
        abort(400)
    fmt = "xlsx" if request.form.get("fmt") == "xlsx" else "pdf"
    return start("programme_book", {"games": games.slug, "fmt": fmt},
                 _("%(name)s 秩序册", name=games.name_en if is_en() else games.name_zh))
