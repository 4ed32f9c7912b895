"""Cards for printing, and the desk's scan (a keyboard-wedge scanner typing the card's code
into the field, or the browser's camera where it has BarcodeDetector)."""
from __future__ import annotations

import datetime as dt
from io import BytesIO

from flask import Blueprint, abort, flash, redirect, render_template, request, send_file, url_for
from flask_wtf import FlaskForm

from ..access import scope
from ..access.guards import roles
from ..audit.current import actor
from ..clock import now
from ..delegations.edit import entry_people
from ..delegations.names import DOCUMENT_NAMES, document_names_of
from ..delegations.queries import approved_delegations, delegation, delegation_of, latest_photo
from ..games.services import definition_of, unit_names
from ..ids import db_id
from ..jobs.views import start
from ..privacy import record_access
from ..roles import ORGANISERS
from ..rules.ages import age_on
from ..translation import gettext as _
from ..web import is_en, outcome_text
from . import cards as card_service, meeting as meetings
from .checkin import arrival_of, check_in as mark_arrived, confirm_no_shows as confirm, desk_summary, documents_due, no_shows

bp = Blueprint("venue", __name__)
ORG = ORGANISERS


def _games(slug):
    return scope.games_or_404(slug)  # only the staff of this Games (and administrators)


@bp.get("/org/games/<slug>/cards")
@roles(*ORG)
def cards(slug):
    """Before printing: who has no usable photo, per delegation."""
    games = _games(slug)
    delegation_id = request.args.get("delegation", type=db_id)
    all_cards = card_service.cards_for(games, delegation_id)
    units = unit_names("en" if is_en() else "zh")
    delegations = [(d.id, units.get(d.unit_code, d.unit_name or d.unit_code or "")) for d in approved_delegations(games)]
    problems = [c for c in all_cards if c.photo_problem]
    per_delegation: dict[int, int] = {}
    for c in problems:
        per_delegation[c.delegation_id] = per_delegation.get(c.delegation_id, 0) + 1
    problem_counts = [(did, name, per_delegation[did]) for did, name in delegations if per_delegation.get(did)]
    return render_template("venue/cards.html", games=games, cards=all_cards, delegations=delegations,
                           in_request=CARDS_IN_REQUEST,
                           delegation_id=delegation_id, roles=card_service.ROLES, problems=problems,
                           problem_counts=problem_counts, shown=200, form=FlaskForm())


CARDS_IN_REQUEST = 150  # about a second of drawing; more is a background job


@bp.get("/org/games/<slug>/cards.pdf")
@roles(*ORG)
def cards_pdf(slug):
    """One delegation's cards at once; a whole Games' cards are a background job (below)."""
    games = _games(slug)
    delegation_id = request.args.get("delegation", type=db_id)
    if not delegation_id:
        abort(400)
    layout = "a6" if request.args.get("layout") == "a6" else "a4"
    all_cards = card_service.cards_for(games, delegation_id)
    if len(all_cards) > CARDS_IN_REQUEST:  # seconds of work: the page offers it as a background job
        return redirect(url_for(".cards", slug=slug, delegation=delegation_id), 303)
    record_access("personal_data.export", [(c.ref, c.name) for c in all_cards], what="cards.pdf",
                  delegation=delegation(delegation_id), games_slug=games.slug)
    return send_file(BytesIO(card_service.cards_pdf(games, all_cards, layout)), mimetype="application/pdf",
                     as_attachment=True, download_name=f"{games.slug}-cards-{delegation_id}.pdf")


@bp.post("/org/games/<slug>/cards.pdf")
@roles(*ORG)
def cards_pdf_job(slug):
    """Every approved person's card, made in the background (thousands of pages)."""
    from flask_wtf import FlaskForm

    from ..web import is_en
    games = _games(slug)
    if not FlaskForm().validate_on_submit():
        abort(400)
    layout = "a6" if request.form.get("layout") == "a6" else "a4"
    params = {"games": games.slug, "layout": layout}
    delegation_id = request.form.get("delegation", type=db_id)
    if delegation_id:  # one big delegation's cards
        d = delegation_of(games, delegation_id) or abort(404)
        params["delegation"] = d.id
    return start("cards_pdf", params, _("%(name)s 参赛证", name=games.name_en if is_en() else games.name_zh))


@bp.get("/org/scan")
@roles(*ORG)
def scan():
    from flask_wtf import FlaskForm

    code = (request.args.get("code") or "").strip()[:300]
    result = _scan(code) if code else None
    found = []
    if result and result.get("status") == "invalid" and len(code) <= 40:
        # Not a card: a name or the last digits of an ID number typed at the desk.
        found = card_service.find_people(code, scope.games_clause)
        if found:
            result = None
            record_access("personal_data.view", [(f["ref"], f["name"]) for f in found], what="desk search")
    due, arrived, person_card = [], None, None
    if result and result.get("status") == "valid":
        p, d = result["person"], result["delegation"]
        record_access("personal_data.view", [(p["ref"], p["name"])], delegation=d, what="card scan")
        from ..delegations.services import export_document
        definition = definition_of(d.games)
        document = export_document(d)
        due = documents_due(definition, document, p["ref"])
        arrived = arrival_of(d, p["ref"])
        person_card = _desk_card(d, definition, document, p)
    return render_template("venue/scan.html", code=code, result=result, due=due, arrived=arrived, found=found,
                           person_card=person_card,
                           document_names=document_names_of(definition_of(result["delegation"].games))
                           if result and result.get("delegation") is not None else DOCUMENT_NAMES, form=FlaskForm())


