"""Keep the English catalog in step with the code.

    python scripts/i18n.py check            # list Chinese strings without English
    python scripts/i18n.py add FILE.json    # add {"中文": "English", ...} and compile

Chinese is the source language; translations/en/LC_MESSAGES/messages.po is the catalog and
messages.mo its compiled form (both committed: the app needs no build step)."""
from __future__ import annotations

import json
import sys
from pathlib import Path

from babel.messages.catalog import Catalog
from babel.messages.extract import extract_from_dir
from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po, write_po

ROOT = Path(__file__).resolve().parent.parent
PO = ROOT / "translations/en/LC_MESSAGES/messages.po"
MO = PO.with_suffix(".mo")
METHODS = [("portal/**.py", "python"), ("templates/**.html", "jinja2")]
KEYWORDS = {"_": None, "gettext": None, "_l": None, "lazy_gettext": None, "ngettext": (1, 2)}


def source() -> list[str]:
    seen = []
    for _f, _l, message, _c, _x in extract_from_dir(str(ROOT), method_map=METHODS, keywords=KEYWORDS):
        m = message if isinstance(message, str) else message[0]
        if m and m not in seen:
            seen.append(m)
    return seen


def main() -> None:
    with open(PO, "rb") as f:
        old = read_po(f)
    known = {m.id: m.string for m in old if m.id}
    extra = json.loads(Path(sys.argv[2]).read_text(encoding="utf-8")) if sys.argv[1:2] == ["add"] else {}
    catalog = Catalog(locale="en", project="mindsports-portal", version="0.1")
    missing = []
    for msgid in source():
        text = extra.get(msgid) or known.get(msgid) or ""
        if not text:
            missing.append(msgid)
        catalog.add(msgid, text)
    if sys.argv[1:2] == ["add"]:
        with open(PO, "wb") as f:
            write_po(f, catalog, width=100)
        with open(MO, "wb") as f:
            write_mo(f, catalog)
    for m in missing:
        print(m)


if __name__ == "__main__":
    main()
