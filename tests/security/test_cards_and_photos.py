"""Cards and photos (issue 19, 4 and 5): an image bomb is refused at upload and never stops
card printing; a card is one person's for good and void once he is gone."""
from __future__ import annotations

import datetime as dt
import struct
import zlib

from builders import individual, person

from security.attack import get, login, post

CHINA = dt.timezone(dt.timedelta(hours=8))


def _chunk(kind, data):
    return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data) & 0xffffffff)


def bomb_png(side: int = 30000) -> bytes:
    """A 1-bit PNG claiming side x side pixels: about 100 KB on disk, 900 megapixels decoded."""
    z = zlib.compressobj(9)
    row = b"\x00" + b"\x00" * ((side + 7) // 8)
    parts = [z.compress(row) for _ in range(side)]
    data = b"".join(parts) + z.flush()
    return (b"\x89PNG\r\n\x1a\n" + _chunk(b"IHDR", struct.pack(">IIBBBBB", side, side, 1, 0, 0, 0, 0))
            + _chunk(b"IDAT", data) + _chunk(b"IEND", b""))


def test_an_image_bomb_is_refused_at_upload(app, world, no_csrf, monkeypatch):
    from io import BytesIO

    from sqlalchemy import select

    from portal.delegations.files import UploadedFile
    from portal.extensions import db
    data = bomb_png()
    assert len(data) < 200_000
    d = world["a"]
    client = login(app, "leader_a")
    monkeypatch.setitem(app.config, "FIXED_NOW", dt.datetime(2019, 5, 20, tzinfo=dt.UTC))
    r = post(app, client, f"/d/{d.id}/people/p1/documents",
             data={"kind": "photo", "file": (BytesIO(data), "photo.png")}, follow_redirects=True)
    page = r.get_data(as_text=True)
    assert r.status_code == 200 and "像素尺寸过大" in page, page[:500]
    db.session.rollback()
    assert db.session.scalar(select(UploadedFile).where(UploadedFile.delegation_id == d.id)) is None


def _approved(app, db):
    """A Games delegation of 12 people, approved, with its card codes."""
    import sys
    from pathlib import Path

    from portal.audit.services import Actor
    from portal.games.services import find_games
    from portal.workflow import services as svc
    sys.path.insert(0, str(Path(__file__).resolve().parents[2]))
    from benchmarks.national import delegation_document
    games = find_games("nmsg-2009")
    d = svc.import_document(games, delegation_document("zhejiang", 30, 12), dt.datetime(2009, 8, 1, tzinfo=CHINA),
                            Actor("t")).delegation
    assert svc.approve(d, Actor("组委会"), dt.datetime(2009, 8, 2, tzinfo=CHINA)).ok
    return games, d


def test_a_stored_image_bomb_is_listed_before_printing_and_the_pdf_still_prints(app, world, db):
    from portal.delegations.files import UploadedFile, store
    from portal.venue.cards import cards_for
    games, d = _approved(app, db)
    data = bomb_png()
    # as a photo stored before uploads were checked for it
    digest = store(d.id, data, "png")
    db.session.add(UploadedFile(delegation_id=d.id, person_ref="p1", kind="photo", filename="bomb.png",
                                content_type="image/png", size=len(data), sha256=digest, uploaded_by="t"))
    db.session.commit()
    cards = {c.ref: c for c in cards_for(games, d.id)}
    assert "像素尺寸过大" in cards["p1"].photo_problem and cards["p1"].photo_key is None
    organiser = login(app, "organiser")
    page = get(app, organiser, f"/org/games/nmsg-2009/cards?delegation={d.id}")
    assert page.status_code == 200 and "像素尺寸过大" in page.get_data(as_text=True)
    pdf = get(app, organiser, f"/org/games/nmsg-2009/cards.pdf?delegation={d.id}")
    assert pdf.status_code == 200 and pdf.get_data()[:5] == b"%PDF-"


def test_a_card_is_void_once_its_person_is_deleted_and_his_ref_reused(app, world, db, monkeypatch):
    from portal.audit.services import Actor
    from portal.delegations import edit
    from portal.delegations.services import export_document
    from portal.venue.cards import card_code, scan
    from portal.workflow.services import save
    d = world["a"]
    when = dt.datetime(2019, 5, 2, tzinfo=CHINA)
    old_card = card_code(d.id, "p2")
    assert scan(old_card)["status"] in ("valid", "void")  # a card of the draft: serial known
    document = edit.delete_person(export_document(d), "p2")
    document["entries"] = [e for e in document["entries"] if e.get("person") != "p2"]
    assert save(d, document, Actor("t"), when).ok
    newcomer = person("p2", "F", "1998-03-03", year=2019, name="新来的人")
    document = export_document(d)
    document["people"].append(newcomer)
    document["entries"].append(individual("chess.WI", "p2"))
    assert save(d, document, Actor("t"), when).ok
    d.status = "approved"
    db.session.commit()
    old = scan(old_card)
    assert old["status"] == "void" and old["why"] == "not_registered", old
    new = scan(card_code(d.id, "p2"))
    assert new["status"] == "valid" and new["person"]["name"] == "新来的人"
    # a card signed before serials ([delegation, ref]) is no one's
    from portal.venue.cards import _serializer
    with app.test_request_context():
        assert scan(_serializer().dumps([d.id, "p2"]))["status"] == "void"
    # the desk will not check the old card in either
    organiser = login(app, "organiser")
    monkeypatch.setitem(app.config, "WTF_CSRF_ENABLED", False)
    r = post(app, organiser, "/org/checkin", data={"code": old_card})
    assert r.status_code == 302
    from sqlalchemy import select

    from portal.venue.models import CheckIn
    db.session.rollback()
    assert db.session.scalar(select(CheckIn).where(CheckIn.delegation_id == d.id)) is None


def test_a_returned_delegations_card_scans_void(app, world, db):
    from portal.venue.cards import card_code, scan
    d = world["a"]
    d.status = "returned"
    db.session.commit()
    out = scan(card_code(d.id, "p1"))
    assert out["status"] == "void" and out["why"] == "not_approved"
