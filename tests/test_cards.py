"""Accreditation cards (issue 11, item 1): every approved person gets one, with a signed
code (never the ID number); photos that will not print are listed first; a card of a
person substituted out is void when scanned."""
import datetime as dt
import io
import os
import struct
import zlib

CHINA = dt.timezone(dt.timedelta(hours=8))


def _png(w, h):
    raw = b"".join(b"\x00" + b"\x80\x80\x80" * w for _ in range(h))
    def chunk(kind, data):
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data) & 0xffffffff)
    return (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", w, h, 8, 2, 0, 0, 0))
            + chunk(b"IDAT", zlib.compress(raw)) + chunk(b"IEND", b""))


def test_cards_photos_and_the_scan(app, db):
    import sys
    from pathlib import Path

    from portal.accounts.services import create_account
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
    folder = app.config["UPLOAD_FOLDER"]
    for ref, data in (("p1", _png(300, 400)), ("p2", _png(40, 50))):
        digest = store(folder, d.id, data, "png")
        db.session.add(UploadedFile(delegation_id=d.id, person_ref=ref, kind="photo", filename="a.png",
                                    content_type="image/png", size=len(data), sha256=digest, uploaded_by="t"))
    db.session.commit()
    cards = {c.ref: c for c in cards_for(games, d.id)}
    assert len(cards) == 12 and cards["p1"].photo_problem is None
    assert "太小" in cards["p2"].photo_problem and "没有照片" in cards["p3"].photo_problem
    id_number = document["people"][0]["id_number"]
    assert id_number not in cards["p1"].code and id_number[-6:] not in cards["p1"].code

    create_account("card-org", "组委会", "organiser", Actor("t"), password="password-123")
    client = app.test_client()
    app.config["WTF_CSRF_ENABLED"] = False
    try:
        with app.app_context():
            client.post("/login", data={"username": "card-org", "password": "password-123"})
            page = client.get(f"/org/games/nmsg-2009/cards?delegation={d.id}").get_data(as_text=True)
            pdf = client.get(f"/org/games/nmsg-2009/cards.pdf?delegation={d.id}")
            valid = client.get("/org/scan", query_string={"code": card_code(d.id, "p1")}).get_data(as_text=True)
            forged = client.get("/org/scan", query_string={"code": card_code(d.id, "p1")[:-2] + "xx"}).get_data(as_text=True)
            gone = client.get("/org/scan", query_string={"code": card_code(d.id, "p999")}).get_data(as_text=True)
        assert "照片太小" in page and page.count("没有照片") >= 10
        assert pdf.status_code == 200 and pdf.get_data()[:5] == b"%PDF-" and len(pdf.get_data()) > 5000
        assert "有效" in valid and document["people"][0]["name"] in valid
        assert "无法识别" in forged and "证件作废" in gone
    finally:
        app.config["WTF_CSRF_ENABLED"] = True
