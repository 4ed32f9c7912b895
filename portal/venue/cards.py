"""Accreditation cards (参赛证) for every person of an approved delegation: photo, name,
unit, role in its colour, events, and a QR code carrying a signed card code (never the ID
number). Printed as PDF, 8 cards to an A4 page with cut marks, or one A6 card a page.

youth-gomoku-2015 十一(二): photos are collected "制作参赛证用", leaders, coaches and
companions register "便于统一制作证件"."""
from __future__ import annotations

import functools
import io
from dataclasses import dataclass, field
from itertools import groupby

from flask import current_app
from itsdangerous import BadSignature, URLSafeSerializer
from sqlalchemy import select

from .. import file_store
from ..delegations.edit import entry_people
from ..delegations.files import UploadedFile, image_problem, key_of
from ..delegations.models import Delegation, DelegationStatus, Person
from ..delegations.services import export_document, export_documents
from ..extensions import db
from ..games.models import Games
from ..games.services import definition_of, unit_names
from ..jobs.services import games_of, job_kind
from ..pdf_fonts import chinese_font
from ..text import Text
from ..workflow.models import Substitution, SubstitutionStatus
from ..workflow.plays import why_not_playing

ROLES = {  # role -> (zh, en, colour)
    "athlete": ("运动员", "Athlete", "#b71c1c"), "leader": ("领队", "Team leader", "#1f4e9a"),
    "coach": ("教练", "Coach", "#2e7d32"), "leader_coach": ("领队兼教练", "Leader-coach", "#1f4e9a"),
    "companion": ("随队", "Companion", "#6a1b9a"), "staff": ("工作人员", "Staff", "#b03f00"),
    "head": ("团长", "Head of delegation", "#37474f"), "deputy_head": ("副团长", "Deputy head", "#37474f"),
}
MIN_PHOTO = (150, 200)  # pixels: below this a printed photo cannot be recognised


@dataclass
class Card:
    delegation_id: int
    ref: str
    name: str
    unit: str
    role: str
    events: list[str] = field(default_factory=list)
    photo_key: str | None = None  # the photo in the file store (delegations/files.py)
    photo_problem: Text | None = None
    code: str = ""


def _serializer() -> URLSafeSerializer:
    return URLSafeSerializer(current_app.config["SECRET_KEY"], salt="accreditation-card")


def card_code(delegation_id: int, ref: str, serial: str | None = None) -> str:
    """The signed code on a card: the delegation, the person's ref and his card serial (read
    from the database when not given), so that a card is one person's for good."""
    if serial is None:
        from ..delegations.models import Person
        serial = db.session.scalar(select(Person.card_serial).where(
            Person.delegation_id == delegation_id, Person.ref == ref))
    return _serializer().dumps([delegation_id, ref, serial])


def read_code(code: str) -> tuple[int, str, str | None] | None:
    """(delegation id, ref, serial) of a code this portal signed; None for anything else. A
    code from before serials (two parts) reads with serial None, which no person has."""
    try:
        parts = _serializer().loads((code or "").strip())
        if not isinstance(parts, list) or len(parts) not in (2, 3):
            return None
        serial = parts[2] if len(parts) == 3 else None
        return int(parts[0]), str(parts[1]), (str(serial) if serial is not None else None)
    except (BadSignature, ValueError, TypeError):
        return None


