"""What the delegation pages (and the areas above) read of a delegation beside its document:
the delegation by id and the documents its people uploaded."""
from __future__ import annotations

from sqlalchemy import bindparam, select

from ..extensions import db
from ..sql_lists import ListStatement
from .files import UploadedFile
from .models import Delegation, DelegationStatus


def delegation(delegation_id: int | None) -> Delegation | None:
    return db.session.get(Delegation, delegation_id) if delegation_id else None


# Built once, bound per call (the people page and the person form read it on every visit).
# The page's refs bound as one parameter where the database can (sql_lists).
_FILES = ListStatement(lambda one_of: select(UploadedFile)
                       .where(UploadedFile.delegation_id == bindparam("delegation_id"), one_of(UploadedFile.person_ref, "refs"))
                       .order_by(UploadedFile.id))


def files_by_person(d, refs: list[str]) -> dict[str, list[UploadedFile]]:
    """The documents these people of the delegation uploaded, by person, oldest first: one query."""
    files: dict[str, list[UploadedFile]] = {}
    for f in db.session.scalars(_FILES(db.session), {"delegation_id": d.id, "refs": list(refs)}) if refs else []:
        files.setdefault(f.person_ref, []).append(f)
    return files


def files_of_person(d, ref: str | None) -> list[UploadedFile]:
    return files_by_person(d, [ref]).get(ref, []) if ref else []


def file_of(d, file_id: int) -> UploadedFile | None:
    """One uploaded file, if it is this delegation's (another's is as good as none)."""
    f = db.session.get(UploadedFile, file_id)
    return f if f is not None and f.delegation_id == d.id else None


def delegation_of(games, delegation_id: int | None) -> Delegation | None:
    """A delegation by id, if it is of these Games."""
    d = delegation(delegation_id)
    return d if d is not None and d.games_id == games.id else None


def approved_delegations(games) -> list[Delegation]:
    return db.session.scalars(select(Delegation).where(Delegation.games_id == games.id,
                                                       Delegation.status == DelegationStatus.APPROVED)
                              .order_by(Delegation.unit_code, Delegation.id)).all()


def latest_photo(d, ref: str) -> UploadedFile | None:
    """The person's latest photo a card can show (a JPEG or PNG)."""
    return db.session.scalar(select(UploadedFile).where(
        UploadedFile.delegation_id == d.id, UploadedFile.person_ref == ref, UploadedFile.kind == "photo",
        UploadedFile.content_type.in_(("image/jpeg", "image/png"))).order_by(UploadedFile.id.desc()).limit(1))


def delegation_units(games_ids: list[int]) -> list[tuple[int, str | None, str | None]]:
    """(id, unit code, unit name) of each delegation of these Games, to filter by."""
    return db.session.execute(
        select(Delegation.id, Delegation.unit_code, Delegation.unit_name)
        .where(Delegation.games_id.in_(games_ids)).order_by(Delegation.unit_code, Delegation.unit_name)).all()
