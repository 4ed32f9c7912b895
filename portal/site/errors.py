"""Error pages in words (and JSON reports under /api/): 400, 403, 404, 405, 413, 429 with
when to try again, and a form whose CSRF token expired."""
from __future__ import annotations

import time

from flask import Flask, render_template, request
from flask.globals import request_ctx
from flask_wtf.csrf import CSRFError
from werkzeug.exceptions import default_exceptions

from ..extensions import limiter
from ..rules.violations import report, schema_error

ERROR_TEXTS = {
    400: ("请求无效", "bad request"),
    403: ("无权访问", "forbidden"),
    404: ("找不到该页面", "not found"),
    405: ("不支持该请求方法", "method not allowed"),
    413: ("上传的内容太大", "the request body is too large"),
    429: ("请求过于频繁，请稍后再试", "too many requests; try again later"),
}


def _retry_after() -> int:
    """Seconds until the limit that refused this request lets the next one through."""
    try:
        current = limiter.current_limit
        if current is not None:
            return max(1, int(current.reset_at - time.time()))
    except Exception:
        pass
    return 60


def error_page(e, code: int):
    if request_ctx.url_adapter is None:
        # The Host header is not one of ours (TRUSTED_HOSTS): no page, no links to build.
        # Nor a session to read the reader's language from: his browser's says it.
        en = request.accept_languages.best_match(["zh", "en"], "zh") == "en"
        words = "this host is not served here\n" if en else "请求的主机名不属于本系统\n"
        return words, code, {"Content-Type": "text/plain; charset=utf-8", "Content-Language": "en" if en else "zh"}
    if request.path.startswith("/api/"):
        zh, en = ERROR_TEXTS.get(code, ("请求无效", "bad request"))
        headers = {"Retry-After": str(_retry_after())} if code == 429 else {}
        return report(None, None, [schema_error("", zh, en)]), code, headers
    default = getattr(default_exceptions.get(code), "description", None)
    detail = getattr(e, "description", None)
    retry = None
    if code == 429:
        detail = None  # the limiter's own words ("10 per 1 minute") are not for people
        retry = _retry_after()
    return (render_template("errors/error.html", code=code, retry=retry,
                            detail=detail if detail and detail != default else None), code,
            {"Retry-After": str(retry)} if retry else {})


def init(app: Flask) -> None:
    for code in (400, 403, 404, 405, 413, 429):
        app.register_error_handler(code, lambda e, c=code: error_page(e, c))

    @app.errorhandler(CSRFError)
    def csrf_error(e):
        return render_template("errors/error.html", code=400, csrf=True), 400
