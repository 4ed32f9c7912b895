"""Recording changes. Callers pass an Actor; the record joins the caller's transaction."""
from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from ..bulk_insert import insert_rows
from ..extensions import db
from ..roles import Role
from .models import AuditLog

if TYPE_CHECKING:
    from ..delegations.models import Delegation


@dataclass(frozen=True)
class Actor:
    label: str
    user_id: int | None = None
    ip: str | None = None
    role: str | None = None

    @classmethod
    def cli(cls) -> Actor:
        return cls("命令行", role=Role.ORGANISER)  # in Chinese; read in the reader's language (sentences)


def record(actor: Actor, action: str, object_type: str, object_key: str | None = None, *,
           delegation: Delegation | None = None, before: Any = None, after: Any = None, reason: str | None = None) -> AuditLog:
    row = AuditLog(actor=actor.label, user_id=actor.user_id, ip=actor.ip, action=action,
                   object_type=object_type, object_key=object_key,
                   delegation_id=getattr(delegation, "id", None),
                   games_slug=delegation.games.slug if delegation is not None and delegation.games else None,
                   before=before, after=after, reason=reason)
    db.session.add(row)
    return row


_INSERT = AuditLog.__table__.insert()  # built once: every person form a leader opens writes one


def record_row(actor: Actor, action: str, object_type: str, object_key: str | None = None, *,
               delegation: Delegation | None = None, games_slug: str | None = None, before: Any = None,
               after: Any = None) -> None:
    """record() as one INSERT without the ORM's unit of work, for a record nothing in the
    transaction reads back: a look at personal data, written on every person form opened,
    and a delegation's save (the unit of work cost more than the rest of the record)."""
    db.session.execute(_INSERT, {
        "actor": actor.label, "user_id": actor.user_id, "ip": actor.ip, "action": action, "object_type": object_type,
        "object_key": object_key, "delegation_id": getattr(delegation, "id", None),
        "games_slug": (delegation.games.slug if delegation is not None and delegation.games else None) or games_slug,
        "before": before, "after": after, "reason": None})


def record_many(actor: Actor, action: str, object_type: str, items: list[tuple]) -> None:
    """record() of many objects at once (a bank statement's payments), in batches: each
    item is (object key, delegation id, Games slug, after)."""
    rows = [{"actor": actor.label, "user_id": actor.user_id, "ip": actor.ip, "action": action, "object_type": object_type,
             "object_key": key, "delegation_id": delegation_id, "games_slug": slug, "after": after}
            for key, delegation_id, slug, after in items]
    insert_rows(AuditLog.__table__, rows)


def document_changes(before: dict | None, after: dict) -> list[dict]:
    """Per-item differences between two delegation documents (for the audit and the diff
    view): people by ref, entries by event and team, and the other sections whole."""
    before = before or {}
    changes = []

    def keyed(doc, section, key):
        return {key(x): x for x in doc.get(section) or []}

    for section, key, kind in (
        ("people", lambda p: p.get("ref"), "person"),
        ("entries", lambda e: f"{e.get('event')}#{e.get('team') or ''}", "entry"),
        ("declarations", lambda d: d.get("event"), "declaration"),
    ):
        old, new = keyed(before, section, key), keyed(after, section, key)
        for k in list(dict.fromkeys(list(old) + list(new))):
            if old.get(k) != new.get(k):
                changes.append({"type": kind, "key": k, "before": old.get(k), "after": new.get(k)})
    for section in ("officials", "staff", "companions", "unit"):
        if before.get(section) != after.get(section):
            changes.append({"type": section, "key": None, "before": before.get(section),
                            "after": after.get(section)})
    return changes
