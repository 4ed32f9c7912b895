"""Keeping personal data no longer than needed (PIPL art. 19): pending uploads that were
never confirmed go after a day; after a Games ends plus a retention period, its ID copies
and documents are deleted and identity numbers are cut to their masked form."""
from __future__ import annotations

import datetime as dt
import os
import time
from dataclasses import dataclass, field

from sqlalchemy import select
from sqlalchemy.exc import OperationalError, ProgrammingError

from . import file_store
from .audit.services import Actor, record
from .db_tx import write_transaction
from .delegations.files import UploadedFile, key_of
from .delegations.models import Delegation, Person
from .extensions import db
from .games.models import Games
from .games.services import definition_of
from .privacy import mask_id

PENDING_MAX_AGE = 24 * 3600


def purge_pending(instance_path: str, max_age: float = PENDING_MAX_AGE, now: float | None = None) -> int:
    """Delete pending uploads (documents a leader uploaded but never confirmed) and files
    made by background jobs (exports with people's data) older than `max_age` seconds;
    returns how many went."""
    now = now if now is not None else time.time()
    return purge_instance_files(instance_path, max_age, now) + purge_stored(max_age, now)


def purge_instance_files(instance_path: str, max_age: float = PENDING_MAX_AGE, now: float | None = None) -> int:
    """What an older portal left in this machine's instance folder (at start, before any app context)."""
    now = now if now is not None else time.time()
    return sum(_purge_folder(os.path.join(instance_path, name), max_age, now) for name in ("pending", "jobs"))


def purge_stored(max_age: float = PENDING_MAX_AGE, now: float | None = None) -> int:
    """The same in the shared file store (where every node keeps them now)."""
    before = dt.datetime.fromtimestamp((now if now is not None else time.time()) - max_age, dt.UTC)
    try:
        with write_transaction():
            return file_store.purge("pending/", before) + file_store.purge("jobs/", before)
    except (OperationalError, ProgrammingError):  # a database not yet upgraded (first start): nothing there
        db.session.rollback()
        return 0


def _purge_folder(folder: str, max_age: float, now: float) -> int:
    if not os.path.isdir(folder):
        return 0
    gone = 0
    for entry in os.scandir(folder):
        if entry.is_file() and now - entry.stat().st_mtime > max_age:
            try:
                os.remove(entry.path)
                gone += 1
            except FileNotFoundError:  # another worker got there first
                pass
    return gone


@dataclass
class RetentionReport:
    games: list[str] = field(default_factory=list)
    files: int = 0
    id_numbers: int = 0


def apply_retention(upload_folder: str, today: dt.date, keep_days: int, *, slug: str | None = None,
                    dry_run: bool = False, actor: Actor | None = None) -> RetentionReport:
    """For every Games (or the one named) that ended more than `keep_days` before `today`:
    delete its uploaded documents (rows and files) and mask its people's identity numbers.
    With `dry_run`, count and change nothing."""

    report = RetentionReport()
    actor = actor or Actor.cli()
    q = select(Games).order_by(Games.slug)
    if slug:
        q = q.where(Games.slug == slug)
    for games in db.session.scalars(q).all():
        ended = definition_of(games).dates.end
        if ended + dt.timedelta(days=keep_days) >= today:
            continue
        report.games.append(games.slug)
        delegation_ids = select(Delegation.id).where(Delegation.games_id == games.id)
        files = db.session.scalars(select(UploadedFile).where(UploadedFile.delegation_id.in_(delegation_ids))).all()
        people = db.session.scalars(select(Person).where(Person.delegation_id.in_(delegation_ids),
                                                         Person.id_number.is_not(None))).all()
        people = [p for p in people if "*" not in p.id_number]
        report.files += len(files)
        report.id_numbers += len(people)
        if dry_run:
            continue
        for f in files:
            file_store.delete(key_of(f))  # the bytes go with their row, in one transaction
            ext = {"application/pdf": "pdf", "image/jpeg": "jpg", "image/png": "png"}.get(f.content_type, "bin")
            try:  # a copy an older portal kept in this machine's instance folder (before 0029)
                os.remove(os.path.join(upload_folder, str(f.delegation_id), f"{f.sha256}.{ext}"))
            except FileNotFoundError:
                pass
            db.session.delete(f)
        for p in people:
            p.id_number = mask_id(p.id_number)
        record(actor, "retention.apply", "games", games.slug,
               after={"files_deleted": len(files), "id_numbers_masked": len(people), "keep_days": keep_days})
        db.session.commit()
    return report
