"""The organisers' list of units: the national list, and the clubs, joint teams and other
units they add by uploading a sheet (unit_sheet.py)."""
from __future__ import annotations

from flask import Blueprint, abort, flash, g, redirect, render_template, request, url_for
from flask_wtf import FlaskForm

from ..access.guards import roles
from ..audit.current import actor
from ..roles import ORGANISERS, STAFF
from ..translation import gettext as _
from .queries import all_units
from .services import read_back_of, regulation_clauses
from .unit_sheet import known_kinds, read_units_sheet, refused_unit_changes, save_units

bp = Blueprint("games", __name__)
MAX_BYTES = 2 * 1024 * 1024


@bp.route("/org/units", methods=["GET", "POST"])
@roles(*ORGANISERS)
def units():
    form = FlaskForm()
    problems = []
    if request.method == "POST":
        if not form.validate_on_submit():
            abort(400)
        upload = request.files.get("file")
        data = upload.read(MAX_BYTES + 1) if upload and upload.filename else b""
        if not data:
            problems = [_("请选择单位表文件（Excel 或 CSV）。")]
        elif len(data) > MAX_BYTES:
            problems = [_("文件太大（最多 2 MB）。")]
        else:
            lines, problems = read_units_sheet(data, upload.filename)
            problems += refused_unit_changes(lines)
            if not problems:
                added, changed = save_units(lines, actor())
                flash(_("已保存单位：新增 %(a)d 个，更新 %(c)d 个。", a=added, c=changed), "success")
                return redirect(url_for(".units"))
    rows = all_units()
    return render_template("games/units.html", units=rows, kinds=known_kinds(), form=form, problems=problems), \
        (422 if problems else 200)


@bp.get("/org/games/<slug>/regulation")
@roles(*STAFF)
def regulation(slug):
    """The regulation read back (规程解读): every rule in a sentence with its clause, for the
    organiser to proof-read against the regulation's text."""
    games = g.games  # the access decorator found it, among the Games this account serves
    clauses, known_refs = regulation_clauses(games)
    return render_template("games/readback.html", g=games, read_back=read_back_of(games), clauses=clauses,
                           known_refs=known_refs)
