"""Resident identity numbers (GB 11643-1999, 公民身份号码).

The check digit is ISO 7064 MOD 11-2 (python-stdnum). We check length, digits, check digit
and a real birth date, and derive birth date and gender. The six-digit area code is only
information: python-stdnum's `cn.ric.validate` rejects numbers whose area code came into
use after the holder was born (its issue 442), and such numbers are real.
"""
from __future__ import annotations

import datetime as dt
import re
from dataclasses import dataclass
from functools import lru_cache

from stdnum.iso7064 import mod_11_2

_SHAPE = re.compile(r"^\d{17}[\dX]$")


@dataclass(frozen=True)
class ResidentId:
    number: str
    birth_date: dt.date
    gender: str  # "M" or "F"
    area: str


_NOISE = re.compile(r"[\s-]")


@lru_cache(maxsize=1 << 16)  # a save normalises each of its numbers five times (parse, rows, checks)
def normalise(number: str) -> str:
    return _NOISE.sub("", number or "").upper()


def parse(number: str, today: dt.date | None = None) -> tuple[ResidentId | None, str | None]:
    """Returns (parsed, None) or (None, reason) where reason is 'length', 'characters',
    'check_digit' or 'birth_date'."""
    return _parse(normalise(number), today)


@lru_cache(maxsize=1 << 16)  # a page judges the same thousands of numbers again and again
def _parse(n: str, today: dt.date | None) -> tuple[ResidentId | None, str | None]:
    if len(n) != 18:
        return None, "length"
    if not _SHAPE.match(n):
        return None, "characters"
    if mod_11_2.calc_check_digit(n[:17]) != n[17]:
        return None, "check_digit"
    try:
        born = dt.date(int(n[6:10]), int(n[10:12]), int(n[12:14]))
    except ValueError:
        return None, "birth_date"
    if born.year < 1900 or (today is not None and born > today):
        return None, "birth_date"
    return ResidentId(n, born, "M" if int(n[16]) % 2 else "F", n[:6]), None


def make(area: str, born: dt.date, sequence: int) -> str:
    """Build a valid number (for tests, demos and benchmarks)."""
    body = f"{area}{born:%Y%m%d}{sequence:03d}"
    return body + mod_11_2.calc_check_digit(body)


REASONS = {
    "length": ("应为 18 位", "must have 18 characters"),
    "characters": ("前 17 位应为数字，末位为数字或 X", "must be 17 digits then a digit or X"),
    "check_digit": ("校验位不对，请核对号码是否抄错", "has a wrong check digit; check for a typo"),
    "birth_date": ("其中的出生日期不存在", "contains a birth date that does not exist"),
}
