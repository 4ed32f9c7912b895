"""Choosing people in forms without shipping every person in every row: a text field that
takes a label ("王伟（男，1990-01-01）"), a name or a reference, with suggestions from a search
endpoint (static/picker.js). Pages stay small however large the delegation."""
from __future__ import annotations

GENDER = {"M": ("男", "M"), "F": ("女", "F")}
MAX_RESULTS = 20


def label(person: dict, en: bool = False) -> str:
    g = GENDER.get(person.get("gender") or "", ("?", "?"))[1 if en else 0]
    born = person.get("birth_date") or "—"
    return f"{person['name']}（{g}，{born}）" if not en else f"{person['name']} ({g}, {born})"


def resolve(people: dict[str, dict], text: str | None) -> tuple[str | None, bool]:
    """(ref, ok) for what was typed: an exact label in either language, a reference, or a
    name only one person bears. ("", True) for an empty field; (None, False) when nobody or
    several people fit."""
    text = (text or "").strip()
    if not text:
        return "", True
    if text in people:
        return text, True
    for ref, p in people.items():
        if text in (label(p), label(p, en=True)):
            return ref, True
    named = [ref for ref, p in people.items() if p.get("name") == text]
    return (named[0], True) if len(named) == 1 else (None, False)


def search(people: dict[str, dict], q: str, only: set[str] | None = None, en: bool = False) -> list[dict]:
    """People whose name, reference or last ID digits contain q, among `only` (those who
    may enter the event; None: everyone), at most MAX_RESULTS, by name."""
    q = (q or "").strip()
    out = []
    for ref, p in people.items():
        if only is not None and ref not in only:
            continue
        number = p.get("id_number") or ""
        if q and q not in (p.get("name") or "") and q != ref and not (len(q) >= 4 and number.endswith(q)):
            continue
        out.append({"ref": ref, "label": label(p, en)})
    out.sort(key=lambda r: r["label"])
    return out[:MAX_RESULTS]
