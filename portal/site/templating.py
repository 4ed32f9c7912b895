"""What every template may use: filters (masked IDs, China time, deadlines, exact
numbers, a service's Text in the reader's language) and helpers (the reader's
language, a violation's message, unit names from one query per request)."""
from __future__ import annotations

import os

from flask import Flask, g, url_for
from flask_babel import get_locale
from jinja2 import FileSystemBytecodeCache

from ..audit.sentences import actor_name
from ..delegations.names import VIOLATION_LABELS
from ..games.services import unit_name_pairs
from ..privacy import birth_date_shown, mask_id, may_open_file, sees_full_ids, violation_message
from ..rules import clauses
from ..rules.engine import format_deadline
from ..rules.standings import shown as exact_shown
from ..rules.violations import grouped
from ..web import china_time, in_language, is_en
from .field_html import label_html, widget_html
from .problem_list import problem_groups
from .violation_card import violation_card


def init(app: Flask) -> None:
    # Templates loop over hundreds of rows: no indentation and blank lines shipped per row.
    app.jinja_env.trim_blocks = True
    app.jinja_env.lstrip_blocks = True
    # Compiled templates kept on this node's disk (keyed by each template's source): a fresh
    # worker, at boot or after a recycle, loads them instead of compiling them again.
    compiled = os.path.join(app.instance_path, "templates-compiled")
    os.makedirs(compiled, mode=0o700, exist_ok=True)
    app.jinja_env.bytecode_cache = FileSystemBytecodeCache(compiled)
    app.jinja_env.filters["mask_id"] = mask_id
    # The year only beside a masked number (a page of rows passes full_ids, read once for the page).
    app.jinja_env.filters["birth_shown"] = birth_date_shown
    app.jinja_env.globals["may_open_file"] = may_open_file
    app.jinja_env.globals["label_html"] = label_html  # the field macro's label and widget
    app.jinja_env.globals["widget_html"] = widget_html
    app.jinja_env.filters["china_time"] = china_time
    app.jinja_env.filters["deadline"] = lambda v: format_deadline(v) if v else ""
    app.jinja_env.filters["exact"] = exact_shown  # an exact Fraction printed: 26, 6.5, 8.33
    app.jinja_env.filters["in_language"] = in_language
    # Who did it: a person's name as it is; the portal's own actors in the reader's language.
    app.jinja_env.filters["actor"] = lambda v: actor_name(in_language(v), is_en())
    # A rule's clause linked to its place in the regulation's text (rules/clauses.py).
    app.jinja_env.globals.update(clause_refs=clauses.refs_in, clause_anchor=clauses.anchor,
                                 violation_groups=grouped,
                                 violation_label=lambda code: VIOLATION_LABELS.get(code, (code, code)))

    @app.context_processor
    def helpers():
        lang = str(get_locale())

        def unit_name(d, field):
            # All units' names in one query per request (code and names, no rows to build),
            # whatever the number of rows that ask.
            if "unit_names" not in g:
                g.unit_names = unit_name_pairs()
            pair = g.unit_names.get(d.unit_code) if d.unit_code else None
            return pair[field == "name_en"] if pair else (d.unit_name or d.unit_code or "")

        full_ids = sees_full_ids()

        def msg(v):
            return violation_message(v, lang == "en", full_ids)
        def delegation_links(did: int) -> dict[str, str]:
            # Built once per page: the problems list links every one of its violations.
            links = g.setdefault("delegation_links", {})
            if did not in links:
                links[did] = {"regulation": url_for("delegations.regulation", delegation_id=did),
                              "entries": url_for("delegations.entries", delegation_id=did),
                              "person": url_for("delegations.person", delegation_id=did, ref="__REF__")}
            return links[did]
        def violation(v, d, ws=None):
            people = getattr(ws, "people", None)
            return violation_card(v, delegation_links(d.id), msg(v), people if isinstance(people, dict) else None,
                                  getattr(ws, "event_label", None))
        def groups(violations, d, ws=None, shown=3, most=30):
            links, people = delegation_links(d.id), getattr(ws, "people", None)
            people, event_label = people if isinstance(people, dict) else None, getattr(ws, "event_label", None)
            return problem_groups(
                violations, lambda v: violation_card(v, links, msg(v), people, event_label),
                lambda code: VIOLATION_LABELS.get(code, (code, code))[lang == "en"],
                url_for("delegations.people", delegation_id=d.id, problems=1), shown, most)
        return {"lang": lang, "msg": msg, "full_ids": full_ids, "delegation_links": delegation_links,
                "violation_card": violation, "problem_groups_html": groups,
                "t": lambda zh, en: en if lang == "en" else zh,
                "colon": ": " if lang == "en" else "：",  # after a label: one reader, one language
                "unit_name_zh": lambda d: unit_name(d, "name_zh"), "unit_name_en": lambda d: unit_name(d, "name_en"),
                "unit_label": lambda d: unit_name(d, "name_en" if lang == "en" else "name_zh")}
