"""The rows of the people page, built in Python.

The page a save leads to shows a hundred people; written as a template, each row's thirty
small expressions (escaping, attribute lookups, filters) cost about 80 µs, most of the
page's time on deadline night. The same markup built here costs a third of that. The
texts a row holds are the template's, passed in (people.html), so that the page's words
stay in its template and its catalogue."""
from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from jinja2.utils import url_quote
from markupsafe import Markup

from ..html_text import esc
from ..privacy import birth_date_shown, mask_id, violation_message


@dataclass
class RowTexts:
    """What every row of one page shares: its links (with __REF__ for the person), its words,
    and what the reader may see and do."""
    person_url: str
    delete_url: str
    file_url: str
    genders: dict
    confirm_text: str  # with __NAME__ for the person's name
    delete_title: str
    csrf_field: str
    version: int
    editable: bool
    full_ids: bool
    en: bool
    labels: dict


def people_rows(ws, shown: list[dict], offset: int, files: dict, roles_of: Callable[[str], list[str]],
                may_open_file: Callable[[str], bool], texts: RowTexts) -> Markup:
    out: list[str] = []
    add = out.append
    for i, p in enumerate(shown, 1):
        ref = p["ref"]
        quoted = url_quote(ref)
        vs = ws.by_person(ref)
        name = esc(p.get("name"))
        bad = "bad" if any(v.severity == "error" for v in vs) else ""
        add(f'  <tr id="person-{esc(ref)}" class="{bad}">\n'
            f'    <td class="num">{i + offset}</td>\n'
            f'    <td><a href="{esc(texts.person_url.replace("__REF__", quoted))}">{name}</a></td>\n'
            f'    <td>{esc(texts.genders.get(p.get("gender"), ""))}</td>\n'
            f'    <td class="nowrap">{esc(birth_date_shown(p.get("birth_date"), texts.full_ids))}</td>\n'
            f'    <td class="mono">{esc(mask_id(p.get("id_number")))}</td>\n'
            f'    <td>{esc("、".join(roles_of(ref)))}</td>\n    <td>')
        for f in files.get(ref, []):
            if not may_open_file(f.kind):
                add('<span class="badge">✓</span>')
            elif f.content_type.startswith("image/"):
                add(f'<img class="thumb" src="{esc(texts.file_url)}{f.id}" alt="{esc(f.kind)}">')
            else:
                add(f'<a href="{esc(texts.file_url)}{f.id}">PDF</a>')
            add(" ")
        add(f'        <span class="muted">{len(p.get("documents") or [])}</span></td>\n    <td>')
        for v in vs:
            zh, en = texts.labels.get(v.code, (v.code, v.code))
            add(f'<span class="badge {"err" if v.severity == "error" else "warn"}" '
                f'title="{esc(violation_message(v, texts.en, texts.full_ids))}（{esc(v.code)}）">'
                f'{esc(en if texts.en else zh)}</span> ')
        add("</td>\n    <td>")
        if texts.editable:
            add(f'<form class="inline" method="post" action="{esc(texts.delete_url.replace("__REF__", quoted))}" '
                f'data-confirm="{esc(texts.confirm_text.replace("__NAME__", str(p.get("name"))))}">{texts.csrf_field}'
                f'<input type="hidden" name="version" value="{texts.version}">'
                f'<input type="hidden" name="base" value="{esc(ws.fingerprint("person", ref))}">'
                f'<button class="danger" type="submit" title="{esc(texts.delete_title)}">×</button></form>')
        add("</td>\n  </tr>\n")
    return Markup("".join(out))
