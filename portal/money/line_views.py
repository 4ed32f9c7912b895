"""The bank statement's lines, a page at a time: matched, unmatched, duplicates; a match
undone, a line marked a duplicate, or assigned to a delegation by hand."""
from __future__ import annotations

from flask import abort, flash, redirect, render_template, request, url_for
from flask_wtf import FlaskForm

from ..access import scope
from ..access.guards import roles
from ..audit.current import actor
from ..delegations.queries import delegation
from ..games.services import games_by_id
from ..ids import db_id
from ..roles import Role
from ..translation import gettext as _
from ..web import outcome_text
from . import import_jobs, queries, services, statement as statements, statement_views  # noqa: F401  (its routes)
from .blueprint import bp
from .page_args import READERS, _games_arg


@bp.get("/money/lines")
@roles(*READERS)
def lines():
    """The bank lines of a Games (or of one imported file): matched ones with the delegation
    they went to and how, the unmatched, and possible duplicates; filtered and paginated."""
    games, all_games = _games_arg()
    if games is None:
        abort(404)
    show = request.args.get("show", "")
    show = show if show in queries.LINE_FILTERS else ""
    statement_name = (request.args.get("statement") or "").strip()[:200]
    page = max(1, min(request.args.get("page", 1, type=int) or 1, 10_000))
    found = queries.lines_page(games, statement_name, show, page)
    delegations = services.reconciliation_names(games)
    return render_template("money/lines.html", games=games, all_games=all_games, rows=found.rows,
                           payer_fits=services.payer_fits,
                           more=found.more, page=page, show=show, statement=statement_name,
                           statements=found.statements, counts=found.counts, twins=found.twins, delegations=delegations,
                           form=FlaskForm())


@bp.post("/money/lines/<int:line_id>/undo")
@roles(Role.ACCOUNTANT)
def undo(line_id):
    """Undo a match, by hand or by the import (audited; the payment is reversed in the
    ledger, the leaders told); the line can then be matched to the right delegation."""
    if not FlaskForm().validate_on_submit():
        abort(400)
    line = queries.bank_line(line_id) or abort(404)
    scope.require(line.games_id)
    out = services.undo_match(line, actor())
    flash(_("已撤销匹配；该笔到账已从原代表团的账上冲回，并已通知其领队。现在可以把它匹配到正确的代表团。") if out.ok
          else outcome_text(out),
          "success" if out.ok else "error")
    return redirect(request.referrer if request.referrer and request.referrer.startswith(request.host_url)
                    else url_for(".lines", games=_slug(line.games_id)))


@bp.post("/money/lines/<int:line_id>/duplicate")
@roles(Role.ACCOUNTANT)
def duplicate(line_id):
    """The accountant's word on a possible duplicate: "same payment" or "a payment of its own"."""
    if not FlaskForm().validate_on_submit():
        abort(400)
    line = queries.bank_line(line_id) or abort(404)
    scope.require(line.games_id)
    decision = request.form.get("decision")
    if decision not in ("same", "own"):
        abort(400)
    out = services.decide_duplicate(line, decision == "same", actor())
    if out.ok:
        flash(_("已确认为重复，不记账。") if decision == "same" else
              _("已确认不是重复；请为这笔到账指定代表团。"), "success")
    else:
        flash(outcome_text(out), "error")
    return redirect(request.referrer if request.referrer and request.referrer.startswith(request.host_url)
                    else url_for(".lines", games=_slug(line.games_id)))


def _slug(games_id):
    games = games_by_id(games_id) if games_id else None
    return games.slug if games else None


@bp.post("/money/lines/<int:line_id>/assign")
@roles(Role.ACCOUNTANT)
def assign(line_id):
    if not FlaskForm().validate_on_submit():
        abort(400)
    line = queries.bank_line(line_id) or abort(404)
    scope.require(line.games_id)
    d = delegation(request.form.get("delegation", type=db_id))
    if d is None or d.games_id != line.games_id:
        flash(_("请选择同一比赛的代表团。"), "error")
    elif not (out := services.assign_line(line, d, actor())).ok:
        flash(outcome_text(out), "error")
    else:
        balance = services.totals(d)["balance"]
        if balance < 0:  # matched onto a delegation that had paid already: the excess is owed back
            excess = f"{-balance:,.2f}"
            flash(_("已匹配。该代表团原已结清，现多付 ¥%(amount)s，状态为“应退款”。", amount=excess), "warning")
        else:
            flash(_("已匹配。"), "success")
    games = games_by_id(line.games_id)
    return redirect(url_for(".overview", games=games.slug if games else None))
