"""Webhooks as an attacker would use them (issue 38, 1 and 2; issue 42, 1 and 4): an
organiser's URL never reaches this machine or its network, however it is written or
wherever it redirects; a slow receiver holds up no one else; a delivery can be told from a
replay; it carries no one's name; a Games has few of them, each URL once."""
from __future__ import annotations

import datetime as dt
import hashlib
import hmac
import http.server
import json
import socket
import threading
import time

import pytest
from builders import account, csrf_token, doc, individual, logged_in, person, stored

CHINA = dt.timezone(dt.timedelta(hours=8))

INSIDE = ["http://127.0.0.1/hook", "http://localhost:8080/hook", "http://[::1]/hook", "http://2130706433/hook",
          "http://127.1/hook", "http://0.0.0.0/hook", "http://127.0.0.1:6379/", "http://127.0.0.1:5432/",
          "http://169.254.169.254/latest/meta-data/", "http://10.0.0.7/hook", "http://192.168.1.1/hook",
          "http://172.16.0.1/hook", "http://100.64.0.1/hook", "http://[::ffff:127.0.0.1]/hook",
          "http://[64:ff9b::7f00:1]/hook", "http://[fd00::1]/hook", "http://0x7f000001/hook",
          "ftp://example.com/hook", "file:///etc/passwd", "gopher://127.0.0.1:6379/_INFO",
          "http://user:pw@example.com/hook", "http://exa mple.com/hook"]


class _Receiver:
    """A small HTTP server on the loopback that records what reaches it."""

    def __init__(self, status=200, headers=None, trickle: float | None = None):
        received = self.received = []

        class Handler(http.server.BaseHTTPRequestHandler):
            def do_POST(self):
                body = self.rfile.read(int(self.headers["Content-Length"]))
                received.append((dict(self.headers), body))
                if trickle is not None:  # a byte at a time, each well within a socket timeout
                    try:
                        for ch in b"HTTP/1.1 200 OK\r\nX-Slow: " + b"x" * 100:
                            self.wfile.write(bytes([ch]))
                            self.wfile.flush()
                            time.sleep(trickle)
                    except OSError:
                        return
                    return
                self.send_response(status)
                for k, v in (headers or {}).items():
                    self.send_header(k, v)
                self.send_header("Content-Length", "0")
                self.end_headers()

            def log_message(self, *args):
                pass

        self.server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.server.daemon_threads = True
        self.port = self.server.server_port
        threading.Thread(target=self.server.serve_forever, daemon=True).start()

    def close(self):
        self.server.shutdown()
        self.server.server_close()


@pytest.fixture
def receivers():
    made = []

    def make(**kw):
        made.append(_Receiver(**kw))
        return made[-1]
    yield make
    for r in made:
        r.close()


def _organiser(app, db):
    account("hook-org", "organiser", games=["nmsg-2019"])
    db.session.commit()
    return logged_in(app, "hook-org")


def _register(app, client, url):
    with app.app_context():
        page = client.get("/org/games/nmsg-2019/webhooks").get_data(as_text=True)
        return client.post("/org/games/nmsg-2019/webhooks", data={"csrf_token": csrf_token(page), "url": url})


def _delegation(db):
    return stored("nmsg-2019", doc("nmsg-2019", people=[person("p1", year=2019, name="陈立")],
                                   entries=[individual("chess.MI", "p1")]), dt.datetime(2019, 5, 1, tzinfo=CHINA))


def _hook_row(db, url, games_id):
    """A webhook stored as if its name had resolved to a public address when it was added
    (DNS can change afterwards): only the check at delivery stands between it and inside."""
    from portal.notify.models import Webhook
    row = Webhook(games_id=games_id, url=url, secret="s" * 48, created_by="t")
    db.session.add(row)
    db.session.commit()
    return row


def _queue(db, d, event="delegation.submitted"):
    from portal.notify.services import hook
    hook(d, event)
    db.session.commit()


def test_no_inside_address_is_accepted_at_registration(app, db):
    from portal.notify.models import Webhook
    organiser = _organiser(app, db)
    for url in INSIDE:
        answer = _register(app, organiser, url)
        assert answer.status_code == 422, url
        text = answer.get_data(as_text=True)
        assert "内部网络" in text or "https://" in text or "控制字符" in text, (url, text[-2000:])
    assert db.session.query(Webhook).count() == 0
    # A public address is taken (its name need not resolve yet: every delivery resolves it).
    assert _register(app, organiser, "https://results.example.cn/hooks/portal").status_code == 200
    db.session.rollback()
    assert db.session.query(Webhook).count() == 1


