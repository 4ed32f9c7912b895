"""Who may stay which nights (the regulation's 报到 and 离会 days), per person: a delegation
head arrives before the opening, a sport's team before its own event (nmsg-2009 总则十(三):
各代表团可于开幕式前2天报到，比赛结束后2天离会，各项目运动队在本项目比赛开始前2天报到，
比赛结束后1天离会). Pure: a Games definition and what the person is, in; nights out."""
from __future__ import annotations

import datetime as dt
from dataclasses import dataclass

from .definition import GamesDefinition, StayRule


@dataclass(frozen=True)
class StayWindow:
    first_night: dt.date
    last_night: dt.date
    strict: bool  # "提前报到者大会不予接待": an earlier night is refused, not merely unpaid

    def allows(self, night: dt.date) -> bool:
        return self.first_night <= night <= self.last_night


def _event_dates(definition: GamesDefinition, events: set[str]) -> tuple[dt.date, dt.date]:
    """First and last day of play of these events: their sessions where the fixture gives
    a schedule, else the Games' dates."""
    starts, ends = [], []
    for e in definition.events:
        if e.code in events:
            for s in e.sessions:
                starts.append(s.start.date())
                ends.append(s.end.date())
    return (min(starts) if starts else definition.dates.start), (max(ends) if ends else definition.dates.end)


def _applies(rule: StayRule, *, athlete: bool, official: bool) -> bool:
    if rule.who == "all":
        return True
    if rule.who == "athletes":
        return athlete
    if rule.who == "team":  # a sport's team: its athletes and their leaders and coaches
        return athlete or official
    return not (athlete or official)  # delegation_head: the delegation's head, staff, companions


def window(definition: GamesDefinition, *, athlete: bool = False, official: bool = False,
           events: set[str] = frozenset()) -> StayWindow:
    """The nights this person may stay. Where several rules apply, the widest; where none
    does, the Games' widest window."""
    start, end = definition.dates.start, definition.dates.end
    ev_start, ev_end = _event_dates(definition, set(events))
    anchors = {"opening": start, "competition_start": start, "event_start": ev_start,
               "closing": end, "competition_end": end, "event_end": ev_end}
    rules = [r for r in definition.stay if _applies(r, athlete=athlete, official=official)] or list(definition.stay)
    firsts, lasts, strict = [], [], False
    for r in rules:
        firsts.append(anchors[r.arrive_relative_to] - dt.timedelta(days=r.arrive_days_before))
        strict = strict or r.earliest_arrival_strict
        if r.depart_days_after is not None and r.depart_relative_to is not None:
            lasts.append(anchors[r.depart_relative_to] + dt.timedelta(days=r.depart_days_after - 1))
    first = min(firsts) if firsts else start - dt.timedelta(days=1)
    last = max(lasts) if lasts else (definition.dates.depart or end) - dt.timedelta(days=1)
    return StayWindow(first, last, strict)


def person_window(definition: GamesDefinition, document: dict, ref: str) -> StayWindow:
    """The window of a person of a delegation document (as export_document gives it)."""
    events = {e["event"] for e in document.get("entries") or []
              if ref in (e.get("people") or [s["person"] for s in e.get("lineup") or []])}
    athlete = bool(events)
    official_sports = {o.get("sport") for o in document.get("officials") or [] if o["person"] == ref}
    if official_sports:  # a leader or coach follows his sport's events (all of them if he names none)
        events |= {e.code for e in definition.events if e.sport in official_sports or None in official_sports}
    return window(definition, athlete=athlete, official=bool(official_sports), events=events)


def widest(definition: GamesDefinition) -> StayWindow:
    """The first and last night anyone of the Games may stay."""
    every = {e.code for e in definition.events}
    windows = [window(definition, athlete=True, events=every), window(definition, official=True, events=every),
               window(definition)]
    return StayWindow(min(w.first_night for w in windows), max(w.last_night for w in windows),
                      any(w.strict for w in windows))
