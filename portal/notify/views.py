"""The organisers' view of what the portal wrote to the delegations of their Games: each
message's state, and those that could not be sent (with why), to send again."""
from __future__ import annotations

from urllib.parse import urlsplit

from flask import Blueprint, abort, flash, redirect, render_template, request, url_for
from flask_wtf import FlaskForm

from ..access.guards import roles
from ..audit.current import actor
from ..roles import ORGANISERS
from ..translation import gettext as _
from . import queries
from .models import OutboxStatus
from .sender import send_again
from .services import WEBHOOK_EVENTS

bp = Blueprint("notify", __name__)
ORG = ORGANISERS
STATES = tuple(OutboxStatus)


@bp.get("/org/outbox")
@roles(*ORG)
def outbox():
    status = request.args.get("status") if request.args.get("status") in STATES else ""
    messages, counts = queries.outbox(status)
    return render_template("notify/outbox.html", messages=messages, counts=counts, status=status, form=FlaskForm(),
                           webhook_events=WEBHOOK_EVENTS, host_of=lambda url: urlsplit(url).hostname or "")


@bp.post("/org/outbox/<int:message_id>/retry")
@roles(*ORG)
def retry_message(message_id):
    if not FlaskForm().validate_on_submit():
        abort(400)
    queries.message(message_id) or abort(404)
    if send_again(message_id):
        flash(_("将重新发送。"), "success")
    return redirect(url_for(".outbox", status=OutboxStatus.FAILED))


@bp.route("/org/games/<slug>/webhooks", methods=["GET", "POST"])
@roles(*ORG)
def webhooks(slug):
    """The URLs told of each submission, approval, substitution decided and payment matched
    in these Games (signed POSTs; the secret is shown once, when the URL is added)."""
    from flask import g

    from ..outcome import Refusal
    from ..web import is_en
    from .services import add_webhook
    games, made, problems = g.games, None, []
    if request.method == "POST":
        if not FlaskForm().validate_on_submit():
            abort(400)
        try:
            _row, made = add_webhook(games.id, games.slug, request.form.get("url", ""), actor())
        except Refusal as refusal:
            problems = [refusal.message[1] if is_en() else refusal.message[0]]
    hooks = queries.webhooks(games)
    return render_template("notify/webhooks.html", games=games, hooks=hooks, made=made, problems=problems,
                           form=FlaskForm()), (422 if problems else 200)


@bp.post("/org/games/<slug>/webhooks/<int:webhook_id>/remove")
@roles(*ORG)
def remove_webhook(slug, webhook_id):
    from flask import g

    from .services import remove_webhook as remove
    if not FlaskForm().validate_on_submit():
        abort(400)
    row = queries.webhook_of(g.games, webhook_id) or abort(404)
    remove(row, actor())
    flash(_("已删除。"), "success")
    return redirect(url_for(".webhooks", slug=slug))
