"""Two co-leaders typing at once: each form changes one part of the delegation (a person,
an event's entries, a team, the officials and staff, the declarations). A save made on an
older version is merged when the part it changes is still as that form saw it; only when
someone else changed that same part is it a conflict (pure functions)."""
from __future__ import annotations

import hashlib

import orjson

from .names import DOCUMENT_NAMES

# A part's key: ("person", ref), ("new",) for a person not yet in the document,
# ("event", code), ("team", code, label), ("roles",), ("declarations",); ("entrants", code):
# the people added to and taken off an individual event, which go onto whatever co-leaders
# saved there meanwhile (five leaders entering their own players in one event all stand).
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


_CANONICAL = orjson.OPT_SORT_KEYS | orjson.OPT_NON_STR_KEYS


def digest(rows) -> str:
    """fingerprint() of a part already found (a page of people finds each by its ref). Keys
    sorted: a person's profile read back from PostgreSQL's JSONB comes in another order."""
    return hashlib.sha256(orjson.dumps(rows, option=_CANONICAL, default=str)).hexdigest()[:20]


# A person's fields the person form sets, each merged on its own: two co-leaders correcting
# one person's club and his birth date both keep their correction (issue 41, 3).
MERGED_FIELDS = ("name", "gender", "birth_date", "id_type", "id_number", "registration", "university",
                 "fide_rating", "club", "grades", "ratings", "residence", "nationality", "employment")


def field_digests(person: dict | None) -> dict[str, str]:
    """Each field of a person as the form showed it, digested (sent back with the form)."""
    person = person or {}
    return {f: digest(person.get(f))[:12] for f in MERGED_FIELDS}


def merge_person(current: dict, mine: dict, base: dict[str, str]) -> tuple[dict, list[str]]:
    """A person's form saved onto the person as others left him: each field the form
    changed (its value differs from what the form showed) goes on, each it did not keeps the
    stored value. Returns the person and the fields both changed differently (a conflict)."""
    out, clashes = dict(current), []
    for f in MERGED_FIELDS:
        shown = base.get(f)
        if shown is None or digest(mine.get(f))[:12] == shown:
            continue  # not changed on this form
        if digest(current.get(f))[:12] != shown and digest(current.get(f)) != digest(mine.get(f)):
            clashes.append(f)  # changed by someone else too, to something else
        out[f] = mine.get(f)
    return out, clashes


def merges(current: dict, key: Key | None, base: str | None) -> bool:
    """Whether a change made on an older version may go onto `current`: its part is as the
    form saw it (a new person always may)."""
    if key == ("new",) or (key is not None and key[0] in ("entrants", "person_fields")):
        return True
    return key is not None and bool(base) and fingerprint(current, key) == base


PERSON_FIELDS = (  # (label zh, label en, how to read the value from the person)
    ("姓名", "name", lambda p: p.get("name")),
    ("性别", "gender", lambda p: {"M": ("男", "M"), "F": ("女", "F")}.get(p.get("gender") or "")),
    ("出生日期", "born", lambda p: p.get("birth_date")),
    ("证件号码", "ID number", lambda p: ("…" + p["id_number"][-4:]) if p.get("id_number") else None),
    ("注册年度", "registered", lambda p: (p.get("registration") or {}).get("year")),
    ("高校", "university", lambda p: (p.get("university") or {}).get("code")),
    ("等级分", "rating", lambda p: (p.get("fide_rating") or {}).get("value")),
    ("俱乐部", "club", lambda p: p.get("club")),
    ("材料", "documents", lambda p: tuple("、".join(DOCUMENT_NAMES.get(k, (k, k))[i] for k in p.get("documents") or [])
                                          or None for i in (0, 1)) if p.get("documents") else None),
)


def person_fields(p: dict, en: bool) -> list[str]:
    """A person as one line per field ("俱乐部：杭州棋院"), every field he has, so that a
    conflict shows each one that differs."""
    out = []
    for zh, label_en, read in PERSON_FIELDS:
        value = read(p)
        if isinstance(value, tuple):
            value = value[1 if en else 0]
        if value not in (None, ""):
            out.append(f"{label_en}: {value}" if en else f"{zh}：{value}")
    return out


def describe(doc: dict, key: Key, names: dict[str, str], event_label, en: bool) -> list[str]:
    """The part in words, to show the other's save beside one's own: names, not refs."""
    kind = key[0]
    name = lambda ref: names.get(ref) or ("(someone removed)" if en else "（已删除的人员）")
    if kind == "person":
        p = part(doc, key)
        if p is None:
            return ["(deleted)" if en else "（已删除）"]
        return person_fields(p, en)
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
