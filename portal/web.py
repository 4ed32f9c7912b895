"""Application-wide web pieces: home, language switch, template helpers, error pages,
security headers."""
from __future__ import annotations

import datetime as dt
import re
import time
from urllib.parse import urlsplit

from flask import Blueprint, Flask, redirect, render_template, request, session, url_for
from flask_babel import Babel, get_locale
from flask_login import LoginManager, current_user

from .extensions import db
from .privacy import mask_id, mask_ids_in, sees_full_ids
from .rules.engine import CHINA

bp = Blueprint("web", __name__)
LANGS = ("zh", "en")


def select_locale() -> str:
    lang = session.get("lang")
    return lang if lang in LANGS else "zh"


def safe_next(target: str | None, default: str = "/") -> str:
    """A `next` (or referrer path) only when it stays on this site: a path beginning with one
    "/", with no scheme, host, backslash or control character (browsers drop tabs and
    newlines, so "/\t/evil.example" would become "//evil.example")."""
    if not target or not target.startswith("/") or target.startswith("//"):
        return default
    if "\\" in target or any(ord(c) < 32 or ord(c) == 127 for c in target):
        return default
    parts = urlsplit(target)
    if parts.scheme or parts.netloc:
        return default
    return target


@bp.post("/lang")
def set_language():
    lang = request.form.get("lang")
    if lang in LANGS:
        session["lang"] = lang
    return redirect(safe_next(request.form.get("next")))


_CJK = re.compile(r"[\u4e00-\u9fff]")


def china_time(value: dt.datetime | None, fmt: str = "%Y-%m-%d %H:%M") -> str:
    if value is None:
        return ""
    if value.tzinfo is None:
        value = value.replace(tzinfo=dt.timezone.utc)
    return value.astimezone(CHINA).strftime(fmt)


def time_left(closes: dt.datetime | None, now: dt.datetime) -> str:
    if closes is None:
        return ""
    seconds = int((closes - now).total_seconds())
    zh = str(get_locale()) != "en"
    if seconds <= 0:
        return "已截止" if zh else "closed"
    days, rest = divmod(seconds, 86400)
    hours, rest = divmod(rest, 3600)
    minutes = rest // 60
    if days:
        return f"{days} 天 {hours} 小时" if zh else f"{days} d {hours} h"
    return f"{hours} 小时 {minutes} 分" if zh else f"{hours} h {minutes} min"


