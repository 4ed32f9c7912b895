"""Accreditation cards (issue 11, item 1): every approved person gets one, with a signed
code (never the ID number); photos that will not print are listed first; a card of a
person substituted out is void when scanned."""
import datetime as dt
import struct
import zlib
from decimal import Decimal

from builders import account, csrf_token, logged_in

CHINA = dt.timezone(dt.timedelta(hours=8))


def _png(w, h):
    raw = b"".join(b"\x00" + b"\x80\x80\x80" * w for _ in range(h))
    def chunk(kind, data):
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data) & 0xffffffff)
    return (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", w, h, 8, 2, 0, 0, 0))
            + chunk(b"IDAT", zlib.compress(raw)) + chunk(b"IEND", b""))


def test_cards_photos_and_the_scan(app, db, monkeypatch):
    import sys
    from pathlib import Path

    from portal.audit.services import Actor
    from portal.delegations.files import UploadedFile, store
    from portal.games.services import find_games
    from portal.venue.cards import card_code, cards_for
    from portal.workflow import services as svc
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
    from benchmarks.national import delegation_document
    games = find_games("nmsg-2009")
    document = delegation_document("zhejiang", 30, 12)
    d = svc.import_document(games, document, dt.datetime(2009, 8, 1, tzinfo=CHINA), Actor("t")).delegation
    assert svc.approve(d, Actor("组委会"), dt.datetime(2009, 8, 2, tzinfo=CHINA)).ok
    for ref, data in (("p1", _png(300, 400)), ("p2", _png(40, 50))):
        digest = store(d.id, data, "png")
        db.session.add(UploadedFile(delegation_id=d.id, person_ref=ref, kind="photo", filename="a.png",
                                    content_type="image/png", size=len(data), sha256=digest, uploaded_by="t"))
    db.session.commit()
    cards = {c.ref: c for c in cards_for(games, d.id)}
    assert len(cards) == 12 and cards["p1"].photo_problem is None
    assert "太小" in cards["p2"].photo_problem and "没有照片" in cards["p3"].photo_problem
    id_number = document["people"][0]["id_number"]
    assert id_number not in cards["p1"].code and id_number[-6:] not in cards["p1"].code

    account("card-org", "organiser", name="组委会")
    client = app.test_client()
    monkeypatch.setitem(app.config, "WTF_CSRF_ENABLED", False)
    logged_in(app, "card-org", client=client)
    with app.app_context():
        page = client.get(f"/org/games/nmsg-2009/cards?delegation={d.id}").get_data(as_text=True)
        pdf = client.get(f"/org/games/nmsg-2009/cards.pdf?delegation={d.id}")
        valid = client.get("/org/scan", query_string={"code": card_code(d.id, "p1")}).get_data(as_text=True)
        forged = client.get("/org/scan", query_string={"code": card_code(d.id, "p1")[:-2] + "xx"}).get_data(as_text=True)
        gone = client.get("/org/scan", query_string={"code": card_code(d.id, "p999")}).get_data(as_text=True)
    assert "照片太小" in page and page.count("没有照片") >= 10
    assert pdf.status_code == 200 and pdf.get_data()[:5] == b"%PDF-" and len(pdf.get_data()) > 5000
    assert "有效" in valid and document["people"][0]["name"] in valid
    assert "无法识别" in forged and "证件作废" in gone


