"""One check for every file and every YAML the portal reads, before it is parsed or stored
(issue 38, 7): its size, and for a zip container (.xlsx, .ods, .docx) what it holds once
unpacked, so that a 180 KB workbook holding a 60 MB sheet or a 364-byte YAML alias bomb
costs nothing. Below the areas: imports none."""
from __future__ import annotations

import io
import zipfile

import yaml

from .text import Text

MAX_RATIO = 100  # real workbooks and Word files pack 5-20 times; a bomb packs hundreds
MAX_UNPACKED = 100 * 1024 * 1024  # a 2,000-person delegation's workbook is a few MB
MAX_UNPACKED_SMALL = 20 * 1024 * 1024  # a list of units, leaders or results; a regulation
MAX_MEMBERS = 2_000
MAX_YAML_BYTES = 1024 * 1024


class UploadRefused(Exception):
    """A file or text refused before reading: (zh, en), naming what is wrong with it.
    `unreadable`: damaged, or not the kind its name says (no bomb, nothing too large)."""

    def __init__(self, zh: str, en: str, unreadable: bool = False):
        super().__init__(en)
        self.zh, self.en, self.unreadable = zh, en, unreadable

    def as_text(self) -> Text:
        """The refusal as the readers' problem lists hold it: each reader sees his language."""
        return Text(self.zh, self.en)


def check_size(data: bytes | str, limit: int) -> None:
    if len(data) > limit:
        size = f"{limit // 1024 // 1024} MB" if limit >= 1024 * 1024 else f"{limit // 1024} KB"
        raise UploadRefused(f"文件超过 {size}", f"larger than {size}")


def check_archive(data: bytes, max_unpacked: int = MAX_UNPACKED, required: str | None = None,
                  max_ratio: int = MAX_RATIO) -> None:
    """Refuse a zip container that is damaged, too big unpacked, packed suspiciously tight
    or of too many parts; `required`: a member it must hold (xl/workbook.xml)."""
    try:
        archive = zipfile.ZipFile(io.BytesIO(data))
        items = archive.infolist()
    except (zipfile.BadZipFile, ValueError, OSError):
        raise UploadRefused("文件已损坏，无法读取", "the file is damaged and cannot be read", unreadable=True) from None
    if len(items) > MAX_MEMBERS:
        raise UploadRefused("文件结构异常（部件过多），已拒绝", "too many parts inside, refused")
    if required is not None and required not in {i.filename for i in items}:
        raise UploadRefused("文件不是所说的格式", "the file is not what its name says", unreadable=True)
    total = 0
    for item in items:
        total += item.file_size
        if item.compress_size and item.file_size / item.compress_size > max_ratio and item.file_size > 1024 * 1024:
            raise UploadRefused("文件结构异常（压缩比过高），已拒绝", "suspicious compression ratio, refused")
    if total > max_unpacked:
        raise UploadRefused("解压后过大，已拒绝", "too large when unpacked, refused")


class _NoAliasLoader(yaml.SafeLoader):
    """YAML without anchors and aliases: no fixture of the portal uses them, and an alias
    is how a few hundred bytes become gigabytes (the "billion laughs")."""

    def compose_node(self, parent, index):
        if self.check_event(yaml.AliasEvent):
            event = self.peek_event()
            raise yaml.composer.ComposerError(None, None, f"aliases (*{event.anchor}) are not read",
                                              event.start_mark)
        return super().compose_node(parent, index)


class YamlTooLarge(UploadRefused, yaml.YAMLError):
    """Caught wherever bad YAML is: a text too large to parse."""


def load_yaml(text: str | bytes, max_bytes: int = MAX_YAML_BYTES):
    """yaml.safe_load, after the size check and refusing aliases (both yaml.YAMLError)."""
    if len(text) > max_bytes:
        raise YamlTooLarge(f"超过 {max_bytes // 1024} KB", f"larger than {max_bytes // 1024} KB")
    return yaml.load(text, Loader=_NoAliasLoader)  # a SafeLoader that refuses aliases
