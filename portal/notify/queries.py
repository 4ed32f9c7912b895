"""What the organisers' outbox and webhook pages read (their Games' only)."""
from __future__ import annotations

from sqlalchemy import func, select

from ..access import scope
from ..extensions import db
from .models import OutboxMessage, Webhook

SHOWN = 200


def outbox(status: str = "") -> tuple[list[OutboxMessage], dict[str, int]]:
    """The latest messages of the reader's Games (of one status, if given) and how many
    there are of each status."""
    mine = scope.games_clause(OutboxMessage.games_id)
    q = select(OutboxMessage).where(mine)
    if status:
        q = q.where(OutboxMessage.status == status)
    messages = db.session.scalars(q.order_by(OutboxMessage.id.desc()).limit(SHOWN)).all()
    counts = dict(db.session.execute(select(OutboxMessage.status, func.count()).where(mine)
                                     .group_by(OutboxMessage.status)).all())
    return messages, counts


def message(message_id: int) -> OutboxMessage | None:
    """A message of the reader's Games (another's is as good as none)."""
    row = db.session.get(OutboxMessage, message_id)
    return row if row is not None and scope.may_see(row.games_id) else None


def webhooks(games) -> list[Webhook]:
    return db.session.scalars(select(Webhook).where(Webhook.games_id == games.id, Webhook.active.is_(True))
                              .order_by(Webhook.id)).all()


def webhook_of(games, webhook_id: int) -> Webhook | None:
    row = db.session.get(Webhook, webhook_id)
    return row if row is not None and row.games_id == games.id else None
