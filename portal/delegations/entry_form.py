"""What the workspace's forms send, read into document edits (pure: a form's fields in,
rows and the names that matched nobody out). The views size every loop beforehand
(`workspace.row_count`), so a request's work stays bounded."""
from __future__ import annotations

from collections.abc import Mapping

from . import picker

MAX_TEAM_ROWS = 50  # a team is at most a dozen players; the form adds a few empty rows


def declaration_counts(form: Mapping, event_codes: list[str]) -> tuple[dict[str, int], dict[str, str], list[str]]:
    """Declared numbers by event, what was typed (to show it again) and the events whose
    number is not a whole number from 0 to 999."""
    counts, typed, bad = {}, {}, []
    for code in event_codes:
        raw = (form.get(f"count-{code}") or "").strip()
        typed[code] = raw
        if raw == "":
            continue
        if not raw.isdigit() or int(raw) > 999:
            bad.append(code)
        else:
            counts[code] = int(raw)
    return counts, typed, bad


def team_lineup(form: Mapping, people: dict[str, dict], rows: int) -> tuple[list[dict], list[str]]:
    """A team's lineup from its rows (person-i, board-i, reserve-i), and the texts that name
    nobody. A board that is not a number is left out."""
    lineup, unknown = [], []
    for i in range(rows):
        ref, ok = picker.resolve(people, form.get(f"person-{i}"))
        if not ok:
            unknown.append(form.get(f"person-{i}"))
        if not ref:
            continue
        slot: dict = {"person": ref}
        if form.get(f"reserve-{i}"):
            slot["reserve"] = True
        else:
            board = (form.get(f"board-{i}") or "").strip()
            if board.isdigit():
                slot["board"] = int(board)
        lineup.append(slot)
    return lineup, unknown


def individual_refs(form, people: dict[str, dict]) -> tuple[list[str], list[str]]:
    """The people kept (their refs, ticked) and added (typed names) for an individual event."""
    refs = [r for r in form.getlist("people") if r in people]
    unknown = []
    for text in form.getlist("add")[:MAX_TEAM_ROWS]:
        ref, ok = picker.resolve(people, text)
        if not ok:
            unknown.append(text)
        elif ref and ref not in refs:
            refs.append(ref)
    return refs, unknown


def role_rows(form: Mapping, people: dict[str, dict], prefix: str, keys: tuple[str, ...],
              rows: int) -> tuple[list[dict], list[str]]:
    """Officials, staff or companions from their rows; a row without a person is left out."""
    out, unknown = [], []
    for i in range(rows):
        item = {k: (form.get(f"{prefix}-{k}-{i}") or None) for k in keys}
        for k in ("person", "accompanies"):
            if k in item:
                ref, ok = picker.resolve(people, item[k])
                if not ok:
                    unknown.append(item[k])
                item[k] = ref or None
        if item.get("person"):
            out.append(item)
    return out, unknown
