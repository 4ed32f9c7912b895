"""Leader accounts for many units at once: one line per unit (unit code or name, the
leader's name, optionally a username), from a pasted list or a CSV/Excel sheet. Every line
is checked first; nothing is created unless all are good. Each account gets its invitation
link, shown once."""
from __future__ import annotations

import csv
import re
from dataclasses import dataclass

from sqlalchemy import select

from ..audit.services import Actor
from ..db_tx import write_transaction
from ..delegations.models import Delegation
from ..delegations.saving import new_delegation
from ..extensions import db
from ..games.models import Unit
from ..games.services import definition_of
from ..header_text import CONTROL_PROBLEM, has_control
from ..sheets import decode_text
from ..spreadsheet_formats import uploaded_rows
from ..text import Text
from ..upload_checks import UploadRefused
from .models import User
from .services import create_account

MAX_LINES = 500
USERNAME = re.compile(r"^[A-Za-z0-9_.\-]{3,60}$")


@dataclass
class Line:
    number: int
    unit: str
    name: str
    username: str = ""


def read_lines(text: str = "", data: bytes | None = None, filename: str = "") -> tuple[list[Line], list[str]]:
    """Lines from pasted text (comma, tab or Chinese comma between fields) or a CSV/XLSX
    file; a header row (单位, 姓名...) is skipped. Returns (lines, problems)."""
    rows: list[list[str]] = []
    problems: list[str] = []
    if data:
        try:
            sheet = uploaded_rows(data, filename)
        except UploadRefused as exc:
            return [], [exc.as_text()]
        if sheet is None:
            text = decode_text(data)
        else:
            rows = sheet
    if not rows:
        for raw in text.splitlines():
            raw = raw.strip()
            if raw:
                rows.append(next(csv.reader([raw.replace("，", ",").replace("\t", ",")])))
    lines = []
    for i, row in enumerate(rows, start=1):
        cells = [c.strip() for c in row] + ["", "", ""]
        if i == 1 and cells[0] in ("单位", "单位代码", "unit", "参赛单位"):
            continue
        if not any(cells[:3]):
            continue
        lines.append(Line(i, cells[0], cells[1], cells[2]))
    if len(lines) > MAX_LINES:
        problems.append(Text(f"最多 {MAX_LINES} 行", f"at most {MAX_LINES} lines"))
    return lines, problems


def create_leader_accounts(games, lines: list[Line], actor: Actor) -> tuple[list[dict], list[str]]:
    """Check every line, then create all (one transaction) or nothing. Returns (created,
    problems); each created item: line, unit name, username, user, token."""

    units = list(db.session.scalars(select(Unit)))
    by_code = {u.code.lower(): u for u in units}
    by_name = {u.name_zh: u for u in units} | {(u.name_en or "").lower(): u for u in units if u.name_en}
    open_units = definition_of(games).participation.open_units
    taken = set(db.session.scalars(select(User.username)))
    problems, plan, seen_units = [], [], set()
    for line in lines:
        where = Text(f"第 {line.number} 行", f"line {line.number}")
        unit = by_code.get(line.unit.lower()) or by_name.get(line.unit) or by_name.get(line.unit.lower())
        if not line.unit:
            problems.append(Text("缺少单位", "unit missing").prefixed(where))
            continue
        if not line.name:
            problems.append(Text("缺少领队姓名", "leader's name missing").prefixed(where))
            continue
        if has_control(line.name) or has_control(line.unit):  # they reach mail headers
            problems.append(Text(f"{CONTROL_PROBLEM[0]}", f"{CONTROL_PROBLEM[1]}").prefixed(where))
            continue
        if unit is None and not open_units:
            problems.append(Text(f"“{line.unit}”不是本届比赛的参赛单位（请写单位代码或全称）",
                                 f"{line.unit!r} is not a unit of these Games (write its code or full name)").prefixed(where))
            continue
        key = unit.code if unit else line.unit
        if key in seen_units:
            problems.append(Text(f"单位“{line.unit}”重复", f"unit {line.unit!r} appears twice").prefixed(where))
            continue
        seen_units.add(key)
        username = line.username or _username(games.slug, unit.code if unit else f"club{line.number}", taken)
        if not USERNAME.match(username):
            problems.append(Text(f"用户名“{username}”只能用字母、数字和 . _ -（3 到 60 个）",
                                 f"username {username!r}: letters, digits, . _ - (3 to 60)").prefixed(where))
            continue
        if username in taken:
            problems.append(Text(f"用户名“{username}”已被使用", f"username {username!r} is taken").prefixed(where))
            continue
        taken.add(username)
        plan.append((line, unit, username))
    if problems:
        return [], problems
    created = []
    with write_transaction():
        for line, unit, username in plan:
            q = select(Delegation).where(Delegation.games_id == games.id)
            q = q.where(Delegation.unit_code == unit.code) if unit else \
                q.where(Delegation.unit_name == line.unit, Delegation.unit_code.is_(None))
            d = db.session.scalar(q)
            if d is None:
                d = new_delegation(games, unit.code if unit else {"name": line.unit, "kind": "club"})
                d.version = 1
                db.session.add(d)
                db.session.flush()
            user, token = create_account(username, line.name, "leader", actor, delegation=d)
            created.append({"line": line.number, "unit": unit.name_zh if unit else line.unit,
                            "unit_en": (unit.name_en if unit else line.unit) or line.unit, "name": line.name,
                            "username": username, "token": token})
    return created, []


def _username(slug: str, code: str, taken: set) -> str:
    base = re.sub(r"[^A-Za-z0-9_.\-]", "", f"{slug}-{code}")[:55] or "leader"
    name, n = base, 2
    while name in taken:
        name, n = f"{base}-{n}", n + 1
    return name
