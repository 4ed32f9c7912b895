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


def report(result: StatementImport, filename: str) -> str:
    lines = [f"银行流水 {filename} 导入报告 / import report",
             f"已导入 imported: {result.imported}", f"重复跳过 already imported: {result.duplicates}",
             f"按参考码匹配 by reference: {result.reference}",
             f"按户名和金额匹配 by payer and amount: {result.name_amount}",
             f"未匹配 unmatched: {result.unmatched}",
             f"疑似重复 possible duplicates: {result.possible_duplicates}"]
    if result.read_as:
        lines.insert(1, f"识别为 {result.read_as[0]} / read as {result.read_as[1]}")
    if not result.ok:
        lines.insert(1, "文件没有导入 / nothing was imported")
    for zh, en in result.problems:
        lines.append(f"{zh} / {en}")
    return "\n".join(lines) + "\n"


@job_kind("bank_import")
def bank_import(job, progress):
    params = job.params
    key = f"jobs/{os.path.basename(params['upload'])}"
    games = games_of(job)
    user = db.session.get(User, job.user_id) if job.user_id else None
    actor = Actor(f"{user.display_name} ({user.username})" if user else "后台任务 (job)", user_id=job.user_id,
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
    return report(result, params["name"]).encode("utf-8-sig"), f"{os.path.splitext(params['name'])[0]}-report.txt", \
        "text/plain; charset=utf-8"