def init_web(app: Flask) -> None:
    Babel(app, locale_selector=select_locale, default_translation_directories="../translations")
    login = LoginManager(app)
    login.login_view = "accounts.login"
    login.login_message = None

    @login.user_loader
    def load_user(session_id):
        # "id:session_version": a session from before a logout, a password change or a
        # disabled account carries an old version and is no longer anyone's.
        from .accounts.models import User
        user_id, _sep, version = str(session_id).partition(":")
        if not user_id.isdigit() or not version.isdigit():
            return None
        user = db.session.get(User, int(user_id))
        if user is None or user.session_version != int(version):
            return None
        return user

    @app.before_request
    def writers_take_the_lock_first():
        from flask import g
        from .db_tx import writing_request_begin_immediate
        if request.method not in ("GET", "HEAD", "OPTIONS"):
            g.begin_immediate = writing_request_begin_immediate()

    @app.teardown_request
    def writers_release(_exc=None):
        from flask import g
        from .db_tx import end_writing_request
        token = g.pop("begin_immediate", None)
        if token is not None:
            # What the request meant to keep is committed; a transaction still open holds
            # SQLite's write lock: end it here, not whenever the session happens to go.
            db.session.rollback()
            end_writing_request(token)

    @app.before_request
    def session_timeouts():
        """Idle and absolute session lifetimes (real time, not the demo clock)."""
        if "_user_id" not in session:
            return None
        from flask_login import logout_user
        t = time.time()
        started, seen = session.get("auth_at"), session.get("seen_at")
        idle = app.config["SESSION_IDLE_MINUTES"] * 60
        absolute = app.config["SESSION_ABSOLUTE_HOURS"] * 3600
        if started is None or seen is None or t - seen > idle or t - started > absolute:
            logout_user()
            for key in ("auth_at", "seen_at"):
                session.pop(key, None)
            session["timed_out"] = True
            return None
        if t - seen > 60:  # refresh at most once a minute: fewer cookie rewrites
            session["seen_at"] = t
        return None

    # Templates loop over hundreds of rows: no indentation and blank lines shipped per row.
    app.jinja_env.trim_blocks = True
    app.jinja_env.lstrip_blocks = True
    app.jinja_env.filters["mask_id"] = mask_id
    app.jinja_env.filters["china_time"] = china_time
    from .rules.engine import format_deadline
    app.jinja_env.filters["deadline"] = lambda v: format_deadline(v) if v else ""
    from .rules.standings import shown as exact_shown
    app.jinja_env.filters["exact"] = exact_shown  # an exact Fraction printed: 26, 6.5, 8.33

    def in_language(text) -> str:
        """A service message written "中文 / English" (check-in, meeting, photos): the half
        in the reader's language; any other text as it is."""
        text = str(text or "")
        if " / " not in text:
            return text
        zh, en = text.split(" / ", 1)
        if not _CJK.search(zh) or _CJK.search(en):
            return text
        return en if str(get_locale()) == "en" else zh
    app.jinja_env.filters["in_language"] = in_language

    @app.context_processor
    def helpers():
        lang = str(get_locale())
        def unit_name(d, field):
            # All units in one query per request, whatever the number of rows that ask.
            from flask import g
            from sqlalchemy import select
            from .games.models import Unit
            if "unit_names" not in g:
                g.unit_names = {u.code: u for u in db.session.scalars(select(Unit))}
            row = g.unit_names.get(d.unit_code) if d.unit_code else None
            return getattr(row, field) if row else (d.unit_name or d.unit_code or "")
        def msg(v):
            text = v.en if lang == "en" else v.zh
            # Messages quote identity numbers; an accountant reads them masked.
            return text if sees_full_ids() else mask_ids_in(text)
        return {"lang": lang, "msg": msg, "full_ids": sees_full_ids(),
                "t": lambda zh, en: en if lang == "en" else zh,
                "unit_name_zh": lambda d: unit_name(d, "name_zh"), "unit_name_en": lambda d: unit_name(d, "name_en"),
                "unit_label": lambda d: unit_name(d, "name_en" if lang == "en" else "name_zh")}

    @app.route("/favicon.ico")
    def favicon():
        from flask import send_from_directory
        return send_from_directory(app.static_folder, "favicon.ico", mimetype="image/vnd.microsoft.icon",
                                   max_age=86400)

    @app.route("/")
    def home():
        if not current_user.is_authenticated:
            return redirect(url_for("accounts.login"))
        if current_user.role == "leader":
            if current_user.delegation_id:
                return redirect(url_for("delegations.dashboard", delegation_id=current_user.delegation_id))
            return render_template("errors/no_delegation.html")
        if current_user.role == "accountant":
            return redirect(url_for("money.overview"))
        return redirect(url_for("workflow.overview"))

    @app.after_request
    def security_headers(response):
        # Pages and downloads carry personal data: never kept by a browser or a proxy.
        if not request.path.startswith("/static/") and request.path != "/favicon.ico":
            response.headers["Cache-Control"] = "no-store"
            response.headers["Pragma"] = "no-cache"
        response.headers["Server"] = "portal"  # no product versions
        if app.config.get("PREFERRED_URL_SCHEME") == "https":
            response.headers.setdefault("Strict-Transport-Security", "max-age=31536000; includeSubDomains")
        response.headers.setdefault("X-Content-Type-Options", "nosniff")
        response.headers.setdefault("X-Frame-Options", "DENY")
        response.headers.setdefault("Referrer-Policy", "same-origin")
        response.headers.setdefault("Content-Security-Policy",
                                    "default-src 'self'; img-src 'self' data:; style-src 'self' 'unsafe-inline'; script-src 'self'")
        return response

    def error_page(e, code):
        from flask.globals import request_ctx
        if request_ctx.url_adapter is None:
            # The Host header is not one of ours (TRUSTED_HOSTS): no page, no links to build.
            return "请求的主机名不属于本系统 / this host is not served here\n", code, {"Content-Type": "text/plain; charset=utf-8"}
        if request.path.startswith("/api/"):
            from .rules.violations import report, schema_error
            zh, en = ERROR_TEXTS.get(code, ("请求无效", "bad request"))
            return report(None, None, [schema_error("", zh, en)]), code
        from werkzeug.exceptions import default_exceptions
        default = getattr(default_exceptions.get(code), "description", None)
        detail = getattr(e, "description", None)
        retry = None
        if code == 429:
            detail = None  # the limiter's own words ("10 per 1 minute") are not for people
            retry = _retry_after()
        return render_template("errors/error.html", code=code, retry=retry,
                               detail=detail if detail and detail != default else None), code

    for code in (400, 403, 404, 405, 413, 429):
        app.register_error_handler(code, lambda e, c=code: error_page(e, c))

    from flask_wtf.csrf import CSRFError

    @app.errorhandler(CSRFError)
    def csrf_error(e):
        return render_template("errors/error.html", code=400, csrf=True), 400


def _retry_after() -> int:
    """Seconds until the limit that refused this request lets the next one through."""
    from .extensions import limiter
    try:
        current = limiter.current_limit
        if current is not None:
            return max(1, int(current.reset_at - time.time()))
    except Exception:  # noqa: BLE001 - a missing figure must not turn a 429 into a 500
        pass
    return 60


ERROR_TEXTS = {
    400: ("请求无效", "bad request"),
    403: ("无权访问", "forbidden"),
    404: ("找不到该页面", "not found"),
    405: ("不支持该请求方法", "method not allowed"),
    413: ("上传的内容太大", "the request body is too large"),
    429: ("请求过于频繁，请稍后再试", "too many requests; try again later"),
}


def is_en() -> bool:
    return str(get_locale()) == "en"


def outcome_text(out, errors_only: bool = False) -> str:
    """A service Outcome's message, or its violations, in the user's language."""
    en = is_en()
    if out.message:
        return out.message[1] if en else out.message[0]
    return "；".join(v.en if en else v.zh for v in out.violations if v.is_error or not errors_only)
