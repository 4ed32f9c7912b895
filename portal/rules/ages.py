"""A person's age on a day, as regulations count it: whole years, the birthday itself counting."""
from __future__ import annotations

import datetime as dt


def age_on(born: dt.date, on: dt.date) -> int:
    return on.year - born.year - ((on.month, on.day) < (born.month, born.day))
