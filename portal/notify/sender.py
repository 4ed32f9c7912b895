"""Sending the outbox (Flask-Mailman: SMTP in production; the embedded default writes each
message to a file under instance/mail and says where). Each message is claimed with one
conditional UPDATE before it is sent, so two senders never send it twice; a failure is
tried again later (1, 5, 30 minutes, 2 and 6 hours), then marked failed for the organisers
to see."""
from __future__ import annotations

import datetime as dt
import hashlib
import hmac
import time
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass

from flask import current_app
from flask_mailman import EmailMessage
from sqlalchemy import select, update

from .. import outbound
from ..extensions import db, mail
from ..games.models import utcnow
from .models import OutboxMessage, OutboxStatus

BACKOFF = (dt.timedelta(minutes=1), dt.timedelta(minutes=5), dt.timedelta(minutes=30), dt.timedelta(hours=2),
           dt.timedelta(hours=6))
BATCH = 100


def send_due(at: dt.datetime | None = None, limit: int = BATCH) -> dict[str, int]:
    """Send the messages due at `at` (now): how many were sent, retried later, failed.
    Webhooks are delivered beside the e-mail, each receiver in a thread of its own, so a
    slow receiver delays neither the mail nor any other receiver."""
    at = at or utcnow()
    due = db.session.execute(select(OutboxMessage.id, OutboxMessage.kind)
                             .where(OutboxMessage.status == OutboxStatus.PENDING, OutboxMessage.next_attempt_at <= at)
                             .order_by(OutboxMessage.id).limit(limit)).all()
    db.session.rollback()
    counts = {"sent": 0, "retry": 0, "failed": 0}
    if not due:
        return counts
    deliveries = _claimed_webhooks([m for m, kind in due if kind == "webhook"], at, counts)
    by_receiver: dict[str, list[_Delivery]] = {}
    for one in deliveries:
        by_receiver.setdefault(one.receiver, []).append(one)
    config = current_app.config
    allowed = outbound.allowed_networks(config.get("WEBHOOK_ALLOWED_NETWORKS"))
    deadline = float(config.get("WEBHOOK_DEADLINE") or 10)
    with ThreadPoolExecutor(max_workers=max(1, min(int(config.get("WEBHOOK_PARALLEL") or 8),
                                                   len(by_receiver) or 1))) as pool:
        posted = [pool.submit(_deliver_in_turn, group, deadline, allowed) for group in by_receiver.values()]
        _send_mail([m for m, kind in due if kind != "webhook"], at, counts)
        for future in posted:
            for delivery, error, postponed in future.result():
                if postponed:
                    _postpone(delivery.message_id, at, error)
                else:
                    _settle(delivery.message_id, delivery.attempts, error, at, counts, kind="webhook")
    return counts


def _claim(message_id: int) -> bool:
    """Claimed by one sender only."""
    table = OutboxMessage.__table__
    with db.engine.begin() as conn:
        return conn.execute(update(table).where(table.c.id == message_id, table.c.status == OutboxStatus.PENDING)
                            .values(status=OutboxStatus.SENDING, attempts=table.c.attempts + 1)).rowcount == 1


def _settle(message_id: int, attempts: int, error: str | None, at: dt.datetime, counts: dict[str, int], *,
            kind: str) -> None:
    """Sent, or tried again later (1, 5, 30 minutes, 2 and 6 hours), or failed."""
    if error is None:
        values = {"status": OutboxStatus.SENT, "sent_at": utcnow(), "last_error": None}
        if kind == "invitation":
            values["body"] = ""  # its one-time link is the person's alone: not kept once sent
        counts["sent"] += 1
    else:
        values = {"last_error": error[:500]}
        if attempts > len(BACKOFF):
            values["status"] = OutboxStatus.FAILED
            counts["failed"] += 1
        else:
            values.update(status=OutboxStatus.PENDING, next_attempt_at=at + BACKOFF[attempts - 1])
            counts["retry"] += 1
        current_app.logger.warning("message %s not sent: %s", message_id, values["last_error"])
    db.session.rollback()
    table = OutboxMessage.__table__
    with db.engine.begin() as conn:
        conn.execute(update(table).where(table.c.id == message_id).values(**values))


def _postpone(message_id: int, at: dt.datetime, why: str) -> None:
    """Not tried this round (its receiver just ran out of time): again in a minute, the
    attempt not counted."""
    table = OutboxMessage.__table__
    with db.engine.begin() as conn:
        conn.execute(update(table).where(table.c.id == message_id).values(
            status=OutboxStatus.PENDING, attempts=table.c.attempts - 1, next_attempt_at=at + BACKOFF[0], last_error=why[:500]))