def test_check_in_asks_for_the_documents_and_returns_the_deposit(app, db):
    """shaanxi-mind-2025 十(二): ID copy, health certificate, insurance and the safety pledge
    shown at check-in; 十一(三): the 100 deposit is returned after check-in."""
    from builders import doc, individual, person

    from portal.audit.services import Actor
    from portal.games.services import find_games
    from portal.money.services import sync_charges, totals
    from portal.venue.checkin import check_in
    from portal.workflow import services as svc
    games = find_games("shaanxi-mind-2025")
    entrant = person("p1", "M", "1988-08-08", unit="shaanxi", docs=("photo",), name="刘强")
    out = svc.import_document(games, doc("shaanxi-mind-2025", unit=None, people=[entrant],
                                         entries=[individual("gomoku.OPEN", "p1")]),
                              dt.datetime(2025, 9, 1, tzinfo=CHINA), Actor("t"))
    assert out.ok, out.violations
    d = out.delegation
    assert svc.approve(d, Actor("组委会"), dt.datetime(2025, 9, 2, tzinfo=CHINA)).ok
    sync_charges(d, Actor("t"))
    db.session.commit()
    deposit_before = totals(d)["credit"]
    at = dt.datetime(2025, 9, 19, 15, 0, tzinfo=CHINA)
    out = check_in(d, "p1", ["id_copy"], Actor("前台"), at)
    assert not out.ok and "健康证明" in out.message[0] and "health certificate" in out.message[1]  # names, not codes
    out = check_in(d, "p1", ["id_copy", "health_certificate", "insurance_proof", "safety_pledge"], Actor("前台"), at)
    assert out.ok, out.message
    db.session.commit()
    assert totals(d)["credit"] - deposit_before == Decimal("100.00")
    out = check_in(d, "p1", [], Actor("前台"), at)
    assert not out.ok and "已经报到" in out.message[0]


def test_an_early_arrival_is_refused_where_the_regulation_says_so(app, db):
    """youth-gomoku-2015 十一(九): players report the day before; early arrivals are not received."""
    from builders import doc, individual, person

    from portal.audit.services import Actor
    from portal.games.services import find_games
    from portal.venue.checkin import check_in
    from portal.workflow import services as svc
    games = find_games("youth-gomoku-2015")
    kid = person("b", "M", "2006-06-06", docs=("photo", "id_copy"))
    out = svc.import_document(games, doc("youth-gomoku-2015", unit={"name": "河西棋院", "kind": "club"}, people=[kid],
                                         entries=[individual("gomoku.MCA", "b")]),
                              dt.datetime(2015, 7, 1, tzinfo=CHINA), Actor("t"))
    assert svc.approve(out.delegation, Actor("组委会"), dt.datetime(2015, 7, 2, tzinfo=CHINA)).ok
    db.session.commit()
    from portal.delegations.services import export_document
    from portal.games.services import definition_of
    from portal.rules.stay import person_window
    window = person_window(definition_of(games), export_document(out.delegation), "b")
    early = dt.datetime.combine(window.first_night - dt.timedelta(days=1), dt.time(10), CHINA)
    arrived = check_in(out.delegation, "b", [], Actor("前台"), early)
    assert not arrived.ok and "不予接待" in arrived.message[0]
    arrived = check_in(out.delegation, "b", [], Actor("前台"), dt.datetime.combine(window.first_night, dt.time(10), CHINA))
    assert arrived.ok, arrived.message


def test_no_shows_keep_their_deposit_once_play_has_started(app, db):
    """shaanxi-mind-2025 十一(三): the deposit is kept from entrants who do not come."""
    from builders import doc, individual, person
    from sqlalchemy import select

    from portal.audit.services import Actor
    from portal.games.services import find_games
    from portal.money.models import LedgerEntry
    from portal.money.services import sync_charges
    from portal.venue.checkin import confirm_no_shows, no_shows
    from portal.workflow import services as svc
    games = find_games("shaanxi-mind-2025")
    entrant = person("p1", "M", "1988-08-08", unit="shaanxi", docs=("photo",), name="缺席者")
    d = svc.import_document(games, doc("shaanxi-mind-2025", unit=None, people=[entrant],
                                       entries=[individual("gomoku.OPEN", "p1")]),
                            dt.datetime(2025, 9, 1, tzinfo=CHINA), Actor("t")).delegation
    assert svc.approve(d, Actor("组委会"), dt.datetime(2025, 9, 2, tzinfo=CHINA)).ok
    sync_charges(d, Actor("t"))
    db.session.commit()
    assert [name for _ref, name in no_shows(games)[0]["missing"]] == ["缺席者"]
    out = confirm_no_shows(games, Actor("组委会"), dt.datetime(2025, 9, 19, 20, 0, tzinfo=CHINA))
    assert not out.ok and "开始" in out.message[0]  # not before play starts
    out = confirm_no_shows(games, Actor("组委会"), dt.datetime(2025, 9, 20, 9, 0, tzinfo=CHINA))
    assert out.ok and out.details["recorded"] == 1
    db.session.rollback()
    kept = db.session.scalars(select(LedgerEntry).where(LedgerEntry.delegation_id == d.id,
                                                        LedgerEntry.kind == "forfeit")).all()
    assert [(e.fee_code, e.amount) for e in kept] == [("deposit", Decimal("100.00"))]


