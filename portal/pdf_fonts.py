"""The Chinese font of every PDF the portal makes (cards, programme book, statements).

A TrueType CJK font is embedded (subset) so that a PDF prints the same on any printer and
reader; Debian's fonts-wqy-zenhei is the default (`PDF_FONT` names another .ttf/.ttc).
Without one, reportlab's built-in STSong-Light is used: readable, but not embedded, so it
depends on the reader's Asian font pack. OpenType-CFF fonts (Noto CJK) cannot be embedded
by reportlab, hence a TrueType one."""
from __future__ import annotations

import logging
import os

CANDIDATES = ("/usr/share/fonts/truetype/wqy/wqy-zenhei.ttc", "/usr/share/fonts/truetype/wqy/wqy-microhei.ttc",
              "/usr/share/fonts/truetype/arphic/uming.ttc", "/usr/share/fonts/truetype/arphic/ukai.ttc")
FALLBACK = "STSong-Light"
EMBEDDED = "PortalCJK"
log = logging.getLogger(__name__)


def font_path() -> str | None:
    named = os.environ.get("PDF_FONT")
    if named:
        return named if os.path.exists(named) else None
    return next((p for p in CANDIDATES if os.path.exists(p)), None)


def chinese_font() -> str:
    """The registered name of the font to draw Chinese with. Every PDF the portal makes asks
    for it before drawing, so it also sets what all of them share: binary streams, not
    ASCII85 (a fifth smaller; a Games' cards, mostly JPEG photos, 36 MB -> 29 MB)."""
    from reportlab import rl_config
    from reportlab.pdfbase import pdfmetrics
    rl_config.useA85 = 0
    registered = pdfmetrics.getRegisteredFontNames()
    if EMBEDDED in registered:
        return EMBEDDED
    path = font_path()
    if path:
        from reportlab.pdfbase.ttfonts import TTFont
        try:
            pdfmetrics.registerFont(TTFont(EMBEDDED, path, subfontIndex=0) if path.endswith(".ttc")
                                    else TTFont(EMBEDDED, path))
            return EMBEDDED
        except Exception as exc:  # a damaged or CFF font file: fall back, say so in the log
            log.warning("PDF font %s cannot be embedded (%s); using %s", path, exc, FALLBACK)
    if FALLBACK not in registered:
        from reportlab.pdfbase.cidfonts import UnicodeCIDFont
        pdfmetrics.registerFont(UnicodeCIDFont(FALLBACK))
    return FALLBACK
