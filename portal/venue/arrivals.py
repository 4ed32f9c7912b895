"""Who has arrived at the desk, and until when one may: read by the desk, the no-shows and
the leaders' meeting alike. Where the regulation makes the leaders' meeting the last
moment to check in (youth-gomoku-2015 十一(十): 领队会召开的时间为报到最后期限), later
arrivals are refused."""
from __future__ import annotations

import datetime as dt

from sqlalchemy import select

from ..delegations.models import Delegation
from ..extensions import db
from ..text import Text
from .models import CheckIn

CHINA = dt.timezone(dt.timedelta(hours=8))


def arrived(delegation_id: int) -> set[str]:
    """The refs of one delegation's people checked in."""
    return set(db.session.scalars(select(CheckIn.person_ref).where(CheckIn.delegation_id == delegation_id)))


def arrivals(games) -> dict[int, set[str]]:
    """Delegation id -> refs checked in, for the whole Games from one query."""
    out: dict[int, set[str]] = {}
    for delegation_id, ref in db.session.execute(
            select(CheckIn.delegation_id, CheckIn.person_ref).join(Delegation, CheckIn.delegation_id == Delegation.id)
            .where(Delegation.games_id == games.id)):
        out.setdefault(delegation_id, set()).add(ref)
    return out


def when(meeting) -> str:
    """The leaders' meeting's time as people read it: 2015-07-14 19:30, or the date alone."""
    if meeting.at is not None:
        return meeting.at.astimezone(CHINA).strftime("%Y-%m-%d %H:%M")
    return meeting.day.isoformat()


def checkin_closed(definition, at: dt.datetime, report_hours: bool = True) -> Text | None:
    """Why an arrival at `at` is refused because check-in has closed (at the regulation's
    hour, `report_hours`, or when the leaders' meeting begins), or None."""
    closes = definition.dates.report_closes
    if report_hours and closes is not None and at > closes:
        local = closes.astimezone(CHINA).strftime("%Y-%m-%d %H:%M")
        return Text(f"报到已于 {local}（北京时间）截止", f"check-in closed at {local} China time")
    meeting = definition.leaders_meeting
    if meeting is None or not meeting.closes_checkin:
        return None
    closed = meeting.at is not None and at > meeting.at
    closed = closed or (meeting.at is None and at.astimezone(CHINA).date() > meeting.day)
    if not closed:
        return None
    return Text(f"报到截止于{meeting.name.zh}召开时（{when(meeting)}），之后不再报到",
                f"check-in closed when the {meeting.name.en.lower()} began ({when(meeting)})")
