"""The check-in desk: a registered person arrives, shows the documents the regulation asks
for at check-in, and is marked arrived. Arrival before the allowed day is refused where the
regulation says so (youth-gomoku-2015 十一(九) "提前报到者大会不予接待"). Once every entrant of
a delegation is in, a deposit returned after check-in (shaanxi-mind-2025 十一(三)) is
credited."""
from __future__ import annotations

import datetime as dt

from sqlalchemy import func, select

from ..audit.services import Actor, record
from ..db_tx import lock_row, transactional
from ..delegations.edit import athletes, entry_people
from ..delegations.models import Delegation, DelegationStatus, Person
from ..delegations.queries import approved_delegations
from ..delegations.services import export_document, export_documents
from ..extensions import db
from ..games.services import definition_of, unit_names
from ..money.models import LedgerEntry
from ..money.services import post
from ..outcome import Outcome, Refusal, Status
from ..rules.definition import DocumentsRule
from ..rules.stay import person_window
from .arrivals import arrivals, arrived as arrived_refs, checkin_closed
from .models import CheckIn

CHINA = dt.timezone(dt.timedelta(hours=8))


def documents_due(definition, doc: dict, ref: str) -> list[str]:
    """Document kinds this person shows at check-in, by the fixture's rules (those of his
    events and of his age only, where a rule names them)."""
    is_athlete = ref in athletes(doc)
    person = next((p for p in doc.get("people", []) if p.get("ref") == ref), {})
    try:
        born = dt.date.fromisoformat(person.get("birth_date") or "")
    except (TypeError, ValueError):
        born = None
    entered = {e["event"] for e in doc.get("entries", []) if ref in entry_people(e)}
    due = []
    for rule in definition.rules_of(DocumentsRule):
        if rule.due != "checkin":
            continue
        if (rule.who == "athletes" and not is_athlete) or rule.who == "delegation":
            continue
        if (rule.events is not None and not entered & set(rule.events)) or not rule.of_age(born, definition.dates.start):
            continue
        for kind in rule.documents:
            if kind not in due:
                due.append(kind)
    return due


def arrival_of(d, ref: str) -> CheckIn | None:
    """The person's check-in at the desk, if he has arrived."""
    return db.session.scalar(select(CheckIn).where(CheckIn.delegation_id == d.id, CheckIn.person_ref == ref))


@transactional
def check_in(d: Delegation, ref: str, shown: list[str], actor: Actor, at: dt.datetime) -> Outcome:
    """Mark a person arrived; the Outcome says who, or why not."""
    definition = definition_of(d.games)
    d = lock_row(Delegation, d.id)
    if d.status != DelegationStatus.APPROVED:
        raise Refusal("state", "该代表团的报名未获批准，不予报到", "the entry is not approved")
    doc = export_document(d)
    person = next((p for p in doc["people"] if p["ref"] == ref), None)
    if person is None:
        raise Refusal("input", "此人不在报名名单中，不予报到", "not registered")
    if db.session.scalar(select(CheckIn.id).where(CheckIn.delegation_id == d.id, CheckIn.person_ref == ref)):
        raise Refusal("state", f"{person['name']} 已经报到", f"{person['name']} already checked in")
    closed = checkin_closed(definition, at)
    if closed:
        raise Refusal("deadline", *closed)
    window = person_window(definition, doc, ref)
    today = at.astimezone(CHINA).date()
    if window.strict and today < window.first_night:
        raise Refusal("deadline", f"规程规定最早 {window.first_night.isoformat()} 报到，提前报到者大会不予接待",
                      f"arrivals before {window.first_night.isoformat()} are not received")
    due = documents_due(definition, doc, ref)
    missing = [k for k in due if k not in shown]
    if missing:
        from ..delegations.names import document_names_of
        known = document_names_of(definition)
        names = [known.get(k, (k, k)) for k in missing]
        raise Refusal("input", "缺少报到时须出示的材料：" + "、".join(zh for zh, _en in names),
                      "documents not shown: " + ", ".join(en for _zh, en in names))
    db.session.add(CheckIn(delegation_id=d.id, person_ref=ref, person_name=person["name"],
                           documents=sorted(set(shown) & set(due)), arrived_at=at, checked_by=actor.label))
    db.session.flush()
    record(actor, "checkin.arrive", "person", person["name"], delegation=d,
           after={"ref": ref, "documents": sorted(set(shown) & set(due))})
    entrants = athletes(doc)
    if entrants and entrants <= arrived_refs(d.id):
        from ..money.services import release_deposit
        release_deposit(d, actor)
    return Outcome(True, status=Status.SAVED, message=(f"{person['name']} 已报到", f"{person['name']} checked in"),
                   delegation=d)


