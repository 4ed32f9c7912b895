"""What one worker computed from a delegation's rows, shared with every other worker of
every node through Redis: its stored document, and its judgement. On deadline night a save
and the page it leads to, or a leader and his co-leader, are served by different workers;
without this, each of them read and judged the delegation again.

Values hold people's identity numbers, so they are sealed (portal.sealed.seal_blob:
authenticated encryption under a key derived from SECRET_KEY) before they leave the process: Redis, and
any snapshot it writes, holds nothing readable, and a value that is not this install's, or
was altered, is a miss, never unpickled. A key names exactly what its value was computed
from (judged.py), so a value is never stale, only unused; it expires after TTL seconds.
With the thread backend (one process, no Redis) it does nothing; with Redis out of reach,
a page waits for it a quarter of a second at most, then its process does without it for
half a minute."""
from __future__ import annotations

import hashlib
import time

from flask import current_app
from redis.exceptions import RedisError

from ..jobs.services import redis_client
from ..sealed import seal_blob, unseal_blob

TTL = 3600
PURPOSE = "shared delegation cache"
WAIT = 0.25  # seconds a page waits for Redis before computing the value itself
PAUSE = 30  # after Redis failed to answer, this process computes alone for that many seconds
_unreachable_until = [0.0]


def _name(kind: str, key: tuple) -> str:
    database = current_app.config.get("SQLALCHEMY_DATABASE_URI", "")
    digest = hashlib.sha256(repr((str(database), key)).encode()).hexdigest()[:40]
    return f"portal:{kind}:{digest}"


def _client():
    if time.monotonic() < _unreachable_until[0]:
        return None
    return redis_client(WAIT)


def _unreachable() -> None:
    _unreachable_until[0] = time.monotonic() + PAUSE


def fetch(kind: str, key: tuple) -> bytes | None:
    client = _client()
    if client is None:
        return None
    try:
        token = client.get(_name(kind, key))
    except (RedisError, OSError):
        _unreachable()  # computed here, as without Redis
        return None
    return unseal_blob(token, PURPOSE, TTL) if token else None


def store(kind: str, key: tuple, blob: bytes) -> None:
    client = _client()
    if client is None:
        return
    try:
        client.set(_name(kind, key), seal_blob(blob, PURPOSE), ex=TTL)
    except (RedisError, OSError):
        _unreachable()