def cards_for(games, delegation_id: int | None = None, photos_read: dict[str, bytes] | None = None) -> list[Card]:
    """The cards of the approved delegations that play (or one of them), people in document order.
    photos_read: where the photos read to check them are kept, for cards_pdf to draw
    without reading them again (the whole Games' cards: one read of each photo)."""
    definition = definition_of(games)
    events = {e.code: e for e in definition.events}
    sports = {s.code: s for s in definition.sports}
    units = unit_names()
    q = select(Delegation).where(Delegation.games_id == games.id, Delegation.status == DelegationStatus.APPROVED)
    if delegation_id:
        q = q.where(Delegation.id == delegation_id)
    delegations = db.session.scalars(q.order_by(Delegation.unit_code, Delegation.id)).all()
    # No card for who does not play (the waiting list, an entry void for its fee): the desk
    # would refuse it, as the draw leaves him out.
    not_playing = why_not_playing(games, delegations) if delegations else {}
    delegations = [d for d in delegations if not_playing.get(d.id) is None]
    photos = {}
    for f in db.session.scalars(select(UploadedFile).where(
            UploadedFile.delegation_id.in_([d.id for d in delegations]), UploadedFile.kind == "photo")
            .order_by(UploadedFile.id)):
        photos[(f.delegation_id, f.person_ref)] = f  # the latest upload wins
    serials = {(did, ref): serial for did, ref, serial in db.session.execute(
        select(Person.delegation_id, Person.ref, Person.card_serial).where(
            Person.delegation_id.in_([d.id for d in delegations])))}
    if photos_read is not None:  # the photos to draw, read in a few queries rather than four each
        photos_read.update(file_store.read_many(key_of(f) for f in photos.values()
                                                if f.content_type in ("image/jpeg", "image/png")))
    out = []
    documents = export_documents(delegations)
    for d in delegations:
        doc = documents[d.id]
        unit = units.get(d.unit_code, d.unit_name or d.unit_code or "")
        roles: dict[str, list[str]] = {}
        played: dict[str, list[str]] = {}
        for e in doc["entries"]:
            ev = events.get(e["event"])
            label = f"{sports[ev.sport].name.zh}{ev.name.zh}" if ev else e["event"]
            for ref in entry_people(e):
                played.setdefault(ref, []).append(label)
        for section in ("officials", "staff"):
            for x in doc.get(section) or []:
                roles.setdefault(x["person"], []).append(x["role"])
        for c in doc.get("companions") or []:
            roles.setdefault(c["person"], []).append("companion")
        for p in doc["people"]:
            role = "athlete" if p["ref"] in played else (roles.get(p["ref"]) or ["staff"])[0]
            card = Card(d.id, p["ref"], p["name"], unit, role, played.get(p["ref"], []),
                        code=card_code(d.id, p["ref"], serials.get((d.id, p["ref"])) or ""))
            f = photos.get((d.id, p["ref"]))
            if f is None:
                card.photo_problem = Text("没有照片", "no photo")
            elif f.content_type not in ("image/jpeg", "image/png"):
                card.photo_problem = Text("照片不是图片文件（JPG 或 PNG）", "the photo is not an image (JPG or PNG)")
            else:
                key = key_of(f)
                card.photo_problem = _photo_problem(key, photos_read)
                if card.photo_problem is None:
                    card.photo_key = key
            out.append(card)
    return out


def _photo_problem(key: str, photos_read: dict[str, bytes] | None = None) -> Text | None:
    """Why a stored photo cannot go on a card, or None: missing, unreadable, too many pixels
    to decode safely (a photo stored before uploads were checked for it), or too small."""
    if key in _photo_problems:
        return _photo_problems[key]
    data = photos_read.get(key) if photos_read is not None else file_store.read(key)
    problem = Text("照片文件不见了，请重新上传", "the photo's file is missing: upload it again") if data is None \
        else _image_problem(data)
    if len(_photo_problems) < 20_000:  # keys name the content (its SHA-256): an answer never changes
        _photo_problems[key] = problem
    return problem


_photo_problems: dict[str, Text | None] = {}


def _image_problem(data: bytes) -> Text | None:
    from PIL import Image
    problem = image_problem(io.BytesIO(data))
    if problem is not None:
        return Text(*problem)
    try:
        with Image.open(io.BytesIO(data)) as im:
            w, h = im.size
    except OSError:
        return Text("照片文件损坏或无法读取", "the photo cannot be read")
    if w < MIN_PHOTO[0] or h < MIN_PHOTO[1]:
        return Text(f"照片太小（{w}×{h} 像素，至少 {MIN_PHOTO[0]}×{MIN_PHOTO[1]}）",
                    f"the photo is too small ({w}×{h} px, at least {MIN_PHOTO[0]}×{MIN_PHOTO[1]})")
    return None


def _photo_image(key: str, cache: dict, photos_read: dict[str, bytes]):
    """A stored photo as reportlab draws it, read once per document (or taken from what
    cards_for read)."""
    if key not in cache:
        data = photos_read.pop(key, None)
        cache[key] = _stored_photo_class()(key, data if data is not None else file_store.read(key) or b"")
    return cache[key]


@functools.cache
def _stored_photo_class():
    from reportlab.lib.utils import ImageReader

    class StoredPhoto(ImageReader):
        """reportlab names each image by a digest of its decoded pixels, so it would decode
        every photo only to name it; a JPEG is then embedded as it is (DCT), never decoded.
        A stored photo is named by its key (the SHA-256 of its content) instead."""

        def __init__(self, key: str, data: bytes):
            super().__init__(io.BytesIO(data))
            self.key = key

        def getRGBData(self):
            if self.jpeg_fh() is None:  # a PNG: its pixels are what the PDF holds
                return super().getRGBData()
            self._dataA = None  # no transparency in a JPEG
            return self.key.encode()
    return StoredPhoto


