"""What each step of the workflow tells the delegation's leaders (notify/), built from the
change itself: the receipt names what was entered, a return names the people and events
concerned, a substitution names the two people. Called inside the step's transaction."""
from __future__ import annotations

import datetime as dt

from ..delegations.edit import entry_people
from ..delegations.models import Delegation
from ..delegations.services import export_document
from ..games.services import definition_of
from ..notify.services import hook, recipients_of, tell_delegation
from ..rules.stages import stage_name
from ..web import china_time


def _events(d: Delegation) -> dict[str, tuple[str, str]]:
    definition = definition_of(d.games)
    sports = {s.code: s.name for s in definition.sports}
    return {e.code: (f"{sports[e.sport].zh}{e.name.zh}", f"{sports[e.sport].en} {e.name.en}") for e in definition.events}


def submitted(d: Delegation, at: dt.datetime, waitlisted: bool) -> None:
    hook(d, "delegation.submitted", waitlisted=waitlisted)
    if not recipients_of(d):  # nobody to tell: nothing to build
        return
    document, names = export_document(d), _events(d)
    counts: dict[str, int] = {}
    for e in document["entries"]:
        counts[e["event"]] = counts.get(e["event"], 0) + len(entry_people(e))
    for x in document["declarations"]:
        counts.setdefault(x["event"], x["count"])
    entered = [{"zh": names.get(c, (c, c))[0], "en": names.get(c, (c, c))[1], "count": n} for c, n in counts.items() if n]
    tell_delegation(d, "submitted", at=china_time(at), entered=entered, people=len(document["people"]),
                    waitlisted=waitlisted)


def returned(d: Delegation, notes: list[tuple[str, str | None, str]], closes: dt.datetime | None) -> None:
    if not recipients_of(d):  # nobody to tell: nothing to build
        return
    document, names = export_document(d), _events(d)
    people = {p["ref"]: p["name"] for p in document["people"]}
    lines = []
    for item_type, key, reason in notes:
        if item_type == "person":
            label = (people.get(key, "该人员"), people.get(key, "a person"))
        elif item_type == "event":
            label = names.get(key, ("该项目", "an event"))
        else:
            label = ("整个报名", "the whole entry")
        lines.append({"zh": label[0], "en": label[1], "reason": reason})
    tell_delegation(d, "returned", notes=lines, closes=china_time(closes - dt.timedelta(minutes=1)) if closes else "")


def approved(d: Delegation, at: dt.datetime) -> None:
    hook(d, "delegation.approved")
    if not recipients_of(d):  # nobody to tell: nothing to build
        return
    tell_delegation(d, "approved", at=china_time(at))


def substitution_decided(d: Delegation, event: str, out_name: str, in_name: str, approved_it: bool,
                         reason: str | None) -> None:
    hook(d, "substitution.decided", event_code=event, approved=approved_it)
    if not recipients_of(d):
        return
    tell_delegation(d, "substitution_decided", event=_events(d).get(event, (event, event)), out_name=out_name,
                    in_name=in_name, approved=approved_it, reason=reason or "")


def extension_granted(d: Delegation, stage: str, until: dt.datetime, reason: str) -> None:
    if not recipients_of(d):  # nobody to tell: nothing to build
        return
    tell_delegation(d, "extension_granted", stage=stage_name(definition_of(d.games).stages, stage),
                    until=china_time(until), reason=reason)
