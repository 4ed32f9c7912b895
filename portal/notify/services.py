"""Queueing messages: rendered from templates/mail/<kind>.txt in each recipient's language
(first line "Subject: ...", then the plain-text body), written to the outbox in the
caller's transaction, so that a change and the message telling of it commit or roll back
together. Sending is sender.py's."""
from __future__ import annotations

from flask import current_app
from sqlalchemy import select

from ..delegations.models import Delegation
from ..extensions import db
from ..header_text import address_problem, one_line
from .models import OutboxMessage

KINDS = ("submitted", "returned", "approved", "substitution_decided", "extension_granted", "amendment",
         "invitation", "reminder", "digest", "payment_matched", "payment_unmatched", "deposit", "account_locked",
         "event_short")


# What each webhook event is, in words, where a person reads the outbox.
WEBHOOK_EVENTS = {"delegation.submitted": ("报名已提交", "entry submitted"), "delegation.approved": ("报名已批准", "entry approved"),
                  "substitution.decided": ("更换已审批", "substitution decided"),
                  "payment.matched": ("款项已匹配", "payment matched"), "payment.unmatched": ("款项已撤回", "payment taken back")}


def recipients_of(d: Delegation, reminder: bool = False) -> list[tuple[str, str, str]]:
    """(address, name, language) of whoever speaks for the delegation: its leaders with an
    address, and the unit's contact (in Chinese). A `reminder` skips leaders who turned
    reminders off."""
    from ..accounts.models import User
    out, seen = [], set()
    q = select(User).where(User.delegation_id == d.id, User.active.is_(True), User.email.is_not(None))
    if reminder:
        q = q.where(User.reminders.is_(True))
    for user in db.session.scalars(q.order_by(User.id)):
        if user.email.lower() not in seen:
            seen.add(user.email.lower())
            out.append((user.email, user.display_name, user.lang or "zh"))
    if d.contact_email and d.contact_email.lower() not in seen:
        out.append((d.contact_email, d.unit_name or "", "zh"))
    return out


def render(kind: str, lang: str, **context) -> tuple[str, str]:
    """(subject, plain-text body) of a message, in `lang`."""
    if kind not in KINDS:
        raise ValueError(f"unknown message kind {kind!r}")
    # The template itself, without the pages' context (no request, no logged-in reader here:
    # a message is written inside a service, often on the server's command line).
    lang = lang if lang in ("zh", "en") else "zh"
    text = current_app.jinja_env.get_template(f"mail/{kind}.txt").render(
        lang=lang, public_url=current_app.config.get("PUBLIC_URL") or "", **context)
    first, _sep, body = text.lstrip().partition("\n")
    return one_line(first.removeprefix("Subject:"))[:300], body.strip() + "\n"


def queue(kind: str, to: list[tuple[str, str, str]], *, delegation: Delegation | None = None,
          dedupe: str | None = None, **context) -> list[OutboxMessage]:
    """A message of `kind` to each of `to` (address, name, language), in the caller's
    transaction. `dedupe`: a message already queued under this key (and address) is not
    queued again."""
    made = []
    for address, name, lang in to:
        if address_problem(address):  # stored before addresses were checked: never a header
            continue
        name = one_line(name)
        key = f"{dedupe}:{address.lower()}"[:200] if dedupe else None
        if key and db.session.scalar(select(OutboxMessage.id).where(OutboxMessage.dedupe_key == key)):
            continue
        subject, body = render(kind, lang, name=name, delegation=delegation, **context)
        message = OutboxMessage(kind=kind, dedupe_key=key, to_address=address, to_name=(name or "")[:100], lang=lang,
                                subject=subject, body=body, delegation_id=getattr(delegation, "id", None),
                                games_id=getattr(delegation, "games_id", None))
        db.session.add(message)
        made.append(message)
    return made


def tell_delegation(d: Delegation, kind: str, *, dedupe: str | None = None, **context) -> list[OutboxMessage]:
    """Queue a message of `kind` to everyone who speaks for `d`."""
    from ..games.services import definition_of
    definition = definition_of(d.games)
    return queue(kind, recipients_of(d, reminder=kind == "reminder"), delegation=d, dedupe=dedupe, games=definition,
                 unit=_unit_name(d), **context)


