"""Self-registration for Games that take individuals (shaanxi-mind-2025: entrants register
themselves, first come first served up to the cap). The entrant gets an account bound to
his registration, to upload documents and see his place and deposit.

The answer (a place or the wait list) is given as he arrives, from an arrival ticket; his
delegation and account are made just after by the background worker, while the arrival
page waits for them (accounts/arrivals.py)."""
from __future__ import annotations

from flask import abort, flash, jsonify, redirect, render_template, request, session, url_for
from flask_login import current_user

from ..audit.services import Actor
from ..clock import now
from ..extensions import rate_limit
from ..games.models import GamesStatus, utcnow
from ..games.services import definition_at, definition_of, find_games
from ..rules.stages import stage_at
from ..translation import gettext as _
from ..web import is_en, outcome_text
from ..workflow.models import TicketStatus
from . import queries
from .arrivals import ahead_of, claim_login, hand_to_worker, take_ticket, ticket_of
from .blueprint import bp
from .login_session import start_session
from .registration_form import documents_due_with_entry, judged_entry, registration_form_for

ARRIVAL = "arrival_ticket"  # the session's key: the ticket this browser was given


@bp.route("/register/<slug>", methods=["GET", "POST"])
@rate_limit("RATE_LIMIT_REGISTER")
def register(slug):
    games = find_games(slug)
    if games is None or games.status == GamesStatus.DRAFT:  # a Games being set up is not open yet
        abort(404)
    # The regulation in force as he registers: the one his entry is judged by.
    definition = definition_at(games, now())
    if not definition.participation.individuals:
        abort(404)
    stage = stage_at(definition.stages, now())
    form = registration_form_for(definition)
    problems = []
    if request.method == "POST" and stage.stage in ("declaration", "names"):
        document, ok = judged_entry(games, definition, form, slug, problems)
        if ok:
            outcome = take_ticket(games, document, form.username.data.strip(), form.password.data,
                                  Actor(document["people"][0]["name"] or "entrant", ip=request.remote_addr), now(),
                                  email=(form.email.data or "").strip() or None)
            if outcome.ok:
                # The answer in this response (not a redirect: in the rush every request
                # counts); the page makes its address /arrival, so a reload does not post again.
                ticket = outcome.details["ticket"]
                if ticket.username != form.username.data.strip():
                    flash(_("用户名 %(asked)s 已有人使用，您的登录用户名是 %(given)s，请记下。",
                            asked=form.username.data.strip(), given=ticket.username), "warning")
                session[ARRIVAL] = ticket.id
                hand_to_worker(ticket.id)
                return _arrival_page(games, ticket, ahead=outcome.details["ahead"])
            if outcome.code == "username":
                form.username.errors = list(form.username.errors) + [outcome_text(outcome)]
            else:
                problems = outcome.errors
                if outcome.message:
                    flash(outcome_text(outcome), "error")
    # Before the opening (stages.entries_open) the form may be filled in; the page says when
    # it opens, and its button waits for that instant (static/opening.js).
    opens = definition.stages.entries_open
    return render_template("registration/register.html", games=games, definition=definition, form=form,
                           stage=stage, problems=problems, documents_after=documents_due_with_entry(definition, is_en()),
                           opens_at=opens if opens is not None and now() < opens else None, served_at=now())


@bp.route("/register/<slug>/arrival")
def arrival(slug):
    """The answer to a registration, and the wait for its account: when the worker has
    made it, this browser is logged in to it and taken to the delegation's page."""
    games = find_games(slug)
    ticket = ticket_of(games, session.get(ARRIVAL), now()) if games is not None else None
    if ticket is None:
        return redirect(url_for(".register", slug=slug)) if games is not None else abort(404)
    if ticket.status == TicketStatus.DONE:
        session.pop(ARRIVAL, None)
        if current_user.is_authenticated and current_user.id != ticket.user_id:
            # Someone logged in registered another person (a parent, a coach): his own
            # session stays his; the new account is the entrant's to log in to.
            flash(_("报名成功，等待组委会审核。新账号已建立：请退出当前账号，用报名时设置的用户名和密码登录。"), "success")
            return redirect(url_for("home"))
        if not current_user.is_authenticated:
            if not claim_login(ticket, utcnow()):
                flash(_("请用报名时设置的用户名和密码登录。"), "info")
                return redirect(url_for("accounts.login"))
            start_session(queries.user(ticket.user_id))
        if ticket.answer == "saved":  # documents due with the entry: uploaded now, then submitted
            flash(_("账号已建立，报名表已保存。本比赛报名时须提交材料：请在报名页面上传%(documents)s，然后提交报名；"
                    "截止前提交的报名方为有效。",
                    documents=documents_due_with_entry(definition_of(games), is_en())),
                  "warning")
        else:
            flash(_("报名成功，等待组委会审核。") if ticket.answer == "submitted"
                  else _("名额已满，已列入候补名单；有名额空出时按顺序递补。"),
                  "success" if ticket.answer == "submitted" else "warning")
        return redirect(url_for("workflow.dashboard", delegation_id=ticket.delegation_id))
    return _arrival_page(games, ticket)


def _arrival_page(games, ticket, ahead: int | None = None):
    """`ahead`: the tickets before this one still waiting, when the caller counted them."""
    if ahead is None:
        ahead = ahead_of(ticket) if ticket.status == TicketStatus.PENDING else 0
    # Answered in the response to the form: its address becomes the arrival page's
    # (static/address.js), so that reloading asks for the page instead of registering again.
    definition = definition_of(games)
    return render_template("registration/arrival.html", games=games, ticket=ticket,
                           capacity=definition.capacity, ahead=ahead,
                           documents_after=documents_due_with_entry(definition, is_en()),
                           page_address=url_for(".arrival", slug=games.slug))


@bp.route("/register/<slug>/arrival/state")
def arrival_state(slug):
    """What the arrival page polls: whether the worker is done (nothing else)."""
    games = find_games(slug)
    ticket = ticket_of(games, session.get(ARRIVAL), now()) if games is not None else None
    return jsonify(status=ticket.status if ticket else "none")
