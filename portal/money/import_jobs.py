"""A big bank statement (tens of thousands of lines) is read, matched and booked in the
background (issue 12): the upload is kept privately until its job has run, the job's page
follows it, and its report lists what was booked and what could not be read."""
from __future__ import annotations

import os
import secrets

from .. import file_store
from ..accounts.models import User
from ..audit.services import Actor
from ..db_tx import write_transaction
from ..extensions import db
from ..jobs.services import games_of, job_kind
from .services import StatementImport, import_statement

# Above this size an upload becomes a background job (about 5,000 lines of a CSV export).
BACKGROUND_BYTES = 300_000


def keep_upload(data: bytes) -> str:
    """Store an uploaded statement for its job, where the worker's machine finds it (the
    shared file store); the name to find it by."""
    name = f"upload-{secrets.token_hex(12)}"
    with write_transaction():
        file_store.put(f"jobs/{name}", data)
    return name


def report(result: StatementImport, filename: str, en: bool = False) -> str:
    """The import's report file, in the language of the accountant who started it."""
    counts = [(result.imported, "已导入", "imported"), (result.duplicates, "重复跳过", "already imported"),
              (result.reference, "按参考码匹配", "matched by reference"),
              (result.name_amount, "按户名和金额匹配", "matched by payer and amount"),
              (result.unmatched, "未匹配", "unmatched"), (result.possible_duplicates, "疑似重复", "possible duplicates")]
    lines = [f"Bank statement {filename}: import report" if en else f"银行流水 {filename} 导入报告"]
    if not result.ok:
        lines.append("Nothing was imported" if en else "文件没有导入")
    if result.read_as:
        lines.append(f"Read as {result.read_as[1]}" if en else f"识别为 {result.read_as[0]}")
    lines += [f"{label_en}: {n}" if en else f"{label_zh}：{n}" for n, label_zh, label_en in counts]
    lines += [en_text if en else zh for zh, en_text in result.problems]
    return "\n".join(lines) + "\n"


@job_kind("bank_import", restartable=False)  # it books: a lost one is failed, and imported again by hand
def bank_import(job, progress):
    params = job.params
    key = f"jobs/{os.path.basename(params['upload'])}"
    games = games_of(job)
    user = db.session.get(User, job.user_id) if job.user_id else None
    actor = Actor(f"{user.display_name} ({user.username})" if user else "后台任务", user_id=job.user_id,
                  role=user.role if user else None)
    progress(0, 2, force=True)
    try:
        data = file_store.read(key) or b""
        result = import_statement(games, data, params["name"], actor, all_or_nothing=params.get("all_or_nothing", True))
    finally:
        db.session.rollback()
        with write_transaction():
            file_store.delete(key)
    progress(2, 2, force=True)
    return report(result, params["name"], bool(params.get("en"))).encode("utf-8-sig"), f"{os.path.splitext(params['name'])[0]}-report.txt", \
        "text/plain; charset=utf-8"
