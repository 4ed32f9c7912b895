"""Who is logged in: the session's user (revocable: a logout, a new password or a disabled
account ends every session of the account) and the idle and absolute session lifetimes."""
from __future__ import annotations

import time

from babel.support import Translations
from flask import Flask, request, session
from flask_babel import Babel
from flask_login import LoginManager, current_user, logout_user
from sqlalchemy import bindparam, select

from ..accounts.models import User
from ..extensions import db
from ..roles import STAFF as STAFF_ROLES
from ..translation import catalogue as _catalogue
from ..web import select_locale

_form_messages: dict[str, Translations] = {}  # wtforms' own messages, per language, once per process
# Built once, bound per request: session.get builds and keys its statement anew each time, and
# every request of a logged-in user reads his account (a fifth of that read's CPU, issue 41).
_ACCOUNT = select(User).where(User.id == bindparam("user_id"))


def init(app: Flask) -> None:
    Babel(app, locale_selector=select_locale, default_translation_directories="../translations")
    # The templates' strings through the catalogue found once per language (translation.py).
    app.jinja_env.install_gettext_callables(
        gettext=lambda s: _catalogue().ugettext(s), ngettext=lambda s, p, n: _catalogue().ungettext(s, p, n),
        pgettext=lambda c, s: _catalogue().upgettext(c, s),
        npgettext=lambda c, s, p, n: _catalogue().unpgettext(c, s, p, n), newstyle=True)
    login = LoginManager(app)
    login.login_view = "accounts.login"
    login.login_message = None

    @login.user_loader
    def load_user(session_id):
        # "id:session_version": a session from before a logout, a password change or a
        # disabled account carries an old version and is no longer anyone's.
        user_id, _sep, version = str(session_id).partition(":")
        if not user_id.isdigit() or not version.isdigit():
            return None
        user = db.session.execute(_ACCOUNT, {"user_id": int(user_id)}).scalar_one_or_none()
        if user is None or user.session_version != int(version):
            return None
        return user

    @app.before_request
    def form_messages_in_the_readers_language():
        """Flask-WTF would read wtforms' message catalogue from disk in every request that
        renders or validates a form; it takes the one a request already holds."""
        lang = select_locale()  # not get_locale(): that fixes the request's language before its view runs
        if lang not in _form_messages:
            from wtforms.i18n import messages_path
            _form_messages[lang] = Translations.load(messages_path(), [lang], domain="wtforms")
        request.wtforms_translations = _form_messages[lang]

    @app.before_request
    def session_timeouts():
        """Idle and absolute session lifetimes (real time, not the demo clock)."""
        if "_user_id" not in session:
            return None
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
        if app.config.get("STAFF_TWO_FACTOR") and not session.get("second_factor") \
                and current_user.is_authenticated and current_user.role in STAFF_ROLES:
            # A staff session that never passed the authenticator (one opened before two
            # steps were required, or by any path but the second step) is no session.
            logout_user()
            for key in ("auth_at", "seen_at"):
                session.pop(key, None)
        return None
