"""Tables that are never updated or deleted through the application (the audit log, the
ledger): a mistake is corrected by a further record."""
from __future__ import annotations

from sqlalchemy import event
from sqlalchemy.orm import Session

_MODELS: set[type] = set()


def append_only(model: type) -> type:
    _MODELS.add(model)
    return model


@event.listens_for(Session, "before_flush")
def _refuse_changes(session, flush_context, instances):
    for obj in list(session.dirty) + list(session.deleted):
        if type(obj) in _MODELS and (obj in session.deleted or session.is_modified(obj)):
            raise RuntimeError(f"the {type(obj).__tablename__} table is append-only")
