"""Request-level helpers every area's views share: the reader's language, messages of a
service's outcome in it, China time, safe redirects. Below the areas: imports none."""
from __future__ import annotations

import datetime as dt
from urllib.parse import urlsplit

from flask import session
from flask_babel import get_locale

from .rules.engine import CHINA
from .text import Text

LANGS = ("zh", "en")


def select_locale() -> str:
    lang = session.get("lang")
    return lang if lang in LANGS else "zh"


def is_en() -> bool:
    return str(get_locale()) == "en"


def safe_next(target: str | None, default: str = "/") -> str:
    """A `next` (or referrer path) only when it stays on this site: a path beginning with one
    "/", with no scheme, host, backslash or control character (browsers drop tabs and
    newlines, so "/\t/evil.example" would become "//evil.example")."""
    if not target or not target.startswith("/") or target.startswith("//"):
        return default
    if "\\" in target or any(ord(c) < 32 or ord(c) == 127 for c in target):
        return default
    parts = urlsplit(target)
    if parts.scheme or parts.netloc:
        return default
    return target


def china_time(value: dt.datetime | None, fmt: str = "%Y-%m-%d %H:%M") -> str:
    if value is None:
        return ""
    if value.tzinfo is None:
        value = value.replace(tzinfo=dt.UTC)
    return value.astimezone(CHINA).strftime(fmt)


def time_left(closes: dt.datetime | None, now: dt.datetime) -> str:
    if closes is None:
        return ""
    seconds = int((closes - now).total_seconds())
    zh = str(get_locale()) != "en"
    if seconds <= 0:
        return "已截止" if zh else "closed"
    days, rest = divmod(seconds, 86400)
    hours, rest = divmod(rest, 3600)
    minutes = rest // 60
    if days:
        return f"{days} 天 {hours} 小时" if zh else f"{days} d {hours} h"
    return f"{hours} 小时 {minutes} 分" if zh else f"{hours} h {minutes} min"


def in_language(text) -> str:
    """A service's Text in the reader's language; any other text (a name, a reason someone
    typed) as it is, never split."""
    if isinstance(text, Text):
        return text.read(str(get_locale()) == "en")
    return str(text or "")


def outcome_text(out, errors_only: bool = False) -> str:
    """A service Outcome's message, or its violations, in the user's language."""
    en = is_en()
    if out.message:
        return out.message[1] if en else out.message[0]
    return "；".join(v.en if en else v.zh for v in out.violations if v.is_error or not errors_only)