def test_the_desk_checks_in_all_160_entrants(app, db, monkeypatch):
    """shaanxi-mind-2025 四: at most 160 entrants; 十(二): each shows the ID copy, health
    certificate, insurance proof and safety pledge; 十一(三): each deposit of 100 comes
    back after check-in. All 160 through the desk's own route, as the scanner would."""
    from builders import doc, individual, person
    from sqlalchemy import func, select

    from portal.audit.services import Actor
    from portal.games.services import find_games
    from portal.money.models import LedgerEntry
    from portal.money.services import sync_charges
    from portal.venue.cards import card_code
    from portal.venue.models import CheckIn
    from portal.workflow import services as svc
    games = find_games("shaanxi-mind-2025")
    codes = []
    for i in range(160):
        born = (dt.date(1970, 1, 1) + dt.timedelta(days=97 * i)).isoformat()
        entrant = person("p1", "M" if i % 3 else "F", born, unit="shaanxi", docs=("photo",), name=f"棋手{i:03d}")
        out = svc.import_document(games, doc("shaanxi-mind-2025", unit=None, people=[entrant],
                                             entries=[individual("gomoku.OPEN", "p1")]),
                                  dt.datetime(2025, 9, 1, 8, tzinfo=CHINA) + dt.timedelta(minutes=i), Actor("t"))
        assert out.ok, (i, out.violations)
        assert svc.approve(out.delegation, Actor("组委会"), dt.datetime(2025, 9, 2, tzinfo=CHINA)).ok
        sync_charges(out.delegation, Actor("t"))
        codes.append(card_code(out.delegation.id, "p1"))
    db.session.commit()
    account("desk-org", "organiser", name="报到台")
    monkeypatch.setitem(app.config, "FIXED_NOW", dt.datetime(2025, 9, 19, 2, 0, tzinfo=dt.UTC))  # 10:00 on report day
    shown = ["id_copy", "health_certificate", "insurance_proof", "safety_pledge"]
    client = logged_in(app, "desk-org", "password-123")
    for code in codes:
        with app.app_context():
            scan = client.get("/org/scan", query_string={"code": code}).get_data(as_text=True)
            token = csrf_token(scan)
            r = client.post("/org/checkin", data={"csrf_token": token, "code": code, "documents": shown})
            assert r.status_code == 302
    with app.app_context():
        desk = client.get("/org/games/shaanxi-mind-2025/checkin").get_data(as_text=True)
        again = client.post("/org/checkin", data={"csrf_token": token, "code": codes[0], "documents": shown},
                            follow_redirects=True).get_data(as_text=True)
    assert db.session.scalar(select(func.count()).select_from(CheckIn)) == 160
    assert "160 / 160" in desk and "运动员都已报到" in desk
    assert "已经报到" in again
    released = db.session.scalar(select(func.sum(LedgerEntry.amount)).where(
        LedgerEntry.kind == "credit", LedgerEntry.fee_code == "deposit"))
    assert released == Decimal("16000.00")


