"""Sending the outbox (Flask-Mailman: SMTP in production; the embedded default writes each
message to a file under instance/mail and says where). Each message is claimed with one
conditional UPDATE before it is sent, so two senders never send it twice; a failure is
tried again later (1, 5, 30 minutes, 2 and 6 hours), then marked failed for the organisers
to see."""
from __future__ import annotations

import datetime as dt

from flask import current_app
from flask_mailman import EmailMessage
from sqlalchemy import select, update

from ..extensions import db, mail
from ..games.models import utcnow
from .models import OutboxMessage

BACKOFF = (dt.timedelta(minutes=1), dt.timedelta(minutes=5), dt.timedelta(minutes=30), dt.timedelta(hours=2),
           dt.timedelta(hours=6))
BATCH = 100


def send_due(at: dt.datetime | None = None, limit: int = BATCH) -> dict[str, int]:
    """Send the messages due at `at` (now): how many were sent, retried later, failed."""
    at = at or utcnow()
    table = OutboxMessage.__table__
    due = db.session.scalars(select(OutboxMessage.id).where(OutboxMessage.status == "pending",
                                                            OutboxMessage.next_attempt_at <= at)
                             .order_by(OutboxMessage.id).limit(limit)).all()
    db.session.rollback()
    counts = {"sent": 0, "retry": 0, "failed": 0}
    if not due:
        return counts
    connection = _connection()
    for message_id in due:
        with db.engine.begin() as conn:  # claimed by one sender only
            claimed = conn.execute(update(table).where(table.c.id == message_id, table.c.status == "pending")
                                   .values(status="sending", attempts=table.c.attempts + 1)).rowcount
        if claimed != 1:
            continue
        message = db.session.get(OutboxMessage, message_id)
        try:
            if message.kind == "webhook":
                _post_webhook(message)
            else:
                EmailMessage(subject=message.subject, body=message.body, to=[_address(message)],
                             from_email=current_app.config.get("MAIL_DEFAULT_SENDER"), connection=connection).send()
        except Exception as exc:
            attempts = message.attempts
            values = {"last_error": f"{type(exc).__name__}: {exc}"[:500]}
            if attempts > len(BACKOFF):
                values["status"] = "failed"
                counts["failed"] += 1
            else:
                values.update(status="pending", next_attempt_at=at + BACKOFF[attempts - 1])
                counts["retry"] += 1
            current_app.logger.warning("message %s not sent: %s", message_id, values["last_error"])
        else:
            values = {"status": "sent", "sent_at": utcnow(), "last_error": None}
            if message.kind == "invitation":
                values["body"] = ""  # its one-time link is the person's alone: not kept once sent
            counts["sent"] += 1
        db.session.rollback()
        with db.engine.begin() as conn:
            conn.execute(update(table).where(table.c.id == message_id).values(**values))
    return counts


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


def _post_webhook(message: OutboxMessage) -> None:
    """POST the event's JSON, signed: X-Portal-Signature: sha256=<HMAC of the body with the
    webhook's secret>. Anything but a 2xx answer is a failed attempt."""
    import hashlib
    import hmac
    import urllib.request

    from .models import Webhook
    hook = db.session.get(Webhook, int(message.to_name)) if message.to_name.isdigit() else None
    if hook is None or not hook.active:
        raise RuntimeError("the webhook was removed")
    body = message.body.encode("utf-8")
    signature = hmac.new(hook.secret.encode(), body, hashlib.sha256).hexdigest()
    request = urllib.request.Request(hook.url, data=body, method="POST", headers={
        "Content-Type": "application/json", "X-Portal-Event": message.subject,
        "X-Portal-Delivery": str(message.id), "X-Portal-Signature": f"sha256={signature}"})
    with urllib.request.urlopen(request, timeout=int(current_app.config.get("MAIL_TIMEOUT") or 30)) as answer:
        if not 200 <= answer.status < 300:
            raise RuntimeError(f"answered {answer.status}")


def _address(message: OutboxMessage) -> str:
    from email.utils import formataddr
    return formataddr((message.to_name, message.to_address)) if message.to_name else message.to_address


def retry(message: OutboxMessage) -> None:
    """An organiser sends a failed message again (after fixing the address, say)."""
    message.status, message.next_attempt_at, message.attempts = "pending", utcnow(), 0
