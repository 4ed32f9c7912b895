"""A request that changes something takes SQLite's write lock when its first transaction
begins (db_tx.writing_request_begin_immediate), and lets it go when it ends."""
from __future__ import annotations

from flask import Flask, g, request

from ..db_tx import end_writing_request, writing_request_begin_immediate
from ..extensions import db


def init(app: Flask) -> None:
    @app.before_request
    def writers_take_the_lock_first():
        if request.method not in ("GET", "HEAD", "OPTIONS"):
            g.begin_immediate = writing_request_begin_immediate()

    @app.teardown_request
    def writers_release(_exc=None):
        token = g.pop("begin_immediate", None)
        if token is not None:
            # What the request meant to keep is committed; a transaction still open holds
            # SQLite's write lock: end it here, not whenever the session happens to go.
            db.session.rollback()
            end_writing_request(token)
