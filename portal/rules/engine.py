"""The entry-rules engine: a Games definition and a delegation in, violations out.

Pure Python: no Flask, no database session. What the engine needs from the outside world
(the unit's record, the universities list, the identity numbers already used in other
delegations of the same Games) is passed in as plain values.
"""
from __future__ import annotations

import datetime as dt
from collections.abc import Mapping

from . import checks  # noqa: F401  (the checks register themselves)
from .check_context import _BUILTIN_CHECKS, _RULE_CHECKS, CHINA, CheckContext, builtin_check, format_deadline, names, rule_check
from .definition import GamesDefinition, UnitInfo, UniversityInfo
from .document import ParsedDelegation
from .violations import Violation

__all__ = ["CHINA", "CheckContext", "builtin_check", "check_delegation", "format_deadline", "names", "rule_check"]


def check_delegation(
    games: GamesDefinition,
    delegation: ParsedDelegation,
    *,
    at: dt.datetime | None = None,
    unit: UnitInfo | None = None,
    universities: Mapping[str, UniversityInfo] | None = None,
    other_id_numbers: Mapping[str, str] | None = None,
    sanctioned: Mapping[str, str] | None = None,
    booked_people: set[str] | None = None,
    qualified: frozenset[tuple[str, str, str]] | None = None,
    unit_names: Mapping[str, tuple[str, str]] | None = None,
    barred_people: Mapping[str, tuple[str, str]] | None = None,
    delegation_documents: frozenset[str] | None = None,
    joint_with: frozenset[str] = frozenset(),
    placed_before: Mapping[str, int] | None = None,
) -> list[Violation]:
    """All violations of the Games' entry rules by this delegation, at instant `at`."""
    if at is None:
        at = dt.datetime.now(dt.UTC)
    if at.tzinfo is None:
        raise ValueError("`at` must carry its UTC offset")
    ctx = CheckContext(games, delegation, at, unit, universities or {}, other_id_numbers or {},
                       sanctioned or {}, qualified, barred_people or {}, delegation_documents, unit_names or {},
                       joint_with)
    ctx.booked_people = booked_people  # None: the rooms are not known here (a bare document)
    ctx.placed_before = placed_before  # None: the previous edition is not known here (a bare document)
    found: list[Violation] = []
    for fn in _BUILTIN_CHECKS:
        found.extend(fn(ctx))
    for index, rule in enumerate(games.rules):
        fn = _RULE_CHECKS.get(rule.kind)
        if fn is None:  # a rule kind the definition knows must have a check
            raise LookupError(f"no check registered for rule kind {rule.kind!r}")
        for v in fn(ctx, rule):
            # Each problem names the clause and the rule it comes from (for the pages; the
            # check report keeps the shape delegation-format.md fixes).
            if rule.clause:
                v.extra.setdefault("clause", rule.clause)
            v.extra.setdefault("rule", index)
            found.append(v)
    return found
