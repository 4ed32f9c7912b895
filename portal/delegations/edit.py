"""Edits of a delegation document (pure functions on the delegation/1 dict). The
workspace forms build the new document with these, then save it through the workflow."""
from __future__ import annotations

import pickle


def entry_people(entry: dict) -> list[str]:
    """The people of an entry: its lineup's members, or its list of people."""
    if entry.get("lineup") is not None:
        return [s["person"] for s in entry["lineup"]]
    return list(entry.get("people") or [])


def athletes(doc: dict) -> set[str]:
    """Everyone entered in some event."""
    return {r for e in doc.get("entries", []) for r in entry_people(e)}


def next_ref(doc: dict, prefix: str = "p") -> str:
    refs = {p["ref"] for p in doc.get("people", [])}
    n = len(refs) + 1
    while f"{prefix}{n}" in refs:
        n += 1
    return f"{prefix}{n}"


def copied(doc: dict) -> dict:
    """A copy the edit may change (plain JSON data: a pickle round trip is a tenth of
    deepcopy's time, and a save of 2,000 people copies them all)."""
    return pickle.loads(pickle.dumps(doc, protocol=pickle.HIGHEST_PROTOCOL))


def upsert_person(doc: dict, person: dict) -> dict:
    # Only the people list changes, and only one person in it: the rest is shared, unchanged.
    people = list(doc["people"])
    for i, p in enumerate(people):
        if p["ref"] == person["ref"]:
            people[i] = copied({**p, **person})
            return {**doc, "people": people}
    return {**doc, "people": people + [copied(person)]}


def delete_person(doc: dict, ref: str) -> dict:
    doc = copied(doc)
    doc["people"] = [p for p in doc["people"] if p["ref"] != ref]
    for e in doc["entries"]:
        if e.get("lineup") is not None:
            e["lineup"] = [s for s in e["lineup"] if s["person"] != ref]
        else:
            e["people"] = [r for r in e.get("people") or [] if r != ref]
    doc["entries"] = [e for e in doc["entries"] if entry_people(e)]
    for section in ("officials", "staff"):
        doc[section] = [x for x in doc.get(section) or [] if x["person"] != ref]
    doc["companions"] = [c for c in doc.get("companions") or [] if c["person"] != ref]
    for c in doc["companions"]:
        if c.get("accompanies") == ref:
            c["accompanies"] = None
    return doc


def set_declarations(doc: dict, counts: dict[str, int]) -> dict:
    doc = copied(doc)
    doc["declarations"] = [{"event": e, "count": n} for e, n in counts.items() if n > 0]
    return doc


def set_individual(doc: dict, event: str, refs: list[str]) -> dict:
    doc = copied(doc)
    kept = [e for e in doc["entries"] if e["event"] != event]
    if refs:
        kept.append({"event": event, "people": refs})
    doc["entries"] = _in_event_order(kept, doc)
    return doc


def change_individual(doc: dict, event: str, added: list[str], removed: set[str]) -> dict:
    """The event's entrants as they now stand, with `added` entered (in their order, after
    those already there) and `removed` taken off: a form's change as a difference, so that
    what co-leaders entered meanwhile stays."""
    now = [r for e in doc["entries"] if e["event"] == event for r in entry_people(e)]
    known = {p["ref"] for p in doc["people"]}
    kept = [r for r in dict.fromkeys(now) if r not in removed]
    return set_individual(doc, event, kept + [r for r in added if r not in kept and r in known])


def set_team(doc: dict, event: str, label: str, lineup: list[dict]) -> dict:
    doc = copied(doc)
    kept = [e for e in doc["entries"] if not (e["event"] == event and (e.get("team") or "A") == label)]
    if lineup:
        kept.append({"event": event, "team": label, "lineup": lineup})
    doc["entries"] = _in_event_order(kept, doc)
    return doc


def _in_event_order(entries: list[dict], doc: dict) -> list[dict]:
    order = {}
    for e in doc["entries"]:
        order.setdefault(e["event"], len(order))
    return sorted(entries, key=lambda e: (order.get(e["event"], len(order)), e.get("team") or ""))


def set_roles(doc: dict, officials: list[dict], staff: list[dict], companions: list[dict]) -> dict:
    doc = copied(doc)
    doc["officials"], doc["staff"], doc["companions"] = officials, staff, companions
    return doc


def add_document_kind(doc: dict, ref: str, kind: str) -> dict:
    doc = copied(doc)
    for p in doc["people"]:
        if p["ref"] == ref:
            kinds = set(p.get("documents") or [])
            kinds.add(kind)
            p["documents"] = sorted(kinds)
    return doc


def roles_by_person(doc: dict) -> dict[str, list[str]]:
    """Each person's events, then official and staff roles, then "companion", in document
    order: one pass over the document for a whole page of people."""
    out: dict[str, list[str]] = {}
    for e in doc["entries"]:
        for ref in dict.fromkeys(entry_people(e)):
            out.setdefault(ref, []).append(e["event"])
    for o in doc.get("officials") or []:
        out.setdefault(o["person"], []).append(o["role"])
    for s in doc.get("staff") or []:
        out.setdefault(s["person"], []).append(s["role"])
    for c in doc.get("companions") or []:
        out.setdefault(c["person"], []).append("companion")
    return out
