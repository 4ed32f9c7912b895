"""An uploaded entry form (Excel) or delegation document (JSON), read and checked before
anything is saved, and kept privately until the leader confirms the changes it shows."""
from __future__ import annotations

import json
import re
import secrets

from .. import file_store
from ..db_tx import write_transaction
from ..rules import parse_document
from ..rules.jsontext import JsonTextError, load_json
from ..text import Text
from .excel import ExcelError, read_workbook


def where_in_words(where: Text | str, en: bool) -> str:
    """A workbook's cell with its row in words ("人员!D2（第 2 行）", "人员!D2 (row 2)")."""
    if isinstance(where, Text):
        return where.read(en)
    cell = re.match(r"^(.+![A-Z]+)(\d+)$", where)
    if cell is None:
        return where
    return f"{where} (row {cell.group(2)})" if en else f"{where}（第 {cell.group(2)} 行）"


def read_upload(raw: bytes, filename: str, definition, stored: dict, games_slug: str, unit_code: str | None,
                en: bool) -> tuple[dict | None, list[tuple[str, str]]]:
    """The document the file holds, or the problems that stop it, each as (where, what) in
    the reader's language: the sheet and cell, the JSON line, or the file."""
    problems: list[tuple[str, str]] = []
    new_doc = None
    if filename.lower().endswith(".json") or raw[:1] in (b"{", b"["):
        try:
            new_doc = load_json(raw)
        except JsonTextError as exc:
            problems.append((filename, exc.en if en else exc.zh))
    else:
        try:
            new_doc = read_workbook(raw, definition, stored)
        except ExcelError as exc:
            problems = [(where_in_words(w, en), m.read(en) if isinstance(m, Text) else str(m)) for w, m in exc.problems]
    if not problems and not isinstance(new_doc, dict):
        problems = [(filename, "The file must hold a delegation document (a JSON object), nothing else." if en
                     else "文件内容应是一份报名文档（JSON 对象），而不是其他内容。")]
    if not problems:
        parsed, schema = parse_document(new_doc)
        if schema:
            problems = [(v.path or filename, v.en if en else v.zh) for v in schema]
        elif parsed.games != games_slug or (unit_code and parsed.unit != unit_code):
            problems = [(filename, "The file is for other Games or another unit." if en
                         else "文件属于其他比赛或其他单位。")]
    return (None if problems else new_doc), problems


def keep_pending(delegation_id: int, document: dict, filename: str) -> str:
    """Keep an upload until it is confirmed, where every node finds it (the database;
    retention deletes it after a day); its token."""
    token = secrets.token_urlsafe(16)
    with write_transaction():
        file_store.put(f"pending/{token}", json.dumps({"delegation_id": delegation_id, "document": document,
                                                       "filename": filename}, ensure_ascii=False).encode("utf-8"),
                       "application/json")
    return token


def pending(token: str) -> dict | None:
    """The kept upload of that token ({"delegation_id", "document", "filename"}), or None."""
    if not token or len(token) > 64 or not token.replace("-", "").replace("_", "").isalnum():
        return None
    data = file_store.read(f"pending/{token}")
    return json.loads(data) if data is not None else None


def forget_pending(token: str) -> None:
    with write_transaction():
        file_store.delete(f"pending/{token}")
