"""For the load balancer: /healthz (the process answers) and /readyz (the database and
Redis answer, and the schema is at the migrations' head). Cheap, unauthenticated, never
rate-limited, and saying nothing beyond which of the three is failing."""
from __future__ import annotations

import os

from flask import Flask, current_app, jsonify

from ..cli_support import schema_current as _schema_current
from ..extensions import db, limiter


def _redis_answers() -> bool:
    url = current_app.config.get("REDIS_URL") or os.environ.get("REDIS_URL")
    if not url:
        return True  # one machine, limits in memory: nothing to reach
    from redis import Redis
    try:
        return bool(Redis.from_url(url, socket_connect_timeout=1, socket_timeout=1).ping())
    except Exception:  # any failure to answer is "not ready"
        return False


def init(app: Flask) -> None:
    @app.get("/healthz")
    @limiter.exempt
    def healthz():
        return "ok\n", 200, {"Content-Type": "text/plain; charset=utf-8", "Cache-Control": "no-store"}

    @app.get("/readyz")
    @limiter.exempt
    def readyz():
        failing = []
        try:
            if not _schema_current():
                failing.append("migrations")
        except Exception:  # the database does not answer
            failing.append("database")
        finally:
            db.session.remove()
        if not _redis_answers():
            failing.append("redis")
        return jsonify(ready=not failing, failing=failing), 503 if failing else 200
