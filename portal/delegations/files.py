"""Uploaded documents (ID copies, photos, certificates): checked by content and size,
stored under the instance folder, recorded in the database."""
from __future__ import annotations

import datetime as dt
import hashlib
import os

from sqlalchemy import ForeignKey, String
from sqlalchemy.orm import Mapped, mapped_column

from ..db_types import UTCDateTime
from ..extensions import db
from ..games.models import utcnow

MAX_BYTES = 5 * 1024 * 1024
SIGNATURES = {b"%PDF-": ("application/pdf", "pdf"), b"\xff\xd8\xff": ("image/jpeg", "jpg"),
              b"\x89PNG\r\n\x1a\n": ("image/png", "png")}


class UploadedFile(db.Model):
    __tablename__ = "uploaded_file"
    id: Mapped[int] = mapped_column(primary_key=True)
    delegation_id: Mapped[int] = mapped_column(ForeignKey("delegation.id", ondelete="CASCADE"), index=True)
    person_ref: Mapped[str] = mapped_column(String(40))
    kind: Mapped[str] = mapped_column(String(40))
    filename: Mapped[str] = mapped_column(String(200))
    content_type: Mapped[str] = mapped_column(String(40))
    size: Mapped[int]
    sha256: Mapped[str] = mapped_column(String(64))
    uploaded_by: Mapped[str] = mapped_column(String(100))
    uploaded_at: Mapped[dt.datetime] = mapped_column(UTCDateTime, default=utcnow)


def sniff(data: bytes) -> tuple[str, str] | None:
    for magic, kind in SIGNATURES.items():
        if data.startswith(magic):
            return kind
    return None


def check_upload(data: bytes) -> tuple[str, str] | tuple[None, tuple[str, str]]:
    """(content_type, extension) or (None, (zh, en) problem)."""
    if not data:
        return None, ("文件是空的", "the file is empty")
    if len(data) > MAX_BYTES:
        return None, (f"文件超过 {MAX_BYTES // 1024 // 1024} MB", f"the file is over {MAX_BYTES // 1024 // 1024} MB")
    kind = sniff(data)
    if kind is None:
        return None, ("只接受 PDF、JPG 或 PNG 文件（按文件内容判断，不看扩展名）",
                      "only PDF, JPG or PNG files are accepted (judged by content, not by name)")
    return kind


def store(folder: str, delegation_id: int, data: bytes, ext: str) -> str:
    digest = hashlib.sha256(data).hexdigest()
    path = os.path.join(folder, str(delegation_id))
    os.makedirs(path, mode=0o700, exist_ok=True)
    for made in (folder, path):  # also folders made before this rule
        os.chmod(made, 0o700)
    target = os.path.join(path, f"{digest}.{ext}")
    if not os.path.exists(target):
        write_private(target, data)
    return digest


def write_private(path: str, data: bytes) -> None:
    """Create a file readable and writable by the owner only (ID copies, pending uploads)."""
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    with os.fdopen(fd, "wb") as f:
        f.write(data)