def _send_mail(message_ids: list[int], at: dt.datetime, counts: dict[str, int]) -> None:
    connection = _connection() if message_ids else None
    for message_id in message_ids:
        if not _claim(message_id):
            continue
        message = db.session.get(OutboxMessage, message_id)
        error = None
        try:
            EmailMessage(subject=message.subject, body=message.body, to=[_address(message)],
                         from_email=current_app.config.get("MAIL_DEFAULT_SENDER"), connection=connection).send()
        except Exception as exc:
            error = f"{type(exc).__name__}: {exc}"
        _settle(message_id, message.attempts, error, at, counts, kind=message.kind)


@dataclass(frozen=True)
class _Delivery:
    message_id: int
    attempts: int
    url: str
    receiver: str
    body: bytes
    headers: dict[str, str]


def _claimed_webhooks(message_ids: list[int], at: dt.datetime, counts: dict[str, int]) -> list[_Delivery]:
    """Each due webhook message claimed and made ready to post (read here, in the sender's
    own session: the threads that post it touch no database)."""
    from .models import Webhook
    out = []
    for message_id in message_ids:
        if not _claim(message_id):
            continue
        message = db.session.get(OutboxMessage, message_id)
        hook = db.session.get(Webhook, int(message.to_name)) if message.to_name.isdigit() else None
        try:
            if hook is None or not hook.active:
                raise outbound.Unreachable("该 Webhook 已删除", "the webhook was removed")
            receiver = outbound.parse(hook.url).receiver
        except outbound.Unreachable as refused:
            _settle(message_id, message.attempts, refused.en, at, counts, kind="webhook")
            continue
        body = message.body.encode("utf-8")
        out.append(_Delivery(message_id, message.attempts, hook.url, receiver, body,
                             signed_headers(hook.secret, body, message.subject, message.id)))
    db.session.rollback()
    return out


def signed_headers(secret: str, body: bytes, event: str, delivery_id: int, at: int | None = None) -> dict[str, str]:
    """X-Portal-Signature: sha256=<HMAC-SHA256, with the webhook's secret, of
    "<X-Portal-Timestamp>." followed by the body>. The timestamp (Unix seconds, real time)
    is inside what is signed, so a receiver refuses a delivery replayed later."""
    stamp = str(int(time.time()) if at is None else at)
    signature = hmac.new(secret.encode(), stamp.encode() + b"." + body, hashlib.sha256).hexdigest()
    return {"Content-Type": "application/json", "X-Portal-Event": event, "X-Portal-Delivery": str(delivery_id),
            "X-Portal-Timestamp": stamp, "X-Portal-Signature": f"sha256={signature}"}


def _deliver_in_turn(group: list[_Delivery], deadline: float, allowed) -> list[tuple[_Delivery, str | None, bool]]:
    """One receiver's deliveries, one after the other; once it runs out of time, the rest
    wait for the next round rather than each take the whole deadline again."""
    out: list[tuple[_Delivery, str | None, bool]] = []
    late = None
    for one in group:
        if late is not None:
            out.append((one, f"waiting: {late}", True))
            continue
        try:
            status = outbound.post(one.url, one.body, one.headers, deadline=deadline, allowed=allowed)
            error = None if 200 <= status < 300 else f"answered {status}" + (
                " (redirects are not followed)" if 300 <= status < 400 else "")
        except outbound.Unreachable as refused:
            error = refused.en
            if refused.deadline:
                late = refused.en
        except Exception as exc:  # a thread's failure is the delivery's, never the sender's
            error = f"{type(exc).__name__}: {exc}"
        out.append((one, error, False))
    return out


def _connection():
    """A connection as the settings say now (Flask-Mailman reads them once, at start)."""
    config = current_app.config
    backend = config.get("MAIL_BACKEND") or "file"
    if backend == "smtp":
        return mail.get_connection(backend="smtp", host=config["MAIL_SERVER"], port=int(config["MAIL_PORT"]),
                                   username=config.get("MAIL_USERNAME"), password=config.get("MAIL_PASSWORD"),
                                   use_tls=bool(config.get("MAIL_USE_TLS")), use_ssl=bool(config.get("MAIL_USE_SSL")),
                                   timeout=config.get("MAIL_TIMEOUT"))
    if backend == "file":
        return mail.get_connection(backend="file", file_path=config["MAIL_FILE_PATH"])
    return mail.get_connection(backend=backend)


def _address(message: OutboxMessage) -> str:
    from email.utils import formataddr
    return formataddr((message.to_name, message.to_address)) if message.to_name else message.to_address


def retry(message: OutboxMessage) -> None:
    """An organiser sends a failed message again (after fixing the address, say)."""
    message.status, message.next_attempt_at, message.attempts = OutboxStatus.PENDING, utcnow(), 0


def send_again(message_id: int) -> bool:
    """A failed message queued to be sent again, in one transaction with the row locked (two
    clicks queue it once); False if it was not failed (sent since, or queued already)."""
    from ..db_tx import write_transaction
    with write_transaction():
        message = db.session.scalar(select(OutboxMessage).where(OutboxMessage.id == message_id).with_for_update())
        if message is None or message.status != OutboxStatus.FAILED:
            return False
        retry(message)
        return True
