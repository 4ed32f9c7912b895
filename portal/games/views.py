"""The organisers' list of units: the national list, and the clubs, joint teams and other
units they add by uploading a sheet (unit_sheet.py)."""
from __future__ import annotations

from flask import Blueprint, abort, flash, g, redirect, render_template, request, url_for
from flask_babel import gettext as _
from flask_wtf import FlaskForm
from sqlalchemy import select

from ..access.guards import roles
from ..audit.current import actor
from ..extensions import db
from ..roles import ORGANISERS, STAFF, Role
from .models import Unit
from .services import national_units, read_back_of, regulation_clauses
from .unit_sheet import known_kinds, read_units_sheet, save_units

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
    rows = db.session.scalars(select(Unit).order_by(Unit.kind, Unit.code)).all()
    return render_template("games/units.html", units=rows, kinds=known_kinds(), form=form, problems=problems), \
        (422 if problems else 200)


def refused_unit_changes(lines) -> list[str]:
    """An organiser adds units and changes those only his Games use; the national list, and
    a unit another Games' delegations use, are the administrators' to change."""
    from flask_login import current_user
    from sqlalchemy import not_

    from ..access import scope
    from ..delegations.models import Delegation
    if current_user.role == Role.ADMIN:
        return []
    existing = {u.code: u for u in db.session.scalars(select(Unit).where(Unit.code.in_([x.code for x in lines])))}
    national = {u["code"] for u in national_units()}
    elsewhere = set(db.session.scalars(select(Delegation.unit_code).where(
        Delegation.unit_code.in_(list(existing)), not_(scope.games_clause(Delegation.games_id))).distinct()))
    out = []
    for x in lines:
        row = existing.get(x.code)
        if row is None or (row.name_zh, row.name_en, row.kind, row.province_code) == (x.name, x.name_en, x.kind, x.province_code):
            continue
        if x.code in national or x.code in elsewhere:
            out.append(_("第 %(row)d 行：“%(name)s”在全国名单中或已有其他比赛使用，只有系统管理员能修改。",
                         row=x.row, name=row.name_zh))
    return out


@bp.get("/org/games/<slug>/regulation")
@roles(*STAFF)
def regulation(slug):
    """The regulation read back (规程解读): every rule in a sentence with its clause, for the
    organiser to proof-read against the regulation's text."""
    games = g.games  # the access decorator found it, among the Games this account serves
    clauses, known_refs = regulation_clauses(games)
    return render_template("games/readback.html", g=games, read_back=read_back_of(games), clauses=clauses,
                           known_refs=known_refs)
