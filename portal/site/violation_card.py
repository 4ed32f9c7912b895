"""One violation as the pages show it (the `violation` macro of _macros.html), built in
Python: the problems beside every workspace page list dozens, and the template's version
cost about 75 µs each. What a person reads first: the message; the people by name; the
rule code small, last."""
from __future__ import annotations

from collections.abc import Callable

from jinja2.utils import url_quote
from markupsafe import Markup

from ..html_text import esc
from ..rules import clauses
from ..translation import gettext as _

PEOPLE_NAMED = 6  # the rest counted


def violation_card(v, links: dict[str, str], message: str, people: dict | None,
                   event_label: Callable[[str], str] | None) -> Markup:
    """`links`: the delegation's regulation, entries and person (with __REF__) pages;
    `message`: the violation's text for this reader; `people`: ref -> person of the page's
    document, to name them (else their refs); `event_label`: an event's name."""
    out = [f'<div class="v {esc(v.severity)}">\n  <div>{esc(message)}']
    clause = (v.extra or {}).get("clause")
    if clause:
        refs = clauses.refs_in(clause)
        anchor = f"#{esc(clauses.anchor(refs[0]))}" if refs else ""
        out.append(f' <a class="badge clause" href="{esc(links["regulation"])}{anchor}" title="{esc(_("看规程原文"))}">'
                   f'{esc(_("规程"))} {esc(clause)}</a>')
    out.append('</div>\n  <div class="links">\n')
    for ref in v.people[:PEOPLE_NAMED]:
        p = people.get(ref) if people is not None else None
        out.append(f'<a href="{esc(links["person"].replace("__REF__", url_quote(ref)))}">'
                   f'{esc(p.get("name") if p else ref)}</a>')
    if len(v.people) > PEOPLE_NAMED:
        out.append(f'<span class="muted">{esc(_("等 %(n)d 人", n=len(v.people)))}</span>')
    if v.event:
        out.append(f'<a href="{esc(links["entries"])}#event-{esc(v.event.replace(".", "-"))}">{esc(_("去改正"))} →</a>')
    out.append(f'  </div>\n  <div class="code">{esc(v.code)}')
    if v.event:
        out.append(f" · {esc(event_label(v.event) if event_label is not None else v.event)}")
    if v.team:
        out.append(f" · {esc(v.team)}")
    out.append("</div>\n</div>\n")
    return Markup("".join(out))
