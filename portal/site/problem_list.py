"""The problems beside a delegation's pages (the `problem_groups` macro of _macros.html),
built in Python: every workspace page shows them, and the template's loop, a macro call
per card, cost twice what the cards do. Grouped by rule with their count: the first few
shown, more on demand, the rest counted (a delegation of 2,000 with 500 warnings stays a
page a phone can load)."""
from __future__ import annotations

from collections.abc import Callable

from markupsafe import Markup

from ..html_text import esc
from ..rules.violations import grouped
from ..translation import gettext as _


def problem_groups(violations: list, card: Callable[[object], Markup], label: Callable[[str], str],
                   only_problems_url: str, shown: int = 3, most: int = 30) -> Markup:
    """`card`: one violation as the pages show it; `label`: a rule's name for this reader;
    `only_problems_url`: the people page showing only those with problems."""
    out: list[str] = []
    add = out.append
    for code, severity, items in grouped(violations):
        add(f'<div class="group {esc(severity)}">\n')
        if len(items) > 1:
            add(f'  <h3 class="group-head">{esc(label(code))} '
                f'<span class="badge {"err" if severity == "error" else "warn"}">{len(items)}</span></h3>\n')
        for v in items[:shown]:
            add(card(v))
        if len(items) > shown:
            add(f'<details><summary>{esc(_("再看 %(n)d 条", n=min(len(items) - shown, most - shown)))}</summary>\n')
            for v in items[shown:most]:
                add(card(v))
            add("</details>\n")
            if len(items) > most:
                add(f'<p class="muted">{esc(_("另有 %(n)d 条同类问题：", n=len(items) - most))}'
                    f'<a href="{esc(only_problems_url)}">{esc(_("在人员名单中只看有问题的"))}</a></p>')
        add("</div>\n")
    return Markup("".join(out))