def desk_summary(games) -> list[dict]:
    """Per approved delegation: people registered and arrived, from two queries."""
    units = unit_names()
    registered = dict(db.session.execute(
        select(Person.delegation_id, func.count()).join(Delegation, Person.delegation_id == Delegation.id)
        .where(Delegation.games_id == games.id, Delegation.status == DelegationStatus.APPROVED).group_by(Person.delegation_id)).all())
    arrived = dict(db.session.execute(
        select(CheckIn.delegation_id, func.count()).join(Delegation, CheckIn.delegation_id == Delegation.id)
        .where(Delegation.games_id == games.id).group_by(CheckIn.delegation_id)).all())
    out = []
    for d in approved_delegations(games):
        out.append({"d": d, "unit": units.get(d.unit_code, d.unit_name or d.unit_code or ""),
                    "registered": registered.get(d.id, 0), "arrived": arrived.get(d.id, 0)})
    return out


def no_shows(games) -> list[dict]:
    """Per approved delegation, its entrants who have not checked in (names), from the
    stored documents of those delegations."""
    out = []
    rows = desk_summary(games)
    documents = export_documents([row["d"] for row in rows])
    everyone = arrivals(games)
    for row in rows:
        d = row["d"]
        doc = documents[d.id]
        arrived = everyone.get(d.id, set())
        names = {p["ref"]: p["name"] for p in doc["people"]}
        missing = sorted(r for r in athletes(doc) if r not in arrived)
        if missing:
            out.append({"d": d, "unit": row["unit"], "missing": [(r, names.get(r, r)) for r in missing]})
    return out


@transactional
def confirm_no_shows(games, actor: Actor, at: dt.datetime) -> Outcome:
    """Once play has started: entrants not checked in are no-shows; a deposit returned only
    after check-in is kept (shaanxi-mind-2025 十一(三)). Recorded once per delegation and
    audited with the names; details["recorded"]: the delegations recorded."""
    definition = definition_of(games)
    # Before play, only a leaders' meeting that closed check-in makes the absent no-shows (an
    # entrant late for the reporting hours may still come before the first round).
    if at.astimezone(CHINA).date() < definition.dates.start and not checkin_closed(definition, at, report_hours=False):
        raise Refusal("deadline", f"比赛 {definition.dates.start.isoformat()} 开始，开始后才能确认未报到者",
                      f"play has not started (it starts on {definition.dates.start.isoformat()})")
    recorded = 0
    for item in no_shows(games):
        d = item["d"]
        for fee in definition.money.fees:
            if fee.refundable != "after_checkin":
                continue
            charged = db.session.scalar(select(func.coalesce(func.sum(LedgerEntry.amount), 0)).where(
                LedgerEntry.delegation_id == d.id, LedgerEntry.kind == "charge", LedgerEntry.fee_code == fee.code))
            if charged:
                post(d, "forfeit", charged, f"{fee.name.zh}：未报到，不予退还", actor, fee_code=fee.code,
                     source_key=f"noshow:{d.id}:{fee.code}")
        record(actor, "checkin.no_show", "delegation", str(d.id), delegation=d,
               after={"missing": [name for _ref, name in item["missing"]]})
        recorded += 1
    return Outcome(True, status=Status.SAVED, details={"recorded": recorded})
