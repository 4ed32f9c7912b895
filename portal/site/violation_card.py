"""One violation as the pages show it (the `violation` macro of _macros.html), built in
Python: the problems beside every workspace page list dozens, and the template's version
cost about 75 µs each. What a person reads first: the message; the people by name; the
rule code small, last."""
from __future__ import annotations

from collections.abc import Callable

from jinja2.utils import url_quote
from markupsafe import Markup, escape

from ..rules import clauses
from ..translation import gettext as _

PEOPLE_NAMED = 6  # the rest counted


def violation_card(v, links: dict[str, str], message: str, people: dict | None,
                   event_label: Callable[[str], str] | None) -> Markup:
    """`links`: the delegation's regulation, entries and person (with __REF__) pages;
    `message`: the violation's text for this reader; `people`: ref -> person of the page's
    document, to name them (else their refs); `event_label`: an event's name."""
    out = [f'<div class="v {escape(v.severity)}">\n  <div>{escape(message)}']
    clause = (v.extra or {}).get("clause")
    if clause:
        refs = clauses.refs_in(clause)
        anchor = f"#{escape(clauses.anchor(refs[0]))}" if refs else ""
        out.append(f' <a class="badge clause" href="{escape(links["regulation"])}{anchor}" title="{escape(_("看规程原文"))}">'
                   f'{escape(_("规程"))} {escape(clause)}</a>')
    out.append('</div>\n  <div class="links">\n')
    for ref in v.people[:PEOPLE_NAMED]:
        p = people.get(ref) if people is not None else None
        out.append(f'<a href="{escape(links["person"].replace("__REF__", url_quote(ref)))}">'
                   f'{escape(p.get("name") if p else ref)}</a>')
    if len(v.people) > PEOPLE_NAMED:
        out.append(f'<span class="muted">{escape(_("等 %(n)d 人", n=len(v.people)))}</span>')
    if v.event:
        out.append(f'<a href="{escape(links["entries"])}#event-{escape(v.event.replace(".", "-"))}">{escape(_("去改正"))} →</a>')
    out.append(f'  </div>\n  <div class="code">{escape(v.code)}')
    if v.event:
        out.append(f" · {escape(event_label(v.event) if event_label is not None else v.event)}")
    if v.team:
        out.append(f" · {escape(v.team)}")
    out.append("</div>\n</div>\n")
    return Markup("".join(out))
