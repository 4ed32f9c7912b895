"""Deadline reminders and the organisers' digest (issue 24, 2), run by `flask notify due`
under cron, as often as wanted: each is queued once (the outbox's dedupe key names the
delegation, the stage, the instant it closes and the threshold), so a scheduler that runs
twice, or late, sends nothing twice and never an out-of-date reminder beside a newer one.

A delegation is reminded, before each stage closes (the Games' reminder_hours: 7 days,
1 day and 3 hours unless it says otherwise), when it has work left: not yet submitted,
returned, or with errors; the message says what is left in words. The organisers of a
Games get one digest a day in the last week before the names close: who has not
submitted, who has errors, who has not paid."""
from __future__ import annotations

import datetime as dt

from sqlalchemy import select

from ..accounts.models import GamesStaff, User
from ..delegations.judged import stored_document, stored_violations
from ..delegations.models import Delegation, DelegationStatus
from ..extensions import db
from ..games.models import Games, GamesStatus
from ..games.services import definition_of, unit_names
from ..money.services import totals_by_delegation
from ..notify.services import queue, recipients_of, tell_delegation
from ..roles import Role
from ..rules.stages import DECLARATION, NAMES, closes_at, stage_name
from ..web import china_time
from .services import extensions_of

CHINA = dt.timezone(dt.timedelta(hours=8))
DIGEST_DAYS = 7
OPEN = (DelegationStatus.DRAFT, DelegationStatus.RETURNED)


def _threshold(closes: dt.datetime, at: dt.datetime, hours: list[int]) -> int | None:
    """The nearest reminder threshold passed (in hours before `closes`), or None."""
    if at >= closes:
        return None
    passed = [h for h in hours if at >= closes - dt.timedelta(hours=h)]
    return min(passed) if passed else None


def work_left(d: Delegation, at: dt.datetime) -> list[tuple[str, str]]:
    """What the delegation still has to do, in words (zh, en); empty when nothing."""
    left = []
    if d.status == DelegationStatus.RETURNED:
        left.append(("报名被组委会退回，修改后须重新提交", "the entry was returned: correct it and submit it again"))
    elif d.status == DelegationStatus.DRAFT:
        left.append(("报名尚未提交", "the entry is not submitted yet"))
    errors = [v for v in stored_violations(d, stored_document(d), at, reveal=False) if v.is_error]
    if errors:
        left.append((f"还有 {len(errors)} 个错误，例如：{errors[0].zh}",
                     f"{len(errors)} error(s) left, such as: {errors[0].en}"))
    return left


def due(at: dt.datetime) -> dict[str, int]:
    """Queue every reminder and digest due at `at`; how many of each were queued."""
    counts = {"reminders": 0, "digests": 0}
    for games in db.session.scalars(select(Games).where(Games.status == GamesStatus.PUBLISHED).order_by(Games.id)):
        definition = definition_of(games)
        hours = sorted(set(definition.stages.reminder_hours))
        delegations = db.session.scalars(select(Delegation).where(
            Delegation.games_id == games.id, Delegation.status != DelegationStatus.WITHDRAWN)
            .order_by(Delegation.id)).all()
        for d in delegations:
            counts["reminders"] += _remind(d, definition, hours, at)
        counts["digests"] += _digest(games, definition, delegations, at)
    return counts


def _remind(d: Delegation, definition, hours: list[int], at: dt.datetime) -> int:
    made = 0
    for stage in (DECLARATION, NAMES):
        closes = closes_at(definition.stages, stage, extensions_of(d))
        threshold = _threshold(closes, at, hours) if closes else None
        if threshold is None or not recipients_of(d, reminder=True):
            continue
        left = work_left(d, at)
        if not left:
            continue
        made += len(tell_delegation(d, "reminder", dedupe=f"reminder:{d.id}:{stage}:{closes.isoformat()}:{threshold}",
                                    stage=stage_name(definition.stages, stage), closes=china_time(closes),
                                    left=left, hours=threshold))
    return made


def _digest(games: Games, definition, delegations: list[Delegation], at: dt.datetime) -> int:
    closes = definition.stages.names_closes
    if closes is None or not (closes - dt.timedelta(days=DIGEST_DAYS) <= at < closes):
        return 0
    staff = db.session.scalars(select(User).join(GamesStaff, GamesStaff.user_id == User.id).where(
        GamesStaff.games_id == games.id, User.role == Role.ORGANISER, User.active.is_(True),
        User.email.is_not(None))).all()
    if not staff:
        return 0
    names = unit_names()
    money = totals_by_delegation(games)

    def label(d: Delegation) -> str:
        return names.get(d.unit_code, d.unit_name or d.unit_code or "")
    not_submitted = [label(d) for d in delegations if d.status in OPEN]
    with_errors = [label(d) for d in delegations
                   if any(v.is_error for v in stored_violations(d, stored_document(d), at, reveal=True))]
    unpaid = [label(d) for d in delegations if d.id in money and money[d.id]["balance"] > 0]
    day = at.astimezone(CHINA).date().isoformat()
    made = queue("digest", [(u.email, u.display_name, u.lang or "zh") for u in staff],
                 dedupe=f"digest:{games.id}:{day}", games=definition, closes=china_time(closes), day=day,
                 not_submitted=not_submitted, with_errors=with_errors, unpaid=unpaid,
                 total=len(delegations))
    for message in made:
        message.games_id = games.id
    return len(made)