def test_the_desk_finds_a_person_without_a_card(app, db):
    """No card at hand: the desk types a name or the last digits of the ID number."""
    from builders import doc, individual, person

    from portal.audit.services import Actor
    from portal.games.services import find_games
    from portal.workflow import services as svc
    games = find_games("shaanxi-mind-2025")
    entrant = person("p1", "M", "1988-08-08", unit="shaanxi", docs=("photo",), name="欧阳明")
    out = svc.import_document(games, doc("shaanxi-mind-2025", unit=None, people=[entrant],
                                         entries=[individual("gomoku.OPEN", "p1")]),
                              dt.datetime(2025, 9, 1, tzinfo=CHINA), Actor("t"))
    assert svc.approve(out.delegation, Actor("组委会"), dt.datetime(2025, 9, 2, tzinfo=CHINA)).ok
    db.session.commit()
    account("desk2", "organiser", name="报到台")
    client = logged_in(app, "desk2", "password-123")
    with app.app_context():
        by_name = client.get("/org/scan", query_string={"code": "欧阳"}).get_data(as_text=True)
        by_tail = client.get("/org/scan", query_string={"code": entrant["id_number"][-4:]}).get_data(as_text=True)
        nobody = client.get("/org/scan", query_string={"code": "诸葛"}).get_data(as_text=True)
    for html in (by_name, by_tail):
        assert 'id="desk-search"' in html and "欧阳明" in html and "办理报到" in html
        assert entrant["id_number"] not in html  # masked
    assert "也没有姓名或证件号后四位相符" in nobody



def test_a_games_cards_read_each_photo_once_and_embed_a_jpeg_as_it_is(app, db):
    """The whole Games' cards (the background job's path): the photos are read in a few
    queries, not four each, and drawn from what the check read; a JPEG goes into the PDF
    byte for byte (never decoded to name it), a PNG as its pixels; a photo whose file is
    gone is told, not drawn."""
    import io
    import sys
    from pathlib import Path

    import sqlalchemy as sa
    from PIL import Image

    from portal import file_store
    from portal.audit.services import Actor
    from portal.delegations.files import UploadedFile, key_of, store
    from portal.extensions import db as portal_db
    from portal.games.services import find_games
    from portal.venue.cards import cards_for, cards_pdf
    from portal.workflow import services as svc
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
    from benchmarks.national import delegation_document
    games = find_games("nmsg-2009")
    d = svc.import_document(games, delegation_document("zhejiang", 30, 12), dt.datetime(2009, 8, 1, tzinfo=CHINA),
                            Actor("t")).delegation
    assert svc.approve(d, Actor("组委会"), dt.datetime(2009, 8, 2, tzinfo=CHINA)).ok
    jpeg = io.BytesIO()
    Image.new("RGB", (300, 400), (200, 30, 30)).save(jpeg, "JPEG", quality=80)
    photos = {"p1": (jpeg.getvalue(), "jpg", "image/jpeg"), "p2": (_png(300, 400), "png", "image/png"),
              "p3": (_png(310, 400), "png", "image/png")}
    for ref, (data, ext, kind) in photos.items():
        db.session.add(UploadedFile(delegation_id=d.id, person_ref=ref, kind="photo", filename=f"a.{ext}",
                                    content_type=kind, size=len(data), sha256=store(d.id, data, ext), uploaded_by="t"))
    db.session.commit()
    lost = db.session.scalars(sa.select(UploadedFile).where(UploadedFile.delegation_id == d.id,
                                                            UploadedFile.person_ref == "p3")).one()
    file_store.delete(key_of(lost))
    db.session.commit()

    statements = []

    def seen(conn, cursor, statement, *args):
        statements.append(statement)
    sa.event.listen(portal_db.engine, "before_cursor_execute", seen)
    try:
        read: dict = {}
        cards = {c.ref: c for c in cards_for(games, d.id, read)}
        pdf = cards_pdf(games, list(cards.values()), "a4", read)
    finally:
        sa.event.remove(portal_db.engine, "before_cursor_execute", seen)
    assert len([s for s in statements if "stored_chunk" in s or "stored_file" in s]) == 1
    assert cards["p1"].photo_problem is None and cards["p2"].photo_problem is None
    assert "不见了" in cards["p3"].photo_problem and cards["p3"].photo_key is None
    assert jpeg.getvalue() in pdf and b"/DCTDecode" in pdf
    assert pdf.count(b"/Subtype /Image") == 2  # the JPEG and the PNG, each once
