"""The proposals of a regulation's text, on their own page of the set-up screens."""
from __future__ import annotations

from flask import abort, g, render_template, request
from flask_wtf import FlaskForm

from ..access.guards import roles
from ..games.services import definition_of
from ..translation import gettext as _
from . import proposals
from .blueprint import bp
from .page import ORG, _save


@bp.get("/org/games/<slug>/setup/proposals")
@roles(*ORG)
def proposals_page(slug):
    games = g.games
    found = proposals.shown(games, definition_of(games))
    return render_template("setup/proposals.html", g=games, found=found, form=FlaskForm(),
                           held=sum(1 for x in found if x.held))


@bp.post("/org/games/<slug>/setup/proposals")
@roles(*ORG)
def accept_proposal(slug):
    """A date or deadline the regulation states, taken as the committee read it."""
    if not FlaskForm().validate_on_submit():
        abort(400)
    games = g.games
    key = (request.form.get("key") or "")[:500]
    if not key:
        abort(400, description=_("请选择一条建议"))
    proposal = proposals.find(games, key)
    if proposal is None or proposal.kind not in proposals.DIRECT:
        abort(404)
    data, section = proposals.accepted(games.definition, proposal)
    return _save(games, data, section)
