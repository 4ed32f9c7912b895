"""Dates and deadlines that contradict each other (a trap a committee sets alone): each is
valid by itself, so the fixture loads and every screen reads right, yet no leader can
enter in time, or names are still taken after the last round. Copying last year's Games,
or typing one year wrong, is enough. Pure: a definition (and the instant, for deadlines
already past) in, sentences out; shown on the set-up page, never a refusal, since a
regulation may be odd on purpose."""
from __future__ import annotations

import datetime as dt

from .definition import GamesDefinition
from .readback import day_in_words, deadline_in_words

CHINA = dt.timezone(dt.timedelta(hours=8))
# The closing deadlines in the order a regulation runs them.
CLOSES = (("declaration_closes", "报项截止", "the declaration closes"),
          ("names_closes", "报名（姓名）截止", "the names close"),
          ("substitutions_closes", "更换人员截止", "substitutions close"),
          ("changes_close", "一切变更截止", "all changes close"))


def _morning(day: dt.date) -> dt.datetime:
    return dt.datetime.combine(day, dt.time(0), CHINA)


def calendar_traps(definition: GamesDefinition, at: dt.datetime | None = None) -> list[tuple[str, str]]:
    """(zh, en) of each contradiction among the Games' days and stage deadlines; `at`: the
    instant now, to tell entry deadlines already past (a copied Games not yet moved)."""
    dates, stages = definition.dates, definition.stages
    out: list[tuple[str, str]] = []

    def day(value):
        return day_in_words(value)

    def when(value):
        return deadline_in_words(value)

    if dates.end < dates.start:
        out.append((f"比赛结束日期（{day(dates.end)[0]}）早于开始日期（{day(dates.start)[0]}）。",
                    f"The last day of play ({day(dates.end)[1]}) is before the first ({day(dates.start)[1]})."))
    if dates.report and dates.report > dates.start:
        out.append((f"报到日期（{day(dates.report)[0]}）晚于比赛开始（{day(dates.start)[0]}）。",
                    f"Arrival ({day(dates.report)[1]}) is after the first day of play ({day(dates.start)[1]})."))
    if dates.depart and dates.depart < dates.end:
        out.append((f"离会日期（{day(dates.depart)[0]}）早于比赛结束（{day(dates.end)[0]}）。",
                    f"Departure ({day(dates.depart)[1]}) is before the last day of play ({day(dates.end)[1]})."))
    if dates.report_opens and dates.report_closes and dates.report_opens >= dates.report_closes:
        out.append((f"报到开始（{when(dates.report_opens)[0]}）不早于报到截止（{when(dates.report_closes)[0]}）。",
                    f"Check-in opens ({when(dates.report_opens)[1]}) no earlier than it closes "
                    f"({when(dates.report_closes)[1]})."))
    set_ = [(name, zh, en, getattr(stages, name)) for name, zh, en in CLOSES if getattr(stages, name) is not None]
    for i, (_a, a_zh, a_en, a_at) in enumerate(set_):
        for _b, b_zh, b_en, b_at in set_[i + 1:]:
            if a_at > b_at:
                out.append((f"{a_zh}（{when(a_at)[0]}）晚于{b_zh}（{when(b_at)[0]}）。",
                            f"{a_en[0].upper() + a_en[1:]} ({when(a_at)[1]}) after {b_en} ({when(b_at)[1]})."))
    entry = [(zh, en, v) for name, zh, en, v in set_ if name in ("declaration_closes", "names_closes")]
    if stages.entries_open and entry:
        zh, en, first = min(entry, key=lambda x: x[2])
        if stages.entries_open >= first:
            out.append((f"报名开始（{when(stages.entries_open)[0]}）不早于{zh}（{when(first)[0]}）：没有人来得及报名。",
                        f"Entries open ({when(stages.entries_open)[1]}) no earlier than {en} ({when(first)[1]}): "
                        f"nobody can enter in time."))
    play = _morning(dates.start)
    for zh, en, v in entry:
        if v > play:
            out.append((f"{zh}（{when(v)[0]}）晚于比赛开始（{day(dates.start)[0]}）。",
                        f"{en[0].upper() + en[1:]} ({when(v)[1]}) after play begins ({day(dates.start)[1]})."))
    over = _morning(dates.end + dt.timedelta(days=1))
    for name, zh, en, v in set_:
        if name not in ("declaration_closes", "names_closes") and v > over:
            out.append((f"{zh}（{when(v)[0]}）晚于比赛结束（{day(dates.end)[0]}）。",
                        f"{en[0].upper() + en[1:]} ({when(v)[1]}) after the last day of play ({day(dates.end)[1]})."))
    if at is not None and entry:
        zh, en, last = max(entry, key=lambda x: x[2])
        if last <= at:
            out.append((f"{zh}（{when(last)[0]}）已经过去：现在没有人能报名。是否沿用了往届的日期？",
                        f"{en[0].upper() + en[1:]} ({when(last)[1]}) has passed: nobody can enter now. "
                        f"Are these last edition's dates?"))
    return out