def test_a_name_that_resolves_inside_is_refused(app, db, monkeypatch):
    from portal import outbound
    real = socket.getaddrinfo

    def resolver(host, *args, **kwargs):
        if host == "internal.example.cn":
            return real("127.0.0.1", *args, **kwargs)
        return real(host, *args, **kwargs)
    monkeypatch.setattr(outbound.socket, "getaddrinfo", resolver)
    organiser = _organiser(app, db)
    answer = _register(app, organiser, "https://internal.example.cn/hook")
    assert answer.status_code == 422 and "内部网络" in answer.get_data(as_text=True)


def test_a_stored_hook_to_inside_is_not_delivered(app, db, receivers):
    """The check is made again at every delivery, after resolving the name."""
    from portal.notify.models import OutboxMessage
    from portal.notify.sender import send_due
    target = receivers()
    d = _delegation(db)
    for url in (f"http://127.0.0.1:{target.port}/hook", f"http://localhost:{target.port}/hook",
                f"http://2130706433:{target.port}/hook", f"http://127.1:{target.port}/hook"):
        _hook_row(db, url, d.games_id)
    _queue(db, d)
    counts = send_due()
    assert counts["sent"] == 0 and counts["retry"] == 4
    assert target.received == []
    errors = {m.last_error for m in db.session.query(OutboxMessage).filter_by(kind="webhook")}
    assert all("inside network" in e for e in errors), errors


def test_a_redirect_is_not_followed(app, db, receivers, monkeypatch):
    """A receiver the installation allows answers 302 to an inside address: the sender
    does not go there."""
    from portal.notify.models import OutboxMessage
    from portal.notify.sender import send_due
    inside = receivers()
    bouncer = receivers(status=302, headers={"Location": f"http://127.0.0.1:{inside.port}/steal"})
    monkeypatch.setitem(app.config, "WEBHOOK_ALLOWED_NETWORKS", "127.0.0.1/32")
    d = _delegation(db)
    _hook_row(db, f"http://127.0.0.1:{bouncer.port}/hook", d.games_id)
    _queue(db, d)
    assert send_due()["retry"] == 1
    assert len(bouncer.received) == 1 and inside.received == []
    assert "302" in db.session.query(OutboxMessage).filter_by(kind="webhook").one().last_error


def test_the_connection_goes_to_the_address_that_was_checked(app, db, receivers, monkeypatch):
    """DNS rebinding: the name is resolved once per delivery, and the request is made to
    that address (with the name as its Host), not resolved again by the HTTP client."""
    from portal import outbound
    from portal.notify.sender import send_due
    target = receivers()
    monkeypatch.setitem(app.config, "WEBHOOK_ALLOWED_NETWORKS", "127.0.0.1/32")
    answers = []
    real = socket.getaddrinfo

    def rebinding(host, port, *args, **kwargs):
        if host == "hooks.example.cn":
            # First the allowed address; any later look-up would give the metadata address.
            answers.append(host)
            address = "127.0.0.1" if len(answers) == 1 else "169.254.169.254"
            return real(address, port, *args, **kwargs)
        return real(host, port, *args, **kwargs)
    monkeypatch.setattr(outbound.socket, "getaddrinfo", rebinding)
    d = _delegation(db)
    _hook_row(db, f"http://hooks.example.cn:{target.port}/hook", d.games_id)
    _queue(db, d)
    assert send_due()["sent"] == 1
    assert len(answers) == 1
    headers, _body = target.received[0]
    assert headers["Host"] == f"hooks.example.cn:{target.port}"


def test_a_slow_receiver_holds_up_neither_the_mail_nor_another_receiver(app, db, receivers, monkeypatch):
    from portal.notify.models import OutboxMessage
    from portal.notify.sender import send_due
    slow = receivers(trickle=0.3)
    fast = receivers()
    monkeypatch.setitem(app.config, "WEBHOOK_ALLOWED_NETWORKS", "127.0.0.1/32")
    monkeypatch.setitem(app.config, "WEBHOOK_DEADLINE", 2.0)
    monkeypatch.setitem(app.config, "MAIL_BACKEND", "locmem")
    d = _delegation(db)
    _hook_row(db, f"http://127.0.0.1:{slow.port}/a", d.games_id)
    _hook_row(db, f"http://127.0.0.1:{fast.port}/b", d.games_id)
    _queue(db, d, "delegation.submitted")
    _queue(db, d, "delegation.approved")  # a second message to the slow receiver
    db.session.add(OutboxMessage(kind="submitted", to_address="lead@example.cn", to_name="陈明", subject="收到",
                                 body="已收到。", delegation_id=d.id, games_id=d.games_id))
    db.session.commit()
    started = time.monotonic()
    counts = send_due()
    took = time.monotonic() - started
    # One deadline for the slow receiver (not one per message, nor a socket timeout per byte).
    assert took < 2.0 + 1.5, took
    assert len(fast.received) == 2 and len(slow.received) == 1
    assert counts["sent"] == 3  # the fast receiver's two, and the mail
    rows = {(m.to_address, m.subject): m for m in db.session.query(OutboxMessage).filter_by(kind="webhook")}
    first = rows[(f"http://127.0.0.1:{slow.port}/a", "delegation.submitted")]
    second = rows[(f"http://127.0.0.1:{slow.port}/a", "delegation.approved")]
    assert first.status == "pending" and "did not answer within 2 s" in first.last_error and first.attempts == 1
    assert second.status == "pending" and second.attempts == 0 and second.last_error.startswith("waiting")


