"""The options of a select, as WTForms takes them (SelectChoice: tuples are deprecated)."""
from __future__ import annotations

from collections.abc import Iterable

from wtforms.fields.choices import SelectChoice


def options(pairs: Iterable) -> list[SelectChoice]:
    """(value, label) pairs, or SelectChoices already, as SelectChoices."""
    return [p if isinstance(p, SelectChoice) else SelectChoice(p[0], p[1]) for p in pairs]
