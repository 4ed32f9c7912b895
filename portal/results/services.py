"""Entering an event's results (from a sheet the pairing program exports) and reading the
standings. The points and medals come from portal/rules/standings.py and the fixture."""
from __future__ import annotations

import csv
import io

from sqlalchemy import delete, distinct, func, select

from ..audit.services import Actor, record
from ..db_tx import write_transaction
from ..delegations.models import Delegation, Entry, EntryMember
from ..extensions import db
from ..games.models import Unit
from ..games.services import definition_of
from ..sheets import UNREADABLE, decode_text, first_sheet_rows, is_workbook
from ..rules.standings import Placing, ResultsError, score_event, standings
from .models import EventResult

MAX_ROWS = 2000


def entrants_of(games, event_code: str) -> int:
    """How many played: people in an individual event, teams (entries) in a team event."""
    event = next(e for e in definition_of(games).events if e.code == event_code)
    listed = select(Delegation.id).where(Delegation.games_id == games.id,
                                         Delegation.status.in_(("submitted", "approved")))
    if event.is_team:
        return db.session.scalar(select(func.count()).select_from(Entry).where(
            Entry.event_code == event_code, Entry.delegation_id.in_(listed))) or 0
    return db.session.scalar(select(func.count(distinct(EntryMember.person_id))).select_from(EntryMember)
                             .join(Entry, EntryMember.entry_id == Entry.id)
                             .where(Entry.event_code == event_code, Entry.delegation_id.in_(listed))) or 0


def read_sheet(data: bytes, filename: str) -> tuple[list[tuple[int, str, str]], list[str]]:
    """Rows (place, unit, name) of a CSV or Excel sheet: 名次, 单位 (code or name), 姓名/队名.
    A header row is skipped; problems name the row."""
    if is_workbook(data, filename):
        rows = first_sheet_rows(data)
        if rows is None:
            return [], [UNREADABLE]
    else:
        rows = list(csv.reader(io.StringIO(decode_text(data))))
    rows = [[c.strip() for c in r] for r in rows]
    out, problems = [], []
    for i, r in enumerate(rows[:MAX_ROWS + 1], start=1):
        r = r + ["", "", ""]
        if not any(r[:3]):
            continue
        if i == 1 and not r[0].isdigit():
            continue  # header
        place = r[0].replace("第", "").replace("名", "")
        if not place.isdigit() or int(place) < 1:
            problems.append(f"第 {i} 行：名次“{r[0]}”应为正整数 / row {i}: place {r[0]!r} must be a whole number")
            continue
        if not r[1]:
            problems.append(f"第 {i} 行：缺少单位 / row {i}: unit missing")
            continue
        out.append((int(place), r[1], r[2]))
    if len(rows) > MAX_ROWS + 1:
        problems.append(f"最多 {MAX_ROWS} 行 / at most {MAX_ROWS} rows")
    return out, problems


def enter_results(games, event_code: str, rows: list[tuple[int, str, str]], actor: Actor,
                  entrants: int | None = None) -> list[str]:
    """Replace the event's results with these (all or nothing). Returns problems, [] when stored."""
    definition = definition_of(games)
    if event_code not in {e.code for e in definition.events}:
        return [f"“{event_code}”不是本届比赛的项目 / not an event of these Games"]
    delegations = db.session.execute(select(Delegation.id, Delegation.unit_code, Delegation.unit_name)
                                     .where(Delegation.games_id == games.id)).all()
    units = {u.code: u for u in db.session.scalars(select(Unit))}
    by_key = {}
    for did, code, name in delegations:
        for key in (code, name, units[code].name_zh if code in units else None,
                    units[code].name_en if code in units else None):
            if key:
                by_key[key.lower()] = did
    problems, resolved = [], []
    for place, unit, label in rows:
        did = by_key.get(unit.lower())
        if did is None:
            problems.append(f"名次 {place}：“{unit}”不是本届比赛的参赛单位 / place {place}: {unit!r} is not a delegation")
        resolved.append((place, str(did), label))
    n = entrants if entrants is not None else entrants_of(games, event_code)
    if not problems:
        try:
            score_event(definition, event_code, n, resolved)
        except ResultsError as exc:
            problems.append(str(exc))
    if problems:
        return problems
    with write_transaction():
        before = [(r.place, r.delegation_id, r.label) for r in db.session.scalars(
            select(EventResult).where(EventResult.games_id == games.id, EventResult.event_code == event_code))]
        db.session.execute(delete(EventResult).where(EventResult.games_id == games.id,
                                                     EventResult.event_code == event_code))
        db.session.add_all([EventResult(games_id=games.id, event_code=event_code, place=place,
                                        delegation_id=int(did), label=label[:200], entrants=n,
                                        entered_by=actor.label) for place, did, label in resolved])
        record(actor, "results.enter", "event", event_code, before={"results": before} if before else None,
               after={"results": [(p, int(d), lab) for p, d, lab in resolved], "entrants": n})
    return []


def games_standings(games):
    """(placings by event, unit standings) of everything entered so far, from one query."""
    definition = definition_of(games)
    by_event: dict[str, list] = {}
    entrants: dict[str, int] = {}
    for r in db.session.scalars(select(EventResult).where(EventResult.games_id == games.id)
                                .order_by(EventResult.event_code, EventResult.place, EventResult.id)):
        by_event.setdefault(r.event_code, []).append((r.place, str(r.delegation_id), r.label))
        entrants[r.event_code] = r.entrants
    placings: dict[str, list[Placing]] = {}
    for event, rows in by_event.items():
        try:
            placings[event] = score_event(definition, event, entrants[event], rows)
        except ResultsError:
            placings[event] = []
    return placings, standings([p for ps in placings.values() for p in ps])
