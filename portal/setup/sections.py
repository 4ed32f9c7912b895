"""Each set-up section's form, read into the definition it changes. Dates are China dates;
a deadline is a China date and hour ("报名截止 8月31日 24:00" is typed 8月31日, 24:00 and
stored as the instant it closes, 1 September 00:00 +08:00). What the form cannot say is
refused with the field named; the definition then checks the whole."""
from __future__ import annotations

import datetime as dt
import re

import yaml

from ..text import InputProblems, Text
from ..upload_checks import load_yaml
from .labels import FIELDS

CHINA = dt.timezone(dt.timedelta(hours=8))
STAGE_FIELDS = ("declaration_closes", "names_closes", "substitutions_closes", "changes_close")
# Everything the section forms do not cover, typed as YAML on the last section.
# (Fees, rooms, stays, contacts, documents, awards, the money settings and the meeting have
# forms of their own: items.py.)
ADVANCED_KEYS = ("rooms_required_for", "id_types", "unit_kind_names", "competition", "sanctions", "companions_per_athlete")
MAX_ROWS = 200


class SectionProblem(InputProblems):
    def __init__(self, zh: str, en: str):
        super().__init__([("", Text(zh, en))], en)
        self.zh, self.en = zh, en


def _text(form, name: str, limit: int = 200) -> str:
    return (form.get(name) or "").strip()[:limit]


def _date(form, name: str, required: bool = False) -> str | None:
    value = _text(form, name, 20)
    label = FIELDS.get(name, (name, name))
    if not value:
        if required:
            raise SectionProblem(f"请填写{label[0]}", f"Give the {label[1]}")
        return None
    try:
        return dt.date.fromisoformat(value).isoformat()
    except ValueError:
        raise SectionProblem(f"{label[0]}应为日期，如 2027-05-31", f"{label[1]}: a date such as 2027-05-31") from None


def deadline(day: str | None, hour: str | None) -> str | None:
    """China date and hour (00:00 to 24:00) -> the instant, ISO with +08:00."""
    if not day:
        return None
    date = dt.date.fromisoformat(day)
    hour = (hour or "24:00").strip()
    h, _sep, m = hour.partition(":")
    h, m = int(h), int(m or 0)
    if not (0 <= h <= 24 and 0 <= m < 60) or (h == 24 and m):
        raise ValueError(hour)
    at = dt.datetime.combine(date, dt.time(), CHINA) + dt.timedelta(hours=h, minutes=m)
    return at.isoformat()


def as_day_and_hour(value: str | None) -> tuple[str, str]:
    """The stored instant as the form shows it: 1 Sep 00:00 reads 31 Aug 24:00."""
    if not value:
        return "", ""
    at = dt.datetime.fromisoformat(value).astimezone(CHINA)
    if at.time() == dt.time():
        return (at.date() - dt.timedelta(days=1)).isoformat(), "24:00"
    return at.date().isoformat(), at.strftime("%H:%M")


SESSION = re.compile(r"(\d{4}-\d{1,2}-\d{1,2})\s+(\d{1,2}:\d{2})\s*[-–—~至到]\s*(?:(\d{4}-\d{1,2}-\d{1,2})\s+)?(\d{1,2}:\d{2})")


def read_sessions(text: str, event_name: str) -> list[dict]:
    """An event's sessions typed as China date and hours, one per line or separated by
    "；": "2025-05-10 08:30-12:00", or "2025-05-10 19:00 - 2025-05-11 01:00" past midnight."""
    out = []
    for part in [x.strip() for x in re.split(r"[;；\n]+", text or "") if x.strip()][:60]:
        m = SESSION.fullmatch(part)
        try:
            if m is None:
                raise ValueError(part)
            day, start, end_day, end = m.groups()
            begin = dt.datetime.combine(dt.date.fromisoformat(_iso_day(day)), dt.time.fromisoformat(_hhmm(start)), CHINA)
            finish = dt.datetime.combine(dt.date.fromisoformat(_iso_day(end_day or day)), dt.time.fromisoformat(_hhmm(end)),
                                         CHINA)
        except ValueError:
            raise SectionProblem(f"{event_name}的比赛时间“{part}”看不懂，请写成 2025-05-10 08:30-12:00",
                                 f"{event_name}: session {part!r} should read like 2025-05-10 08:30-12:00") from None
        if finish <= begin:
            raise SectionProblem(f"{event_name}的比赛时间“{part}”结束不晚于开始",
                                 f"{event_name}: session {part!r} ends before it starts")
        out.append({"start": begin.isoformat(), "end": finish.isoformat()})
    return out


def _iso_day(text: str) -> str:
    y, m, d = text.split("-")
    return f"{int(y):04d}-{int(m):02d}-{int(d):02d}"


def _hhmm(text: str) -> str:
    h, m = text.split(":")
    return f"{int(h):02d}:{int(m):02d}"


def sessions_text(sessions) -> str:
    """An event's sessions (the definition's) as the form shows them, in China time."""
    out = []
    for x in sessions or []:
        start, end = x.start.astimezone(CHINA), x.end.astimezone(CHINA)
        tail = end.strftime("%H:%M") if end.date() == start.date() else end.strftime("%Y-%m-%d %H:%M")
        out.append(f"{start:%Y-%m-%d %H:%M}-{tail}")
    return "；".join(out)


def read_section(data: dict, section: str, form, units: dict[str, str] | None = None) -> dict:
    """`units`: each unit's code and its Chinese and English names -> its code (the invited
    units may be typed by name)."""
    reader = READERS.get(section)
    if reader is None:
        raise SectionProblem("没有这一部分", "No such section")
    if section == "participation":
        _participation(data, form, units or {})
    else:
        reader(data, form)
    return data


