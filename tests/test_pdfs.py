"""The PDFs as printed (issue 11): cards and the programme book rendered to PNG with
pdftoppm, their Chinese font embedded (pdffonts), and each card's QR code decoded back
(zbarimg) to the signed card code. Poppler, zbar and the CJK font are Debian packages that
.ci/run installs; without them (a developer's machine) these tests are skipped, never in CI."""
import datetime as dt
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
CHINA = dt.timezone(dt.timedelta(hours=8))
TOOLS = ("pdftoppm", "pdffonts", "zbarimg")
missing = [t for t in TOOLS if shutil.which(t) is None]
if missing and os.environ.get("CI"):
    raise RuntimeError(f"CI must have {', '.join(missing)} (poppler-utils, zbar-tools)")
pytestmark = pytest.mark.skipif(bool(missing), reason=f"not installed: {', '.join(missing)}")


@pytest.fixture
def approved(app, db):
    from benchmarks.national import delegation_document
    from portal.audit.services import Actor
    from portal.games.services import find_games
    from portal.workflow import services as svc
    games = find_games("nmsg-2009")
    d = svc.import_document(games, delegation_document("zhejiang", 30, 10), dt.datetime(2009, 8, 1, tzinfo=CHINA),
                            Actor("t")).delegation
    assert svc.approve(d, Actor("组委会"), dt.datetime(2009, 8, 2, tzinfo=CHINA)).ok
    db.session.commit()
    return games, d


def _fonts_embedded(pdf: Path) -> list[tuple[str, str]]:
    """(font name, emb) per font of the PDF, from pdffonts' table."""
    out = subprocess.run(["pdffonts", str(pdf)], capture_output=True, text=True, check=True).stdout.splitlines()[2:]
    return [(line.split()[0], line.split()[-5]) for line in out if line.strip()]


def _png(pdf: Path, page: int, dpi: int = 150) -> Path:
    stem = pdf.with_suffix("")
    subprocess.run(["pdftoppm", "-png", "-r", str(dpi), "-f", str(page), "-l", str(page), "-singlefile",
                    str(pdf), str(stem)], check=True)
    return stem.with_suffix(".png")


def _not_blank(png: Path) -> float:
    from PIL import Image
    with Image.open(png) as im:
        grey = im.convert("L")
        dark = sum(grey.histogram()[:128])  # pixels darker than mid-grey
        return dark / (grey.width * grey.height)


def test_cards_print_with_an_embedded_font_and_scannable_codes(approved, tmp_path):
    from portal.pdf_fonts import EMBEDDED, chinese_font
    from portal.venue.cards import card_code, cards_for, cards_pdf
    games, d = approved
    assert chinese_font() == EMBEDDED, "a TrueType CJK font (fonts-wqy-zenhei) is needed to embed"
    cards = cards_for(games, d.id)
    pdf = tmp_path / "cards.pdf"
    pdf.write_bytes(cards_pdf(games, cards, "a4"))
    fonts = _fonts_embedded(pdf)
    assert fonts and all(emb == "yes" for _name, emb in fonts), fonts
    png = _png(pdf, 1, dpi=200)
    assert 0.02 < _not_blank(png) < 0.6  # cards drawn, not an empty or a black page
    decoded = subprocess.run(["zbarimg", "--quiet", "--raw", str(png)], capture_output=True, text=True).stdout.split()
    expected = {card_code(d.id, c.ref) for c in cards[:8]}  # the first page holds 8 cards
    assert set(decoded) == expected
    if os.environ.get("CARDS_PNG"):
        shutil.copy(png, os.environ["CARDS_PNG"])


def test_the_programme_book_prints_with_an_embedded_font(approved, tmp_path):
    from portal.results.programme import book, to_pdf
    games, _d = approved
    pdf = tmp_path / "programme.pdf"
    pdf.write_bytes(to_pdf(book(games)))
    fonts = _fonts_embedded(pdf)
    assert fonts and all(emb == "yes" for _name, emb in fonts), fonts
    for page in (1, 2):
        assert _not_blank(_png(pdf, page)) > 0.002
    if os.environ.get("PROGRAMME_PNG"):
        shutil.copy(_png(pdf, 2), os.environ["PROGRAMME_PNG"])


def test_a_statement_prints_with_an_embedded_font(approved, tmp_path):
    from portal.money.statement import statement, to_pdf
    _games, d = approved
    pdf = tmp_path / "statement.pdf"
    pdf.write_bytes(to_pdf(statement(d), "对账单"))
    fonts = _fonts_embedded(pdf)
    assert fonts and all(emb == "yes" for _name, emb in fonts), fonts


def test_the_programme_book_prints_the_organisers_contacts(app, db, tmp_path):
    """youth-gomoku-2015 十一(五): enquiries to 刘彦艳 010-87559186; entries and fees to the
    host in Tianjin; check-in with 代丰."""
    from portal.games.services import find_games
    from portal.results.programme import book, to_excel, to_pdf
    games = find_games("youth-gomoku-2015")
    b = book(games)
    pdf = tmp_path / "book.pdf"
    pdf.write_bytes(to_pdf(b))
    text = subprocess.run(["pdftotext", "-f", "2", "-l", "2", str(pdf), "-"], capture_output=True, text=True).stdout
    assert "组委会联系方式" in text and "010-87559186" in text and "天津市南开区红旗南路" in text
    from io import BytesIO

    from openpyxl import load_workbook
    cover = list(load_workbook(BytesIO(to_excel(b))).worksheets[0].iter_rows(values_only=True))
    assert any(r[0] == "报到" and "022-23912628" in r[1] for r in cover)
