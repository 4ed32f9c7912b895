"""Uploaded documents (ID copies, photos, certificates): checked by content and size, kept
in the file store every node shares (file_store.py, key documents/<delegation>/<sha256>.<ext>,
committed or rolled back with the row that names them), recorded in the database."""
from __future__ import annotations

import datetime as dt
import hashlib
import warnings

from sqlalchemy import ForeignKey, String
from sqlalchemy.orm import Mapped, mapped_column

from .. import file_store
from ..db_types import UTCDateTime
from ..extensions import db
from ..games.models import utcnow

MAX_BYTES = 5 * 1024 * 1024
# An image is decoded whole to print it: a few KB of PNG can claim 30000 x 30000 pixels
# (a decompression bomb). A 50-megapixel phone photo is the most a card or a check needs.
MAX_PIXELS = 50_000_000
MAX_SIDE = 12_000
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
    if kind[0].startswith("image/"):
        import io
        problem = image_problem(io.BytesIO(data))
        if problem is not None:
            return None, problem
    return kind


def image_problem(source) -> tuple[str, str] | None:
    """Why an image (a path or a binary file) cannot be decoded safely, or None. Reads the
    header for the claimed size before anything is decoded, then checks the data."""
    from PIL import Image, UnidentifiedImageError
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("error", Image.DecompressionBombWarning)
            with Image.open(source) as im:
                w, h = im.size
                if w * h > MAX_PIXELS or max(w, h) > MAX_SIDE:
                    return _too_large(w, h)
                im.verify()
    except (Image.DecompressionBombError, Image.DecompressionBombWarning):
        return ("图片的像素尺寸过大，无法处理（最多 5000 万像素）", "the image has too many pixels (at most 50 megapixels)")
    except (OSError, SyntaxError, ValueError, UnidentifiedImageError):
        return ("图片文件损坏或无法读取", "the image is damaged or cannot be read")
    return None


def _too_large(w: int, h: int) -> tuple[str, str]:
    return (f"图片的像素尺寸过大（{w}×{h}），无法处理；请上传不超过 5000 万像素、每边不超过 {MAX_SIDE} 像素的照片",
            f"the image is too large ({w}×{h} px); upload at most 50 megapixels and {MAX_SIDE} px a side")


EXTENSIONS = dict(SIGNATURES.values())
CONTENT_TYPES = {ext: content_type for content_type, ext in EXTENSIONS.items()}


def document_key(delegation_id: int, sha256: str, ext: str) -> str:
    return f"documents/{delegation_id}/{sha256}.{ext}"


def store(delegation_id: int, data: bytes, ext: str) -> str:
    """Keep a document's bytes in the shared store, in the caller's transaction; its SHA-256.
    Content-addressed: the same file uploaded twice is stored once."""
    digest = hashlib.sha256(data).hexdigest()
    key = document_key(delegation_id, digest, ext)
    if not file_store.exists(key):
        file_store.put(key, data, CONTENT_TYPES.get(ext, "application/octet-stream"))
    return digest


def key_of(f: UploadedFile) -> str:
    return document_key(f.delegation_id, f.sha256, EXTENSIONS.get(f.content_type, "bin"))


def stored_key(f: UploadedFile) -> str | None:
    """The store's key of a document's bytes, or None when they are missing."""
    key = key_of(f)
    return key if file_store.exists(key) else None
