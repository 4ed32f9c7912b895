"""A delegation's stage as its own deadlines and extensions make it, and the violations a
closed stage gives (the pure stage logic is rules/stages.py)."""
from __future__ import annotations

import datetime as dt
from typing import TYPE_CHECKING

from sqlalchemy import bindparam, select

from ..db_tx import recalled_read_with
from ..extensions import db
from ..games.services import definition_of
from ..rules.engine import format_deadline
from ..rules.stages import NAMES, STAGE_NAMES, StageInfo, closes_at, stage_at, stage_name
from ..rules.violations import Violation
from ..workflow.models import Extension
from .models import Delegation

if TYPE_CHECKING:
    from ..rules.definition import Stages



# Built once, bound per call: every page of a delegation reads its extensions, and building
# and keying the statement cost more than running it.
_EXTENSIONS = select(Extension.stage, Extension.until).where(Extension.delegation_id == bindparam("delegation_id"))


def extensions_of(delegation: Delegation) -> dict[str, dt.datetime]:
    """Stage -> until. As read with the delegation, when the request's first statement read
    them beside it (access.guards), or the lock did (WITH_EXTENSIONS), and nothing has been
    written or locked since."""
    known = recalled_read_with(Delegation, delegation.id, Extension)
    if known is not None:
        return dict(known)
    return dict(db.session.execute(_EXTENSIONS, {"delegation_id": delegation.id}).all())


def stage_of(delegation: Delegation, at: dt.datetime) -> StageInfo:
    return stage_at(definition_of(delegation.games).stages, at, extensions_of(delegation))


def deadline_passed(stage: str, closes: dt.datetime | None, stages: Stages = None) -> Violation:
    zh, en = stage_name(stages, stage) if stages is not None else STAGE_NAMES[stage]
    when = format_deadline(closes) if closes else ""
    return Violation("DEADLINE_PASSED",
                     f"{zh}已于 {when}（北京时间）截止，不能再提交或修改。如有特殊情况，请联系组委会申请延期。",
                     f"The {en.lower()} stage closed at {when} China time; nothing more can be submitted "
                     f"or changed. Ask the organisers for an extension if there is a special reason.")


def change_window_closed(closes: dt.datetime | None) -> Violation:
    when = format_deadline(closes) if closes else ""
    return Violation("CHANGE_WINDOW_CLOSED",
                     f"人员变更已于 {when}（北京时间）截止，组委会不再受理更换申请。",
                     f"Changes closed at {when} China time; no more substitutions are accepted.")


def names_deadline_violation(delegation: Delegation) -> Violation:
    stages = definition_of(delegation.games).stages
    return deadline_passed(NAMES, closes_at(stages, NAMES, extensions_of(delegation)), stages)


