"""A regulation's text cut into its clauses as Chinese regulations number them: 一、 (or
第一条) at the top, (一) or （一） below it, 1. 1、 1． below that, then (1) and ①. Each clause
gets the reference the rules use ("四", "四(二)", "四(四)2", "四(四)2(1)", "第五条"), so that
a rule's clause links to its place in the text.

Pure: text in, clauses out."""
from __future__ import annotations

import re
from dataclasses import dataclass

NUMERAL = "一二三四五六七八九十百零〇"
_TOP = re.compile(rf"^\s*([{NUMERAL}]+)\s*[、．.]\s*(.*)$")
_SUB = re.compile(rf"^\s*[（(]\s*([{NUMERAL}]+)\s*[)）]\s*(.*)$")
_ITEM = re.compile(r"^\s*(\d{1,2})\s*[.、．]\s*(.*)$")
_ARTICLE = re.compile(rf"^\s*第\s*([{NUMERAL}]+)\s*条\s*(.*)$")
_POINT = re.compile(r"^\s*[（(]\s*(\d{1,2})\s*[)）]\s*(.*)$")
CIRCLED = "①②③④⑤⑥⑦⑧⑨⑩⑪⑫⑬⑭⑮⑯⑰⑱⑲⑳"
_CIRCLE = re.compile(rf"^\s*([{CIRCLED}])\s*(.*)$")
_ARTICLE_REF = re.compile(rf"第\s*([{NUMERAL}]+)\s*条")
# A clause named in a rule: an optional part ("总则", "五子棋"), then 五, 五(二), 五(二)2.
_REF = re.compile(rf"([{NUMERAL}]+)(?:\s*[（(]\s*([{NUMERAL}]+)\s*[)）])?(\d{{1,2}})?")
MAX_TEXT = 500_000


@dataclass(frozen=True)
class Clause:
    ref: str | None  # "四(二)"; None for the text before the first clause (the title)
    level: int  # 0 title or loose text, 1 一、 or 第一条, 2 (一), 3 1., 4 (1), 5 ①
    text: str


def split(text: str) -> list[Clause]:
    """Every paragraph of the regulation, each with the clause it opens (or None)."""
    out: list[Clause] = []
    top = sub = item = point = None
    for raw in (text or "")[:MAX_TEXT].splitlines():
        line = raw.strip()
        if not line:
            continue
        if m := _ARTICLE.match(line):
            top, sub, item, point = f"第{m.group(1)}条", None, None, None
            out.append(Clause(top, 1, line))
        elif m := _TOP.match(line):
            top, sub, item, point = m.group(1), None, None, None
            out.append(Clause(top, 1, line))
        elif (m := _SUB.match(line)) and top:
            sub, item, point = m.group(1), None, None
            out.append(Clause(f"{top}({sub})", 2, line))
        elif (m := _ITEM.match(line)) and top:
            item, point = (f"{top}({sub}){m.group(1)}" if sub else f"{top}{m.group(1)}"), None
            out.append(Clause(item, 3, line))
        elif (m := _POINT.match(line)) and top:
            point = f"{item or (f'{top}({sub})' if sub else top)}({m.group(1)})"
            out.append(Clause(point, 4, line))
        elif (m := _CIRCLE.match(line)) and top:
            parent = point or item or (f"{top}({sub})" if sub else top)
            out.append(Clause(f"{parent}{m.group(1)}", 5, line))
        else:
            out.append(Clause(None, 0, line))
    return out


def refs_in(clause: str | None) -> list[str]:
    """The clause references a rule's clause names, most precise first ("五(一)、五(三)" ->
    ["五(一)", "五(三)"])."""
    found, text = [], clause or ""
    for m in _ARTICLE_REF.finditer(text):
        found.append(f"第{m.group(1)}条")
    text = _ARTICLE_REF.sub(" ", text)
    for m in _REF.finditer(text):
        top, sub, item = m.groups()
        after = text[m.end():m.end() + 1]
        if not sub and not item and after and after not in " 、，,；;。":
            continue  # a numeral inside a word ("五子棋"), not a clause
        ref = top + (f"({sub})" if sub else "") + (item or "")
        if ref not in found:
            found.append(ref)
    return found


def anchor(ref: str) -> str:
    """The HTML id of a clause (ids may hold any character but a space)."""
    return "clause-" + ref.replace(" ", "")