def test_a_delivery_signs_its_time(app, db, receivers, monkeypatch):
    """The signature covers "<timestamp>.<body>": the same body replayed later cannot carry
    a fresh timestamp without the secret."""
    from portal.notify.sender import send_due
    target = receivers()
    monkeypatch.setitem(app.config, "WEBHOOK_ALLOWED_NETWORKS", "127.0.0.1/32")
    d = _delegation(db)
    row = _hook_row(db, f"http://127.0.0.1:{target.port}/hook", d.games_id)
    _queue(db, d)
    before = int(time.time())
    send_due()
    headers, body = target.received[0]
    stamp = int(headers["X-Portal-Timestamp"])
    assert before - 1 <= stamp <= time.time() + 1
    expected = hmac.new(row.secret.encode(), f"{stamp}.".encode() + body, hashlib.sha256).hexdigest()
    assert headers["X-Portal-Signature"] == f"sha256={expected}"
    unsigned = hmac.new(row.secret.encode(), body, hashlib.sha256).hexdigest()
    assert headers["X-Portal-Signature"] != f"sha256={unsigned}"


def test_a_delivery_names_no_individual_entrant(app, db):
    """Issue 42 (1): a self-registered entrant's delegation is named by its id, never by
    the entrant's own name; a club keeps its name."""
    from portal.games.services import find_games
    from portal.notify.models import OutboxMessage
    from portal.workflow.services import new_delegation
    games = find_games("nmsg-2019")
    alone = new_delegation(games, None)
    alone.unit_name, alone.version = "张小明", 1
    club = new_delegation(games, {"name": "杭州棋院", "kind": "club"})
    club.version = 1
    db.session.add_all([alone, club])
    db.session.commit()
    _hook_row(db, "https://results.example.cn/hook", games.id)
    _queue(db, alone)
    _queue(db, club)
    bodies = [json.loads(m.body) for m in db.session.query(OutboxMessage).filter_by(kind="webhook")
              .order_by(OutboxMessage.id)]
    assert bodies[0]["delegation"] == {"id": alone.id, "unit": None, "status": "draft", "version": 1}
    assert "张小明" not in json.dumps(bodies[0], ensure_ascii=False)
    assert bodies[1]["delegation"]["unit"] == "杭州棋院"


def test_a_games_has_few_webhooks_each_url_once(app, db, monkeypatch):
    """Issue 42 (4): one URL once; a cap per Games; a URL stored twice (before the cap)
    still gets one delivery per event."""
    from portal.notify.models import OutboxMessage, Webhook
    monkeypatch.setitem(app.config, "WEBHOOKS_PER_GAMES", 3)
    organiser = _organiser(app, db)
    assert _register(app, organiser, "https://a.example.cn/hook").status_code == 200
    again = _register(app, organiser, "https://a.example.cn/hook")
    assert again.status_code == 422 and "已经登记过" in again.get_data(as_text=True)
    assert _register(app, organiser, "https://b.example.cn/hook").status_code == 200
    assert _register(app, organiser, "https://c.example.cn/hook").status_code == 200
    db.session.rollback()
    over = _register(app, organiser, "https://d.example.cn/hook")
    assert over.status_code == 422 and "最多登记 3 个" in over.get_data(as_text=True)
    assert db.session.query(Webhook).filter_by(active=True).count() == 3
    d = _delegation(db)
    _hook_row(db, "https://a.example.cn/hook", d.games_id)  # an old duplicate
    _queue(db, d)
    to = sorted(m.to_address for m in db.session.query(OutboxMessage).filter_by(kind="webhook"))
    assert to == ["https://a.example.cn/hook", "https://b.example.cn/hook", "https://c.example.cn/hook"]
