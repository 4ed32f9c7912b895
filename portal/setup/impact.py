"""What an amendment would do, before it takes effect (issue 26, 3): which deadlines move,
and per delegation already entered, who would newly break a rule or no longer, and whose
fees change. Each delegation is judged under the definition in force and under the amended
one, with the same facts (its unit, the universities list, its place and rooms); a change
of rules cannot change who else holds an identity number.

A fixed number of queries whatever the size; a national Games (thousands of people) is
judged twice in a background job instead of the request (`IN_REQUEST_PEOPLE`)."""
from __future__ import annotations

import datetime as dt
from collections import Counter
from decimal import Decimal

from sqlalchemy import func, select

from ..config import universities_csv
from ..delegations.models import Delegation, DelegationStatus, Person
from ..delegations.services import export_documents
from ..extensions import db
from ..games.models import Games
from ..games.services import definition_of, unit_names, units_info, universities_map
from ..money.models import RoomRequest, RoomStatus
from ..money.services import came_late, fees_under
from ..rules.definition import GamesDefinition
from ..rules.document import parse_document
from ..rules.engine import check_delegation
from ..workflow.models import Place, PlaceStatus

IN_REQUEST_PEOPLE = 1500  # above this many people in the Games, the impact is a job
CHINA = dt.timezone(dt.timedelta(hours=8))
DEADLINES = (("stages.declaration_closes", "报项截止", "Declaration closes"),
             ("stages.names_closes", "报名（姓名）截止", "Names close"),
             ("stages.substitutions_closes", "更换人员截止", "Substitutions close"),
             ("stages.changes_close", "一切变更截止", "All changes close"),
             ("dates.report", "报到日期", "Arrival day"), ("dates.start", "比赛开始", "First day of play"),
             ("dates.end", "比赛结束", "Last day of play"), ("dates.depart", "离会日期", "Departure day"))


def people_in(games: Games) -> int:
    return db.session.scalar(select(func.count(Person.id)).join(Delegation, Person.delegation_id == Delegation.id)
                             .where(Delegation.games_id == games.id)) or 0


def _value(definition: GamesDefinition, path: str):
    part, name = path.split(".")
    return getattr(getattr(definition, part), name, None)


def _shown(value) -> str:
    if value is None:
        return "—"
    if isinstance(value, dt.datetime):  # a deadline as the regulation says it: 31 Aug 24:00
        at = value.astimezone(CHINA)
        if at.time() == dt.time():
            return f"{(at.date() - dt.timedelta(days=1)).isoformat()} 24:00"
        return at.strftime("%Y-%m-%d %H:%M")
    return value.isoformat()


def moved_deadlines(before: GamesDefinition, after: GamesDefinition) -> list[dict]:
    """Each deadline or date the amendment moves, as China dates and hours."""
    return [{"zh": zh, "en": en, "before": _shown(_value(before, path)), "after": _shown(_value(after, path))}
            for path, zh, en in DEADLINES if _value(before, path) != _value(after, path)]


def _total(fees: dict) -> Decimal:
    return sum((Decimal(q) * amount for q, amount, _d in fees.values()), Decimal("0"))


def impact(games: Games, after: GamesDefinition, at: dt.datetime, progress=None) -> list[dict]:
    """Per delegation whose errors or fees change: its name, the rules newly broken and
    those no longer broken (by the violations' messages), and its fees before and after."""
    before = definition_of(games)
    delegations = db.session.scalars(select(Delegation).where(
        Delegation.games_id == games.id, Delegation.status != DelegationStatus.WITHDRAWN)
        .order_by(Delegation.unit_code, Delegation.id)).all()
    ids = [d.id for d in delegations] or [-1]
    documents = export_documents(delegations)
    units = units_info({d.unit_code for d in delegations if d.unit_code})
    names = unit_names()
    universities = universities_map(fallback_csv=universities_csv())
    places = {did for did, in db.session.execute(select(Place.delegation_id).where(
        Place.delegation_id.in_(ids), Place.status == PlaceStatus.ACCEPTED))}
    rooms: dict[int, list] = {}
    for row in db.session.scalars(select(RoomRequest).where(RoomRequest.delegation_id.in_(ids),
                                                            RoomRequest.status == RoomStatus.ALLOCATED)):
        rooms.setdefault(row.delegation_id, []).append(row)
    out = []
    for i, d in enumerate(delegations):
        if progress is not None:
            progress(i, len(delegations))
        parsed, _problems = parse_document(documents[d.id])
        if parsed is None:
            continue
        judged, fees = {}, {}
        for label, definition in (("before", before), ("after", after)):
            found = check_delegation(definition, parsed, at=at, unit=units.get(d.unit_code), universities=universities,
                                     joint_with=frozenset(d.joint_with or []))
            judged[label] = Counter((v.code, v.zh, v.en) for v in found if v.is_error)
            fees[label] = _total(fees_under(definition, documents[d.id], definition.capacity is None or d.id in places,
                                            rooms.get(d.id, []), came_late(definition, d.first_received_at)))
        new, gone = judged["after"] - judged["before"], judged["before"] - judged["after"]
        if new or gone or fees["before"] != fees["after"]:
            out.append({"name": names.get(d.unit_code, d.unit_name or d.unit_code or ""), "new": sorted(new),
                        "gone": sorted(gone), "fees": [f"{fees['before']:.2f}", f"{fees['after']:.2f}"]
                        if fees["before"] != fees["after"] else None})
    return out
