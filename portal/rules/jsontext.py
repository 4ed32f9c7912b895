"""Decoding a delegation document's JSON text safely: UTF-8 (a BOM allowed), bounded
nesting (a document is a few levels deep; thousands of brackets must not exhaust the
stack), every failure a message in both languages, never an exception escaping."""
from __future__ import annotations

import json
from typing import Any

from ..text import InputProblems, Text

MAX_DEPTH = 32


class JsonTextError(InputProblems):
    def __init__(self, zh: str, en: str):
        super().__init__([("", Text(zh, en))], en)
        self.zh, self.en = zh, en


def _depth_ok(value: Any) -> bool:
    stack = [(value, 1)]
    while stack:
        item, depth = stack.pop()
        if depth > MAX_DEPTH:
            return False
        if isinstance(item, dict):
            stack.extend((v, depth + 1) for v in item.values())
        elif isinstance(item, list):
            stack.extend((v, depth + 1) for v in item)
    return True


def load_json(raw: bytes | str) -> Any:
    try:
        text = raw.decode("utf-8-sig") if isinstance(raw, bytes) else raw
    except UnicodeDecodeError:
        raise JsonTextError("不是 UTF-8 编码的文本", "not UTF-8 text") from None
    try:
        value = json.loads(text)
    except json.JSONDecodeError as exc:
        raise JsonTextError(f"不是有效的 JSON（第 {exc.lineno} 行第 {exc.colno} 列：{exc.msg}）",
                            f"not valid JSON (line {exc.lineno}, column {exc.colno}: {exc.msg})") from None
    except RecursionError:
        raise JsonTextError(f"JSON 嵌套层数过多（最多 {MAX_DEPTH} 层）",
                            f"the JSON is nested too deeply (at most {MAX_DEPTH} levels)") from None
    if not _depth_ok(value):
        raise JsonTextError(f"JSON 嵌套层数过多（最多 {MAX_DEPTH} 层）",
                            f"the JSON is nested too deeply (at most {MAX_DEPTH} levels)")
    return value
