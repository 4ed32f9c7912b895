"""A delegation's money, in its workspace: the statement of account (page, Excel, PDF) and
the rooms it books. Leaders see their own; the committee's staff every delegation's."""
from __future__ import annotations

import re
from io import BytesIO

from flask import flash, redirect, render_template, request, send_file, url_for
from flask_wtf import FlaskForm
from wtforms import DateField, IntegerField, SelectField, StringField
from wtforms.validators import DataRequired, Length, NumberRange, Optional

from ..access.guards import delegation_view
from ..audit.current import actor
from ..delegations import picker
from ..delegations.workspace import Workspace
from ..form_choices import options
from ..outcome import Status
from ..roles import STAFF as READERS
from ..translation import gettext as _, lazy_gettext as _l
from ..web import is_en, outcome_text
from . import queries, services, statement as statements
from .blueprint import bp


class RoomForm(FlaskForm):
    room_type = SelectField(_l("房型"))
    first_night = DateField(_l("入住日期"), validators=[DataRequired()])
    last_night = DateField(_l("最后一晚"), validators=[DataRequired()])
    rooms = IntegerField(_l("房间数"), default=1, validators=[NumberRange(1, 200)])
    occupants = StringField(_l("入住人员（姓名，用顿号或逗号分隔；填写后按每人的报到、离会日期核对）"),
                            validators=[Optional(), Length(max=2000)])
    people = IntegerField(_l("人数"), default=1, validators=[NumberRange(1, 400)])


def _title(d, en: bool = False):
    if en:
        return f"{d.games.name_en} · {d.unit_code or d.unit_name or d.id} · statement of fees"
    return f"{d.games.name_zh} · {d.unit_code or d.unit_name or d.id} · 费用对账单"


@bp.get("/d/<int:delegation_id>/statement")
@delegation_view(*READERS)
def statement(d):
    ws = Workspace(d)
    data = statements.statement(d, ws.violations, ws.doc)
    return render_template("workspace/statement.html", ws=ws, d=d, doc=ws.doc, s=data,
                           kinds=statements.KIND_NAMES, names=statements.STATUS_NAMES)


@bp.get("/d/<int:delegation_id>/statement.xlsx")
@delegation_view(*READERS)
def statement_xlsx(d):
    data = statements.statement(d)
    return send_file(BytesIO(statements.to_xlsx(data, _title(d, is_en()), en=is_en())), as_attachment=True,
                     download_name=f"{d.games.slug}-{d.unit_code or d.id}-statement.xlsx",
                     mimetype="application/vnd.openxmlformats-officedocument.spreadsheetml.sheet")


@bp.get("/d/<int:delegation_id>/statement.pdf")
@delegation_view(*READERS)
def statement_pdf(d):
    data = statements.statement(d)
    return send_file(BytesIO(statements.to_pdf(data, _title(d))), mimetype="application/pdf",
                     as_attachment=True, download_name=f"{d.games.slug}-{d.unit_code or d.id}-statement.pdf")


def _occupants(ws, text: str | None) -> tuple[list[str], list[str]]:
    """The refs of the names typed (顿号, commas or lines between them), and what matched nobody."""
    refs, unknown = [], []
    for name in re.split(r"[、,，;；\n]+", text or ""):
        ref, ok = picker.resolve(ws.people, name)
        if not ok:
            unknown.append(name.strip())
        elif ref and ref not in refs:
            refs.append(ref)
    return refs, unknown


@bp.route("/d/<int:delegation_id>/rooms", methods=["GET", "POST"])
@delegation_view(*READERS)
def delegation_rooms(d):
    ws = Workspace(d)
    definition = ws.definition
    form = RoomForm()
    form.room_type.choices = options((r.code, f"{r.name.en if is_en() else r.name.zh} · ¥{r.rate}") for r in definition.rooms)
    first, last, strict = services.stay_window(definition)
    if request.method == "GET":
        form.first_night.data, form.last_night.data = first, last
    elif form.validate_on_submit():
        occupants, unknown = _occupants(ws, form.occupants.data)
        if unknown:
            form.occupants.errors.append(_("找不到这些人员（或有同名的人）：%(names)s", names="、".join(unknown)))
        else:
            out = services.request_rooms(d, form.room_type.data, form.first_night.data, form.last_night.data,
                                         form.rooms.data, form.people.data, actor(), occupants=occupants or None)
            if out.status == Status.ALLOCATED:
                flash(_("已预订。"), "success")
                return redirect(url_for(".delegation_rooms", delegation_id=d.id))
            if out.status == Status.WAITLISTED:  # booked, but some nights wait for a room
                flash(outcome_text(out), "warning")
            else:
                flash(outcome_text(out) or _("预订未成功。"), "error")
    mine = queries.rooms_of(d)
    return render_template("workspace/rooms.html", ws=ws, d=d, doc=ws.doc, form=form, mine=mine,
                           window=(first, last, strict), rooms=definition.rooms)