def cards_pdf(games, cards: list[Card], layout: str = "a4", photos_read: dict[str, bytes] | None = None) -> bytes:
    """8 cards (105 × 74 mm) to an A4 page with cut marks, or one card to an A6 page."""
    from reportlab.lib.colors import HexColor, white
    from reportlab.lib.pagesizes import A4, A6, landscape
    from reportlab.lib.units import mm
    from reportlab.pdfgen import canvas
    font = chinese_font()
    out = io.BytesIO()
    page = landscape(A6) if layout == "a6" else A4
    c = canvas.Canvas(out, pagesize=page, initialFontName=font)  # no unembedded Helvetica
    c.setTitle(f"{games.name_zh} 参赛证")
    w, h = (page[0], page[1]) if layout == "a6" else (105 * mm, A4[1] / 4)
    per_page = 1 if layout == "a6" else 8
    photos: dict = {}  # each photo read from the store and decoded once per document
    photos_read = {} if photos_read is None else photos_read

    def slot(i):
        if layout == "a6":
            return 0, 0
        col, row = i % 2, (i // 2) % 4
        return col * w, page[1] - (row + 1) * h

    for i, card in enumerate(cards):
        if i and i % per_page == 0:
            c.showPage()
        x, y = slot(i % per_page)
        zh, _en, colour = ROLES.get(card.role, ROLES["staff"])
        c.setFillColor(HexColor(colour))
        c.rect(x, y + h - 14 * mm, w, 14 * mm, stroke=0, fill=1)
        c.setFillColor(white)
        c.setFont(font, 9)
        c.drawString(x + 4 * mm, y + h - 6 * mm, games.name_zh[:40])
        c.setFont(font, 14)
        c.drawString(x + 4 * mm, y + h - 12 * mm, zh)
        c.setFillColor(HexColor("#000000"))
        px, py, pw, ph = x + 4 * mm, y + 6 * mm, 25 * mm, 35 * mm
        if card.photo_key:
            c.drawImage(_photo_image(card.photo_key, photos, photos_read), px, py, pw, ph, preserveAspectRatio=True, anchor="c")
        else:
            c.setStrokeColor(HexColor("#999999"))
            c.setLineWidth(0.5)
            c.rect(px, py, pw, ph, stroke=1, fill=0)
            c.setFont(font, 7)
            c.drawCentredString(px + pw / 2, py + ph / 2, "照片")
        c.setFont(font, 16)
        c.drawString(x + 33 * mm, y + h - 24 * mm, card.name[:12])
        c.setFont(font, 9)
        c.drawString(x + 33 * mm, y + h - 31 * mm, card.unit[:18])
        for k, ev in enumerate(card.events[:4]):
            c.drawString(x + 33 * mm, y + h - (37 + 5 * k) * mm, ev[:16])
        _qr(c, card.code, x + w - 27 * mm, y + 3 * mm, 24 * mm)
        if layout != "a6":
            _cut_marks(c, x, y, w, h, mm)
    if not cards:
        c.setFont(font, 12)
        c.drawString(20 * mm, page[1] - 30 * mm, "没有已批准的人员。")
    c.showPage()
    c.save()
    return out.getvalue()


def _qr(c, text: str, x: float, y: float, size: float) -> None:
    """A QR code (segno: the fastest pure-Python encoder, already the portal's for the
    two-factor QR) drawn on the canvas as one filled path, each run of dark modules in a row
    one rectangle, with the quiet zone of four modules the standard asks. The path is
    written in module units under one transformation, as PDF operators of whole numbers:
    reportlab's rect() formats four floats per run, which was a third of a Games' cards
    (reportlab's widget renderer would bring in an unembedded Helvetica)."""
    import segno
    # One mask, not the best of eight: scoring all eight was most of the encoding time, and
    # any mask reads (the standard lets the encoder choose; the desk test scans every card).
    matrix = segno.make(text, error="m", boost_error=False, mask=0).matrix
    n = len(matrix)
    cell = size / (n + 8)
    c.setFillColorRGB(1, 1, 1)
    c.rect(x, y, size, size, stroke=0, fill=1)
    runs = []
    for row, modules in enumerate(matrix):
        v = n + 3 - row  # rows run down the symbol, PDF's y up the page
        col = 0
        for dark, group in groupby(modules):
            length = len(tuple(group))
            if dark:
                runs.append(f"{col + 4} {v} {length} 1 re")
            col += length
    # q ... Q: the transformation and the black fill end with the code.
    c.addLiteral(f"q 0 g {cell:.4f} 0 0 {cell:.4f} {x:.4f} {y:.4f} cm {' '.join(runs)} f Q")


def _cut_marks(c, x, y, w, h, mm):
    c.setStrokeColorRGB(0.6, 0.6, 0.6)
    c.setLineWidth(0.3)
    for cx, cy in ((x, y), (x + w, y), (x, y + h), (x + w, y + h)):
        c.line(cx - 2 * mm, cy, cx + 2 * mm, cy)
        c.line(cx, cy - 2 * mm, cx, cy + 2 * mm)


def scan(code: str) -> dict:
    """What the desk sees for a scanned card: valid (with the person) or void, and why. Valid
    only for the very person the card was made for (his serial), in an approved delegation."""
    from ..delegations.models import Person
    found = read_code(code)
    if found is None:
        return {"status": "invalid"}
    delegation_id, ref, serial = found
    d = db.session.get(Delegation, delegation_id)
    if d is None:
        return {"status": "void", "why": "registration_gone"}
    current = db.session.scalar(select(Person.card_serial).where(Person.delegation_id == d.id, Person.ref == ref))
    person = None
    if serial is not None and current == serial:
        person = next((p for p in export_document(d)["people"] if p["ref"] == ref), None)
    if person is None:
        sub = db.session.scalar(select(Substitution).where(
            Substitution.delegation_id == d.id, Substitution.out_ref == ref, Substitution.status == SubstitutionStatus.APPROVED)
            .order_by(Substitution.id.desc()).limit(1))
        return {"status": "void", "why": "substituted" if sub else "not_registered", "delegation": d,
                "name": sub.out_name if sub else None, "replaced_by": (sub.in_person or {}).get("name") if sub else None}
    if d.status == DelegationStatus.WITHDRAWN:
        return {"status": "void", "why": "withdrawn", "delegation": d, "name": person["name"]}
    if d.status != DelegationStatus.APPROVED:
        # Returned or waiting again: the desk will not check the person in (issue 25, 13).
        return {"status": "void", "why": "not_approved", "delegation": d, "name": person["name"]}
    why = why_not_playing(d.games, [d])[d.id]  # as the draw and the results judge it
    if why is not None:
        return {"status": "void", "why": "not_playing", "reason": why, "delegation": d, "name": person["name"]}
    return {"status": "valid", "delegation": d, "person": person}


@job_kind("cards_pdf")
def cards_pdf_job(job, progress):
    """The cards of a whole Games (thousands of pages) made in the background."""
    games = games_of(job)
    progress(0, 2, force=True)
    photos_read: dict[str, bytes] = {}
    cards = cards_for(games, job.params.get("delegation"), photos_read)
    progress(1, 2, force=True)
    layout = "a6" if job.params.get("layout") == "a6" else "a4"
    content = cards_pdf(games, cards, layout, photos_read)
    progress(2, 2, force=True)
    return content, f"{games.slug}-cards-{layout}.pdf", "application/pdf"


def find_people(text: str, games_where=None, limit: int = 20) -> list[dict]:
    """The desk's search when there is no card to scan: approved people whose name contains
    the text, or whose identity number ends with it (four characters or more), in the Games
    `games_where` keeps (a clause on a Games id; the desk's own Games)."""
    from ..delegations.models import Person
    text = (text or "").strip()[:40]
    if not text:
        return []
    match = Person.name.contains(text, autoescape=True)
    if len(text) >= 4:
        match = match | Person.id_number.endswith(text.upper(), autoescape=True)
    rows = db.session.execute(
        select(Person.ref, Person.name, Person.id_number, Delegation.id, Delegation.unit_code, Delegation.unit_name,
               Games.name_zh, Games.name_en, Person.card_serial)
        .join(Delegation, Person.delegation_id == Delegation.id).join(Games, Delegation.games_id == Games.id)
        .where(Delegation.status == DelegationStatus.APPROVED, match,
               *(() if games_where is None else (games_where(Delegation.games_id),))).order_by(Person.name, Person.id).limit(limit)).all()
    units, units_en = unit_names(), unit_names("en")
    return [{"ref": ref, "name": name, "id_number": number, "delegation_id": did, "games": (games_zh, games_en),
             "unit": units.get(code, unit_name or code or ""), "unit_en": units_en.get(code, unit_name or code or ""),
             "code": card_code(did, ref, serial or "")}
            for ref, name, number, did, code, unit_name, games_zh, games_en, serial in rows]

