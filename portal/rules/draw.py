"""The draw of player numbers (序号) for an event, by computer (shaanxi-mind-2025 七:
"电脑抽签确定棋手序号"): a shuffle from a recorded seed, so that anyone holding the seed
and the list of entrants can draw the same numbers again. Pure.

None of the regulations in the repository seeds players or keeps players of one unit apart
in this draw, so it does neither; the draw page says so."""
from __future__ import annotations

import random


def draw_numbers(entrants: list[str], seed: str) -> list[tuple[int, str]]:
    """Numbers 1..n for the entrants' keys. The keys are sorted first, so the result depends
    only on who entered and the seed, not on the order they were listed in."""
    keys = sorted(set(entrants))
    random.Random(f"draw/1:{seed}").shuffle(keys)
    return [(i + 1, key) for i, key in enumerate(keys)]
