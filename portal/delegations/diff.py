"""What an upload would change, in words a team leader reads: people added and removed by
name, each changed field with its old and new value, event entries as −name +name, teams,
declared numbers and roles. Pure: two delegation documents in, lines out.

Both documents go through the same parser first, so that what only looks different (a date
written another way, documents in another order, a missing key against an empty one, an ID
number with a lower-case x) is not a change."""
from __future__ import annotations

import datetime as dt
from collections.abc import Callable
from dataclasses import dataclass

from ..rules.checks.identity import ID_TYPE_NAMES
from ..rules.document import ParsedDelegation, ParsedPerson, parse_document
from ..rules.idnumber import normalise
from .names import DOCUMENT_NAMES, ROLE_NAMES

FIELDS = [("name", ("姓名", "name")), ("gender", ("性别", "gender")), ("birth_date", ("出生日期", "birth date")),
          ("id_type", ("证件类型", "ID type")), ("id_number", ("证件号码", "ID number")),
          ("registration_unit", ("注册单位", "registration unit")),
          ("registration_year", ("注册年度", "registration year")),
          ("university_code", ("高校代码", "university code")), ("full_time", ("全日制", "full-time")),
          ("graduation_date", ("毕业日期", "graduation date")), ("fide_rating", ("等级分", "FIDE rating")),
          ("fide_list", ("等级分日期", "rating list")), ("club", ("俱乐部", "club")),
          ("documents", ("材料", "documents"))]
CATEGORIES = {"person": ("人员", "person"), "entry": ("报名项目", "entry"), "declaration": ("报项", "declaration"),
              "role": ("官员与随队", "officials and companions"), "unit": ("单位", "unit")}


@dataclass
class Change:
    category: str   # person, entry, declaration, role, unit
    subject: str    # a person's name, an event's name
    text: str       # what changed, in the reader's language

    def category_label(self, en: bool) -> str:
        zh, en_ = CATEGORIES[self.category]
        return en_ if en else zh


def changes(before: dict | None, after: dict, event_names: dict[str, tuple[str, str]], *, en: bool = False,
            show_id: Callable[[str | None], str] = lambda n: n or "") -> list[Change]:
    old, _ = parse_document(before) if before else (None, [])
    new, _ = parse_document(after)
    if new is None:
        return []
    old = old or ParsedDelegation(games=new.games, unit=new.unit)
    pick = (lambda pair: pair[1]) if en else (lambda pair: pair[0])
    out: list[Change] = []
    old_people, new_people = {p.ref: p for p in old.people}, {p.ref: p for p in new.people}
    name = lambda ref: (new_people.get(ref) or old_people.get(ref)).label if ref in new_people or ref in old_people else ref

    for ref, p in new_people.items():
        if ref not in old_people:
            out.append(Change("person", p.label, ("added" if en else "新增")))
    for ref, p in old_people.items():
        if ref not in new_people:
            out.append(Change("person", p.label, ("removed" if en else "删除")))
    for ref, p in new_people.items():
        q = old_people.get(ref)
        if q is None:
            continue
        for field, label in FIELDS:
            a, b = _value(q, field), _value(p, field)
            if a != b:
                out.append(Change("person", q.label if field == "name" else p.label,
                                  f"{pick(label)}{': ' if en else '：'}{_show(field, a, en, show_id)} → "
                                  f"{_show(field, b, en, show_id)}"))

    old_decl, new_decl = dict(old.declarations), dict(new.declarations)
    for event in dict.fromkeys(list(old_decl) + list(new_decl)):
        if old_decl.get(event) != new_decl.get(event):
            out.append(Change("declaration", pick(event_names.get(event, (event, event))),
                              f"{old_decl.get(event, 0)} → {new_decl.get(event, 0)}"))

    def entries(doc):
        keyed = {}
        for e in doc.entries:
            keyed[(e.event, e.team if e.lineup is not None else None)] = e
        return keyed
    old_entries, new_entries = entries(old), entries(new)
    for key in dict.fromkeys(list(old_entries) + list(new_entries)):
        event, team = key
        subject = pick(event_names.get(event, (event, event))) + (f" {team}" if team else "")
        a, b = old_entries.get(key), new_entries.get(key)
        before_people = a.all_people() if a else []
        after_people = b.all_people() if b else []
        gone = [name(r) for r in before_people if r not in after_people]
        came = [name(r) for r in after_people if r not in before_people]
        if gone or came:
            out.append(Change("entry", subject, " ".join([f"−{n}" for n in gone] + [f"+{n}" for n in came])))
        elif a and b and a.lineup is not None and b.lineup is not None and \
                [(s.person, s.board, s.reserve) for s in a.lineup] != [(s.person, s.board, s.reserve) for s in b.lineup]:
            out.append(Change("entry", subject, ("line-up: " if en else "排阵：") + _lineup(a, name, en) + " → "
                              + _lineup(b, name, en)))

    for section in ("officials", "staff", "companions"):
        def roles(doc, section=section):
            return [(r.person, "companion" if section == "companions" else r.role, r.sport)
                    for r in getattr(doc, section)]
        was, now = roles(old), roles(new)
        for ref, role, sport in now:
            if (ref, role, sport) not in was:
                out.append(Change("role", name(ref), "+" + pick(ROLE_NAMES.get(role, (role, role)))
                                  + (f" ({sport})" if sport else "")))
        for ref, role, sport in was:
            if (ref, role, sport) not in now:
                out.append(Change("role", name(ref), "−" + pick(ROLE_NAMES.get(role, (role, role)))
                                  + (f" ({sport})" if sport else "")))
    if old.unit != new.unit and before:
        out.append(Change("unit", "", f"{_unit(old.unit)} → {_unit(new.unit)}"))
    return out


def _value(p: ParsedPerson, field: str):
    v = getattr(p, field)
    if field == "id_number" and v:
        return normalise(v)
    if field == "documents":
        return tuple(sorted(v or ()))
    if isinstance(v, str):
        return v.strip() or None
    return v


def _show(field: str, v, en: bool, show_id) -> str:
    if v is None or v == ():
        return "—"
    if field == "gender":
        return {"M": ("男", "male"), "F": ("女", "female")}.get(v, (v, v))[1 if en else 0]
    if field == "id_type":
        return ID_TYPE_NAMES.get(v, (v, v))[1 if en else 0]
    if field == "id_number":
        return show_id(v)
    if field == "full_time":
        return ("yes" if v else "no") if en else ("是" if v else "否")
    if field == "documents":
        return ("、" if not en else ", ").join(DOCUMENT_NAMES.get(k, (k, k))[1 if en else 0] for k in v)
    if isinstance(v, dt.date):
        return v.isoformat()
    return str(v)


def _lineup(e, name, en: bool) -> str:
    parts = []
    for s in e.lineup:
        label = name(s.person)
        if s.board is not None:
            label = f"{s.board}. {label}"
        if s.reserve:
            label += " (reserve)" if en else "（替补）"
        parts.append(label)
    return ", ".join(parts) if en else "、".join(parts)


def _unit(unit) -> str:
    if isinstance(unit, dict):
        return unit.get("name") or ""
    return unit or "—"
