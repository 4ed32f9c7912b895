"""The database out of reach in mid-request (a failover, a restart, SQLite locked too long):
a 503 page in words that keeps what was typed and offers to send it again, never a bare 500
(issue 19, 9). Nothing of the request was committed: its transaction died with the
connection, so sending again is safe."""
from __future__ import annotations

from flask import Flask, render_template, request
from sqlalchemy.exc import DBAPIError, InterfaceError, OperationalError

from .extensions import db

RETRY_AFTER_SECONDS = 5
MAX_FIELDS_KEPT = 2000  # a form with more is not offered again (bounded work per request)
MAX_VALUE_CHARS = 100_000


def is_connection_lost(exc: BaseException) -> bool:
    if isinstance(exc, (OperationalError, InterfaceError)):
        return True
    return isinstance(exc, DBAPIError) and bool(getattr(exc, "connection_invalidated", False))


def init_unavailable(app: Flask) -> None:
    @app.errorhandler(DBAPIError)
    def database_unavailable(exc):
        if not is_connection_lost(exc):
            raise exc  # a real bug: the ordinary 500, with its traceback in the log
        app.logger.error("database unavailable during %s %s: %s", request.method, request.path, exc)
        try:
            db.session.rollback()
        except DBAPIError:
            pass
        headers = {"Retry-After": str(RETRY_AFTER_SECONDS)}
        if request.path.startswith("/api/"):
            from .rules.violations import report, schema_error
            return report(None, None, [schema_error(
                "", "数据库暂时无法连接，请求没有执行，请稍后重试", "the database is unavailable; nothing was done, "
                "try again shortly")]), 503, headers
        fields = []
        if request.method == "POST":
            fields = [(k, v[:MAX_VALUE_CHARS]) for k, values in request.form.lists() for v in values
                      if k != "csrf_token"][:MAX_FIELDS_KEPT + 1]
        return render_template("errors/unavailable.html", posted=request.method == "POST",
                               fields=fields if len(fields) <= MAX_FIELDS_KEPT else None,
                               had_files=any(f.filename for f in request.files.values()),
                               action=request.full_path.rstrip("?"), seconds=RETRY_AFTER_SECONDS), 503, headers
