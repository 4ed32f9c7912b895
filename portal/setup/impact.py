"""What an amendment would do to the delegations already entered, before it takes effect:
who would newly break a rule, and who would no longer. Each delegation is judged under the
definition in force and under the amended one, with the same facts (its unit, the
universities list); a change of rules cannot change who else holds an identity number."""
from __future__ import annotations

import datetime as dt
from collections import Counter

from sqlalchemy import select

from ..config import universities_csv
from ..delegations.judged import stored_document
from ..delegations.models import Delegation, DelegationStatus
from ..extensions import db
from ..games.models import Games
from ..games.services import definition_of, unit_names, units_info, universities_map
from ..rules.definition import GamesDefinition
from ..rules.document import parse_document
from ..rules.engine import check_delegation

IMPACT_LIMIT = 400  # delegations judged twice in one request: a national Games has ~45


def impact(games: Games, after: GamesDefinition, at: dt.datetime) -> list[dict]:
    """Per delegation whose errors change: its name, the rules newly broken and those no
    longer broken, by the violations' messages."""
    before = definition_of(games)
    delegations = db.session.scalars(select(Delegation).where(
        Delegation.games_id == games.id, Delegation.status != DelegationStatus.WITHDRAWN)
        .order_by(Delegation.unit_code, Delegation.id).limit(IMPACT_LIMIT)).all()
    units = units_info({d.unit_code for d in delegations if d.unit_code})
    names = unit_names()
    universities = universities_map(fallback_csv=universities_csv())
    out = []
    for d in delegations:
        parsed, problems = parse_document(stored_document(d))
        if parsed is None:
            continue
        judged = {}
        for label, definition in (("before", before), ("after", after)):
            found = check_delegation(definition, parsed, at=at, unit=units.get(d.unit_code), universities=universities)
            judged[label] = Counter((v.code, v.zh, v.en) for v in found if v.is_error)
        new, gone = judged["after"] - judged["before"], judged["before"] - judged["after"]
        if new or gone:
            out.append({"delegation": d, "name": names.get(d.unit_code, d.unit_name or d.unit_code or ""),
                        "new": sorted(new), "gone": sorted(gone)})
    return out
