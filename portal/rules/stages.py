"""Stages of a Games' registration, from its deadlines (pure; `at` is injected).

declaration -> names -> substitutions -> closed. A Games without a declaration stage starts
at names; one without substitutions closes at the names deadline. An extension granted to a
delegation moves that delegation's deadline for one stage.
"""
from __future__ import annotations

import datetime as dt
from dataclasses import dataclass

from .definition import Stages

DECLARATION, NAMES, SUBSTITUTIONS, CLOSED = "declaration", "names", "substitutions", "closed"
STAGE_NAMES = {
    DECLARATION: ("第一次报名（项目和人数）", "Declaration (events and numbers)"),
    NAMES: ("第二次报名（人员名单）", "Names"),
    SUBSTITUTIONS: ("更换运动员（须组委会批准）", "Substitutions (with approval)"),
    CLOSED: ("报名已截止", "Closed"),
}
# A Games that takes names at once, with no declaration of events and numbers first, has
# one entry stage: it is not a "second" one.
ONE_STAGE_NAMES = ("报名", "Entries")


def stage_name(stages, stage: str) -> tuple[str, str]:
    """What the Games itself calls the stage (zh, en)."""
    if stage == NAMES and getattr(stages, "declaration_closes", None) is None:
        return ONE_STAGE_NAMES
    return STAGE_NAMES[stage]


_CLOSES = {DECLARATION: "declaration_closes", NAMES: "names_closes", SUBSTITUTIONS: "substitutions_closes"}


@dataclass(frozen=True)
class StageInfo:
    stage: str
    closes: dt.datetime | None  # when the current stage ends (None: open-ended)


def closes_at(stages: Stages, stage: str, extensions: dict[str, dt.datetime] | None = None) -> dt.datetime | None:
    base = getattr(stages, _CLOSES[stage]) if stage in _CLOSES else None
    ext = (extensions or {}).get(stage)
    if base is None:
        return None
    if stage == SUBSTITUTIONS and stages.changes_close is not None:
        base = min(base, stages.changes_close)
    return max(base, ext) if ext else base


def stage_at(stages: Stages, at: dt.datetime, extensions: dict[str, dt.datetime] | None = None) -> StageInfo:
    if at.tzinfo is None:
        raise ValueError("`at` needs its UTC offset")
    for stage in (DECLARATION, NAMES):
        closes = closes_at(stages, stage, extensions)
        if closes is not None and at < closes:
            return StageInfo(stage, closes)
        if stage == NAMES and closes is None:
            return StageInfo(NAMES, None)
    subs = closes_at(stages, SUBSTITUTIONS, extensions)
    if subs is not None and stages.changes_need_approval and at < subs:
        return StageInfo(SUBSTITUTIONS, subs)
    return StageInfo(CLOSED, None)


def may_edit_names(info: StageInfo) -> bool:
    return info.stage in (DECLARATION, NAMES)


def may_edit_declarations(info: StageInfo, stages: Stages) -> bool:
    # Games without a declaration stage declare with the names.
    return info.stage == DECLARATION or (stages.declaration_closes is None and info.stage == NAMES)
