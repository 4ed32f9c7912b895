"""Results and standings: the organisers enter each event's final places (or import the
pairing program's sheet) and see the medal and points tables; a leader sees his
delegation's standing."""
from __future__ import annotations

from flask import Blueprint, abort, flash, redirect, render_template, request, url_for
from flask_babel import gettext as _
from flask_wtf import FlaskForm
from sqlalchemy import select

from ..accounts.access import delegation_view, roles
from ..accounts.views import actor
from ..delegations.models import Delegation
from ..extensions import db
from ..games.models import Games, Unit
from ..games.services import definition_of
from ..web import is_en
from . import programme, services  # noqa: F401  (programme registers its job kind)

bp = Blueprint("results", __name__)
ORG = ("organiser", "admin")
MAX_BYTES = 2 * 1024 * 1024


def _names(games) -> dict[str, str]:
    en = is_en()
    units = {u.code: (u.name_en if en else u.name_zh) for u in db.session.scalars(select(Unit))}
    return {str(did): units.get(code, name or code or "") for did, code, name in db.session.execute(
        select(Delegation.id, Delegation.unit_code, Delegation.unit_name).where(Delegation.games_id == games.id))}


def _events(games):
    en = is_en()
    definition = definition_of(games)
    sports = {s.code: s for s in definition.sports}
    return [(e.code, f"{(sports[e.sport].name.en if en else sports[e.sport].name.zh)} "
                     f"{e.name.en if en else e.name.zh}") for e in definition.events]


@bp.route("/org/games/<slug>/results", methods=["GET", "POST"])
@roles(*ORG)
def results(slug):
    games = db.session.scalar(select(Games).where(Games.slug == slug)) or abort(404)
    form = FlaskForm()
    problems = []
    if request.method == "POST":
        if not form.validate_on_submit():
            abort(400)
        event = request.form.get("event") or ""
        upload = request.files.get("file")
        data = upload.read(MAX_BYTES + 1) if upload and upload.filename else b""
        text = (request.form.get("lines") or "")[:50_000]
        if len(data) > MAX_BYTES:
            problems = [_("文件太大（最多 2 MB）。")]
        elif not data and not text.strip():
            problems = [_("请上传成绩表，或逐行填写“名次, 单位, 姓名或队名”。")]
        else:
            rows, problems = services.read_sheet(data or text.encode("utf-8"),
                                                 upload.filename if data else "results.csv")
            if not problems:
                entrants = request.form.get("entrants", type=int)
                problems = services.enter_results(games, event, rows, actor(),
                                                  entrants if entrants and entrants > 0 else None)
        if not problems:
            flash(_("成绩已保存。"), "success")
            return redirect(url_for(".results", slug=slug))
    placings, table = services.games_standings(games)
    return render_template("results/games.html", games=games, events=_events(games), placings=placings,
                           table=table, names=_names(games), form=form, problems=problems,
                           typed=request.form.get("lines", "") if problems else ""), (422 if problems else 200)


@bp.get("/d/<int:delegation_id>/standing")
@delegation_view("organiser", "admin", "accountant")
def standing(d):
    placings, table = services.games_standings(d.games)
    mine = next((u for u in table if u.unit == str(d.id)), None)
    return render_template("results/standing.html", d=d, games=d.games, mine=mine, table=table,
                           names=_names(d.games), events=dict(_events(d.games)))


@bp.route("/org/games/<slug>/draw", methods=["GET", "POST"])
@roles(*ORG)
def draw(slug):
    from . import draws
    games = db.session.scalar(select(Games).where(Games.slug == slug)) or abort(404)
    form = FlaskForm()
    events = [(code, label) for code, label in _events(games)
              if not next(e for e in definition_of(games).events if e.code == code).is_team]
    problem = None
    if request.method == "POST":
        if not form.validate_on_submit():
            abort(400)
        event = request.form.get("event") or ""
        made = None
        if event not in dict(events):
            problem = _("请选择一个个人项目。")
        else:
            made, problem = draws.make_draw(games, event, actor(), request.form.get("reason"))
        if made is not None:
            flash(_("已抽签：%(n)d 名选手。", n=len(made.numbers)), "success")
            return redirect(url_for(".draw", slug=slug, event=event))
    shown = request.values.get("event") or (events[0][0] if events else "")
    current = draws.current_draw(games, shown) if shown else None
    return render_template("results/draw.html", games=games, events=events, shown=shown, current=current,
                           form=form, problem=problem), (422 if problem else 200)


@bp.get("/org/games/<slug>/draw/<event>.csv")
@roles(*ORG)
def draw_csv(slug, event):
    from urllib.parse import quote

    from flask import Response

    from ..sheets import csv_chunks
    from . import draws
    games = db.session.scalar(select(Games).where(Games.slug == slug)) or abort(404)
    current = draws.current_draw(games, event) or abort(404)
    rows = [[n, name, unit] for n, _pid, name, unit in current.numbers]
    return Response(b"".join(csv_chunks(["序号 number", "姓名 name", "单位 unit"], rows)), mimetype="text/csv",
                    headers={"Content-Disposition": f"attachment; filename*=UTF-8''{quote(f'{slug}-{event}-draw.csv')}"})


@bp.post("/org/games/<slug>/programme")
@roles(*ORG)
def programme_book(slug):
    """The programme book (秩序册), made in the background; PDF or Excel."""
    from ..jobs.views import start
    games = db.session.scalar(select(Games).where(Games.slug == slug)) or abort(404)
    if not FlaskForm().validate_on_submit():
        abort(400)
    fmt = "xlsx" if request.form.get("fmt") == "xlsx" else "pdf"
    return start("programme_book", {"games": games.slug, "fmt": fmt},
                 _("%(name)s 秩序册", name=games.name_en if is_en() else games.name_zh))