def _basics(data: dict, form) -> None:
    if not _text(form, "name_zh"):
        raise SectionProblem("请填写比赛名称", "Give the Games' name")
    data["name"] = {"zh": _text(form, "name_zh"), "en": _text(form, "name_en") or _text(form, "name_zh")}
    data["series"] = _text(form, "series", 60) or data.get("series")
    try:
        data["edition"] = int(_text(form, "edition", 6) or data.get("edition") or 1)
    except ValueError:
        raise SectionProblem("届次应为整数", "The edition is a whole number") from None
    venue = {"zh": _text(form, "venue_zh"), "en": _text(form, "venue_en") or _text(form, "venue_zh")}
    data["venue"] = venue if venue["zh"] else None
    dates = dict(data.get("dates") or {})
    dates["start"], dates["end"] = _date(form, "start", True), _date(form, "end", True)
    if dates["end"] < dates["start"]:
        raise SectionProblem("结束日期早于开始日期", "The last day is before the first")
    for key in ("report", "depart"):
        dates[key] = _date(form, key)
    data["dates"] = {k: v for k, v in dates.items() if v is not None}


def _stages(data: dict, form) -> None:
    stages = dict(data.get("stages") or {})
    for key in STAGE_FIELDS:
        try:
            stages[key] = deadline(_date(form, f"{key}_day"), _text(form, f"{key}_hour", 5))
        except ValueError:
            label = FIELDS[key]
            raise SectionProblem(f"{label[0]}的时间应为 0:00 至 24:00，如 17:00", f"{label[1]}: an hour from 0:00 to 24:00") \
                from None
    stages["changes_need_approval"] = form.get("changes_need_approval") == "on"
    stages["replacing_after_submission_needs_approval"] = form.get("replacing_after_submission_needs_approval") == "on"
    data["stages"] = {k: v for k, v in stages.items() if v is not None}


def _participation(data: dict, form, units: dict[str, str] | None = None) -> None:
    part = dict(data.get("participation") or {})
    part["unit_kinds"] = [k for k in form.getlist("unit_kinds") if k][:40]
    text = _text(form, "invited", 4000).replace("，", ",").replace("、", ",").replace("\n", ",")
    typed = [x.strip() for x in text.split(",") if x.strip()][:MAX_ROWS]
    if units is not None:
        unknown = [x for x in typed if x not in units]
        if unknown:
            raise SectionProblem(f"特邀单位中有单位名单里没有的：{'、'.join(unknown[:5])}（请先在“参赛单位”页面添加）",
                                 f"Invited units not on the list of units: {', '.join(unknown[:5])} (add them on the Units page first)")
        typed = list(dict.fromkeys(units[x] for x in typed))
    part["invited"] = typed
    part["open_units"] = form.get("open_units") == "on"
    part["individuals"] = form.get("individuals") == "on"
    data["participation"] = part
    capacity = _text(form, "capacity", 8)
    try:
        data["capacity"] = int(capacity) if capacity else None
    except ValueError:
        raise SectionProblem("名额上限应为整数（不限则留空）", "Places: a whole number, or empty for no limit") from None


def _events(data: dict, form) -> None:
    sports, events = [], []
    for i in range(MAX_ROWS):
        code = _text(form, f"sport_code_{i}", 30)
        if f"sport_code_{i}" not in form:
            break
        if code:
            sports.append({"code": code, "name": {"zh": _text(form, f"sport_zh_{i}", 50),
                                                  "en": _text(form, f"sport_en_{i}", 100) or _text(form, f"sport_zh_{i}", 50)}})
    old = {e["code"]: e for e in data.get("events") or []}
    for i in range(MAX_ROWS * 2):
        if f"event_code_{i}" not in form:
            break
        code = _text(form, f"event_code_{i}", 40)
        if not code:
            continue
        # A new Games' first events, typed with its sport in one go: the sport above.
        sport = _text(form, f"event_sport_{i}", 30) or (sports[0]["code"] if sports else "")
        event = {**old.get(code, {}), "code": code, "sport": sport,
                 "name": {"zh": _text(form, f"event_zh_{i}", 100), "en": _text(form, f"event_en_{i}", 200) or _text(form, f"event_zh_{i}", 100)},
                 "gender": _text(form, f"event_gender_{i}", 1), "kind": _text(form, f"event_kind_{i}", 20)}
        if f"event_sessions_{i}" in form:
            event["sessions"] = read_sessions(_text(form, f"event_sessions_{i}", 2000), event["name"]["zh"] or code)
        events.append(event)
    data["sports"], data["events"] = sports, events


def _advanced(data: dict, form) -> None:
    text = (form.get("advanced") or "")[:200_000]
    try:
        parsed = load_yaml(text) if text.strip() else {}
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        where = f"第 {mark.line + 1} 行" if mark else ""
        raise SectionProblem(f"其他设置的格式不对{('（' + where + '）') if where else ''}",
                             f"Other settings: not valid YAML{(' (line ' + str(mark.line + 1) + ')') if mark else ''}") from None
    if not isinstance(parsed, dict):
        raise SectionProblem("其他设置应为“键: 值”的形式", "Other settings: keys and values")
    unknown = [k for k in parsed if k not in ADVANCED_KEYS]
    if unknown:
        raise SectionProblem(f"其他设置里不能写“{unknown[0]}”，它在上面各部分中设置",
                             f"Other settings: {unknown[0]!r} is set in its own section above")
    for key in ADVANCED_KEYS:
        data.pop(key, None)
    data.update(parsed)


READERS = {"basics": _basics, "stages": _stages, "participation": _participation, "events": _events,
           "advanced": _advanced}
