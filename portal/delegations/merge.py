"""Two co-leaders typing at once: each form changes one part of the delegation (a person,
an event's entries, a team, the officials and staff, the declarations). A save made on an
older version is merged when the part it changes is still as that form saw it; only when
someone else changed that same part is it a conflict (pure functions)."""
from __future__ import annotations

import hashlib
import json

# A part's key: ("person", ref), ("new",) for a person not yet in the document,
# ("event", code), ("team", code, label), ("roles",), ("declarations",).
Key = tuple[str, ...]
ROLE_SECTIONS = ("officials", "staff", "companions")


def part(doc: dict, key: Key):
    """The rows of the document that the form of `key` changes."""
    kind = key[0]
    if kind == "person":
        return next((p for p in doc.get("people", []) if p.get("ref") == key[1]), None)
    if kind == "event":
        return [e for e in doc.get("entries", []) if e.get("event") == key[1]]
    if kind == "team":
        return [e for e in doc.get("entries", []) if e.get("event") == key[1] and (e.get("team") or "A") == key[2]]
    if kind == "roles":
        return {s: doc.get(s) or [] for s in ROLE_SECTIONS}
    if kind == "declarations":
        return sorted((x["event"], x["count"]) for x in doc.get("declarations", []) if x.get("count"))
    return None  # ("new",): nobody else can have changed a person not yet there


def fingerprint(doc: dict, key: Key) -> str:
    """A short digest of the part, carried by the form that shows it."""
    return digest(part(doc, key))


def digest(rows) -> str:
    """fingerprint() of a part already found (a page of people finds each by its ref)."""
    text = json.dumps(rows, sort_keys=True, ensure_ascii=False, default=str)
    return hashlib.sha256(text.encode("utf-8")).hexdigest()[:20]


def merges(current: dict, key: Key | None, base: str | None) -> bool:
    """Whether a change made on an older version may go onto `current`: its part is as the
    form saw it (a new person always may)."""
    if key == ("new",):
        return True
    return key is not None and bool(base) and fingerprint(current, key) == base


def describe(doc: dict, key: Key, names: dict[str, str], event_label, en: bool) -> list[str]:
    """The part in words, to show the other's save beside one's own: names, not refs."""
    kind = key[0]
    name = lambda ref: names.get(ref) or ("(someone removed)" if en else "（已删除的人员）")
    if kind == "person":
        p = part(doc, key)
        if p is None:
            return ["(deleted)" if en else "（已删除）"]
        year = (p.get("registration") or {}).get("year")
        bits = [p.get("name") or "", {"M": "M" if en else "男", "F": "F" if en else "女"}.get(p.get("gender") or "", ""),
                p.get("birth_date") or "", (f"registered {year}" if en else f"{year} 年度注册") if year else "",
                (p.get("id_number") or "")[-4:] and ("ID …" if en else "证件号尾号 ") + (p.get("id_number") or "")[-4:]]
        return [" · ".join(b for b in bits if b)]
    if kind in ("event", "team"):
        out = []
        for e in part(doc, key):
            if e.get("lineup") is not None:
                out.append(f"{e.get('team') or 'A'}: " + ", ".join(
                    f"{s['board']}. {name(s['person'])}" if s.get("board") else
                    name(s["person"]) + (" (reserve)" if en else "（替补）") * bool(s.get("reserve"))
                    for s in e["lineup"]))
            else:
                out.append(", ".join(name(r) for r in e.get("people") or []))
        return out or ["(no one entered)" if en else "（无人报名）"]
    if kind == "roles":
        rows = part(doc, key)
        out = [f"{x.get('role') or ''}: {name(x.get('person'))}" for s in ("officials", "staff") for x in rows[s]]
        out += [("companion: " if en else "随行：") + name(x.get("person")) for x in rows["companions"]]
        return out or ["(none)" if en else "（无）"]
    if kind == "declarations":
        return [f"{event_label(code)} {count}" for code, count in part(doc, key)] or ["(none)" if en else "（无）"]
    return []
