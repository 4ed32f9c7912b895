"""Personal data (PIPL art. 28: ID numbers and ID copies, many of them children's): who
sees full identity numbers, masking for everyone else, and a record of every look.

Leaders see their own delegation's numbers where they edit them; organisers where they
review; accountants never. Beside a masked number only the birth year is shown: the hidden
middle of a resident number is the county and the birth date, so a full birth date beside
the first and last four characters leaves about nine candidates (the check digit rules out
the rest). ID copies, photos and other personal files open for the same roles as full
numbers; an accountant opens only the files of money (insurance proof). Every view of a full record, download of a document or export
with identity numbers is written to the audit log: who, when, what, how many people."""
from __future__ import annotations

import re
from collections.abc import Iterable

from flask import request
from flask_login import current_user

from .audit.services import Actor, record_row
from .db_tx import write_transaction
from .roles import ORGANISERS, Role

FULL_ID_ROLES = (Role.LEADER, *ORGANISERS)
# Document kinds an accountant may open: what he reconciles, nothing that identifies.
ACCOUNTANT_FILE_KINDS = ("insurance_proof",)
# An 18-character resident ID (or 15-digit old one) inside a longer text, such as a message.
_ID_IN_TEXT = re.compile(r"(?<![0-9A-Za-z])(\d{17}[\dXx]|\d{15})(?![0-9A-Za-z])")


def mask_id(number: str | None) -> str:
    """Shown where the full number is not needed: 330102********1235."""
    if not number:
        return ""
    n = str(number)
    return n[:4] + "*" * max(len(n) - 8, 0) + n[-4:] if len(n) > 10 else n[:2] + "*" * max(len(n) - 4, 0) + n[-2:]


def mask_ids_in(text: str) -> str:
    return _ID_IN_TEXT.sub(lambda m: mask_id(m.group(1)), text or "")


def violation_message(v, en: bool, full_ids: bool) -> str:
    """A violation's message in the reader's language; the identity numbers it quotes masked
    for a reader who does not see whole numbers (an accountant)."""
    text = v.en if en else v.zh
    return text if full_ids else mask_ids_in(text)


def sees_full_ids() -> bool:
    return current_user.is_authenticated and current_user.role in FULL_ID_ROLES


def birth_year_only(day) -> str:
    """A birth date as shown beside a masked number: '2011'."""
    return str(day)[:4] if day else ""


def birth_date_shown(day, full_ids: bool | None = None) -> str:
    """The whole date for a reader who sees whole numbers (`full_ids`, when the page knows it)."""
    full = sees_full_ids() if full_ids is None else full_ids
    return (day.isoformat() if hasattr(day, "isoformat") else str(day)) if day and full else birth_year_only(day)


def may_open_file(kind: str | None) -> bool:
    if not current_user.is_authenticated:
        return False
    return current_user.role in FULL_ID_ROLES or (current_user.role == Role.ACCOUNTANT and kind in ACCOUNTANT_FILE_KINDS)


def masked_person(p: dict) -> dict:
    return {**p, "id_number": mask_id(p.get("id_number")) or None,
            "birth_date": birth_year_only(p.get("birth_date")) or None}


def masked_document(doc: dict) -> dict:
    """A delegation document with every identity number masked and birth dates cut to the
    year, so that the two cannot be put back together."""
    return {**doc, "people": [masked_person(p) for p in doc["people"]]}


def _actor() -> Actor:
    u = current_user
    return Actor(f"{u.display_name} ({u.username})", user_id=u.id, ip=request.remote_addr, role=u.role)


def record_access(action: str, people: Iterable[tuple[str, str]], *, delegation=None, what: str,
                  games_slug: str | None = None) -> None:
    """Write who looked at or exported whose personal data, and commit it at once (the
    look happened, whatever the request does next). `people`: (ref, name) pairs."""
    people = list(people)
    key = "、".join(f"{name}" for _ref, name in people[:10])
    if len(people) > 10:
        key += f" 等 {len(people)} 人"
    with write_transaction(keep_loaded=True):  # the page goes on with what it had read
        record_row(_actor(), action, "personal_data", key[:200] or None, delegation=delegation, games_slug=games_slug,
                   after={"what": what, "count": len(people), "refs": [ref for ref, _n in people[:500]]})