def _scan(code: str) -> dict:
    """A card of a Games this desk does not serve is no card here: nothing of it is shown."""
    result = card_service.scan(code)
    d = result.get("delegation")
    if d is not None and not scope.may_see(d.games_id):
        return {"status": "invalid"}
    if d is None and result["status"] != "invalid" and scope.visible_games_ids() is not None:
        return {"status": "invalid"}  # "registration gone" would say the card was real
    return result


def _desk_card(d, definition, document: dict, p: dict) -> dict:
    """What the desk compares with the child in front of it: the photo, the age on the first
    day and the events entered, by name."""

    photo = latest_photo(d, p["ref"])
    age = None
    if p.get("birth_date"):
        age = age_on(dt.date.fromisoformat(p["birth_date"]), definition.dates.start)
    sports = {s.code: s for s in definition.sports}
    names = {}
    for e in definition.events:
        sport = sports.get(e.sport)
        names[e.code] = (f"{sport.name.zh if sport else ''}{e.name.zh}", f"{sport.name.en + ' ' if sport else ''}{e.name.en}")
    events = [names.get(e["event"], (e["event"], e["event"])) for e in document["entries"] if p["ref"] in entry_people(e)]
    return {"photo_id": photo.id if photo else None, "age": age, "events": events, "gender": p.get("gender")}


@bp.post("/org/checkin")
@roles(*ORG)
def check_in():
    from flask_wtf import FlaskForm

    if not FlaskForm().validate_on_submit():
        abort(400)
    code = (request.form.get("code") or "")[:300]
    result = _scan(code)
    if result["status"] == "invalid":
        abort(400)
    if result["status"] != "valid":  # the scan page says why the card is void
        return redirect(url_for(".scan", code=code))
    d = result["delegation"]
    out = mark_arrived(d, result["person"]["ref"], request.form.getlist("documents"), actor(), now())
    flash(outcome_text(out), "success" if out.ok else "error")
    return redirect(url_for(".scan", code=code))


@bp.get("/org/games/<slug>/checkin")
@roles(*ORG)
def desk(slug):
    from flask_wtf import FlaskForm

    games = _games(slug)
    return render_template("venue/desk.html", games=games, rows=desk_summary(games), missing=no_shows(games),
                           form=FlaskForm())


@bp.post("/org/games/<slug>/no-shows")
@roles(*ORG)
def confirm_no_shows(slug):
    from flask import flash, redirect, url_for
    from flask_wtf import FlaskForm

    from ..audit.current import actor
    from ..clock import now
    if not FlaskForm().validate_on_submit():
        abort(400)
    games = _games(slug)
    out = confirm(games, actor(), now())
    if not out.ok:
        flash(outcome_text(out), "error")
    else:
        flash(_("已确认 %(n)d 个代表团的未报到者；报到后退还的保证金不予退还。", n=out.details["recorded"]), "success")
    return redirect(url_for(".desk", slug=slug))


@bp.get("/org/games/<slug>/meeting")
@roles(*ORG)
def meeting(slug):
    """The leaders' meeting: every delegation's roll call at a glance; one delegation's
    final names to read out and confirm."""
    from flask_wtf import FlaskForm

    from ..games.services import definition_of
    games = _games(slug)
    definition = definition_of(games)
    rows = meetings.roll(games)
    chosen = next((r for r in rows if r["d"].id == request.args.get("delegation", type=db_id)), None)
    names = meetings.final_names(definition, chosen["doc"], chosen["arrived_refs"]) if chosen else []
    if chosen:
        record_access("personal_data.view", [(e.ref, e.name) for e in names], delegation=chosen["d"],
                      what="leaders' meeting names")
    return render_template("venue/meeting.html", games=games, meeting=definition.leaders_meeting,
                           when=meetings.when(definition.leaders_meeting) if definition.leaders_meeting else None,
                           rows=rows, summary=meetings.summary(rows), chosen=chosen, names=names, form=FlaskForm())


@bp.post("/org/games/<slug>/meeting/<int:delegation_id>")
@roles(*ORG)
def confirm_roll_call(slug, delegation_id):
    from flask import flash, redirect, url_for
    from flask_wtf import FlaskForm

    from ..audit.current import actor
    from ..clock import now
    from .meeting import confirm
    games = _games(slug)
    if not FlaskForm().validate_on_submit():
        abort(400)
    d = delegation_of(games, delegation_id) or abort(404)
    out = confirm(d, request.form.get("attended_by", ""), actor(), now())
    flash(outcome_text(out), "success" if out.ok else "error")
    return redirect(url_for(".meeting", slug=slug, delegation=delegation_id))
