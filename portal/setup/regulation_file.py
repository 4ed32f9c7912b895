"""A regulation uploaded as a file, read as its text: Word (.docx, python-docx), PDF
(pypdf: the text a PDF carries; a scan has none), or plain text (UTF-8 or GB18030, as a
Chinese Windows saves it). A file that cannot be read is refused, naming it."""
from __future__ import annotations

import io
import zipfile

from ..upload_checks import MAX_UNPACKED_SMALL, UploadRefused, check_archive
from .sections import SectionProblem

MAX_BYTES = 10 * 1024 * 1024


def read_regulation(data: bytes, filename: str) -> str:
    name = (filename or "").lower()
    try:
        if name.endswith(".docx"):
            check_archive(data, MAX_UNPACKED_SMALL, required="word/document.xml")  # before any XML is parsed
            from docx import Document
            document = Document(io.BytesIO(data))
            return "\n".join(p.text for p in document.paragraphs)
        if name.endswith(".pdf"):
            from pypdf import PdfReader
            text = "\n".join(page.extract_text() or "" for page in PdfReader(io.BytesIO(data)).pages[:200])
            if not text.strip():
                raise SectionProblem(f"“{filename}”里没有文字（可能是扫描件），请粘贴规程文本",
                                     f"{filename} holds no text (a scan?): paste the regulation's text instead")
            return text
        if name.endswith((".txt", ".text")):
            for encoding in ("utf-8-sig", "gb18030"):
                try:
                    return data.decode(encoding)
                except UnicodeDecodeError:
                    continue
    except SectionProblem:
        raise
    except UploadRefused as refused:
        if not refused.unreadable:  # a bomb, not a damaged file
            raise SectionProblem(f"“{filename}”：{refused.zh}", f"{filename}: {refused.en}") from None
        raise _unreadable(filename) from None
    except (zipfile.BadZipFile, KeyError, ValueError, OSError, Exception) as exc:
        raise _unreadable(filename) from exc
    raise SectionProblem(f"“{filename}”：请上传 Word（.docx）、PDF 或文本（.txt）文件，.doc 请先另存为 .docx",
                         f"{filename}: upload Word (.docx), PDF or text (.txt); save a .doc as .docx first")


def _unreadable(filename: str) -> SectionProblem:
    return SectionProblem(f"无法读取“{filename}”：文件已损坏或不是所说的格式",
                          f"{filename} cannot be read: damaged, or not what its name says")