def _unit_name(d: Delegation) -> tuple[str, str]:
    if not d.unit_code:
        return d.unit_name or "", d.unit_name or ""
    from ..games.models import Unit
    row = db.session.scalar(select(Unit).where(Unit.code == d.unit_code))
    return (row.name_zh, row.name_en) if row else (d.unit_code, d.unit_code)



def webhooks_of(games_id: int) -> list:
    from .models import Webhook
    return list(db.session.scalars(select(Webhook).where(Webhook.games_id == games_id, Webhook.active.is_(True))))


def hook(d: Delegation, event: str, hooks: list | None = None, **data) -> int:
    """A signed POST to each webhook URL of the delegation's Games, queued in the caller's
    transaction and sent (with the e-mail's retries) by the sender: once per URL and event,
    however many times the URL was registered. The body names the delegation and what
    happened; no one's personal data (a receiver reads it through the API, with a token of
    its own): the unit's name only where the unit is an organisation, never an individual
    entrant's own name."""
    import json

    from ..clock import now
    hooks = webhooks_of(d.games_id) if hooks is None else hooks
    sent_to: set[str] = set()
    for h in hooks:
        if h.url in sent_to:
            continue
        sent_to.add(h.url)
        unit = d.unit_code or (d.unit_name if d.unit_kind != "individual" else None)
        body = {"event": event, "at": now().isoformat(), "games": d.games.slug,
                "delegation": {"id": d.id, "unit": unit, "status": str(d.status), "version": d.version}, **data}
        db.session.add(OutboxMessage(kind="webhook", to_address=h.url, to_name=str(h.id), lang="", subject=event,
                                     body=json.dumps(body, ensure_ascii=False), delegation_id=d.id,
                                     games_id=d.games_id))
    return len(sent_to)


def add_webhook(games_id: int, games_slug: str, url: str, actor) -> tuple:
    """An organiser registers a URL for his Games; its signing secret is shown once. Only
    a public http(s) address (outbound.py: checked again at every delivery), once per
    Games, and at most WEBHOOKS_PER_GAMES of them."""
    import secrets

    from flask import current_app

    from .. import outbound
    from ..audit.services import record
    from ..db_tx import lock_row, write_transaction
    from ..games.models import Games
    from ..outcome import Refusal
    from .models import Webhook
    url = (url or "").strip()
    try:
        outbound.checked_address(outbound.parse(url),
                                 outbound.allowed_networks(current_app.config.get("WEBHOOK_ALLOWED_NETWORKS")),
                                 resolve_strictly=False)
    except outbound.Unreachable as refused:
        raise Refusal.of_field("url", refused.zh, refused.en) from None
    with write_transaction():
        lock_row(Games, games_id)  # two organisers at once: the cap holds
        urls = list(db.session.scalars(select(Webhook.url).where(Webhook.games_id == games_id,
                                                                 Webhook.active.is_(True))))
        if url in urls:
            raise Refusal.of_field("url", "这个网址已经登记过了", "This address is registered already")
        cap = int(current_app.config.get("WEBHOOKS_PER_GAMES") or 10)
        if len(urls) >= cap:
            raise Refusal.of_field("url", f"每届比赛最多登记 {cap} 个网址：请先删除一个不用的",
                          f"At most {cap} addresses per Games: remove one no longer used first")
        secret = secrets.token_hex(24)
        row = Webhook(games_id=games_id, url=url, secret=secret, created_by=actor.label)
        db.session.add(row)
        db.session.flush()
        record(actor, "webhook.add", "webhook", url[:200], after={"games": games_slug}).games_slug = games_slug
        return row, secret


def remove_webhook(row, actor) -> None:
    from ..audit.services import record
    from ..db_tx import write_transaction
    with write_transaction():
        row.active = False
        record(actor, "webhook.remove", "webhook", row.url[:200])
