"""The mind-sports registration portal: application factory."""
from __future__ import annotations

import os
import secrets

from flask import Flask
from sqlalchemy import event
from sqlalchemy.engine import Engine

from .clock import configure as configure_clock
from .config import database_url
from .extensions import csrf, db, limiter, mail, migrate
from .gc_tuning import init_gc_tuning
from .ids import DatabaseIdConverter


def create_app(config: dict | None = None) -> Flask:
    # INSTANCE_PATH: this node's own folder (each machine of a cluster has one; a test runs two).
    app = Flask(__name__, instance_relative_config=True, instance_path=os.environ.get("INSTANCE_PATH") or None,
                template_folder="../templates", static_folder="../static")
    _private_dir(app.instance_path)
    app.config.update(
        SECRET_KEY=os.environ.get("SECRET_KEY") or _instance_secret(app.instance_path),
        SQLALCHEMY_DATABASE_URI=database_url(app.instance_path),
        SQLALCHEMY_ENGINE_OPTIONS={"pool_pre_ping": True},
        MAX_CONTENT_LENGTH=10 * 1024 * 1024,
        SESSION_COOKIE_HTTPONLY=True,
        SESSION_COOKIE_SAMESITE="Lax",
        UPLOAD_FOLDER=os.path.join(app.instance_path, "uploads"),
        JSON_AS_ASCII=False,
        # Sessions end after this long without a request, and this long after login whatever.
        SESSION_IDLE_MINUTES=int(os.environ.get("SESSION_IDLE_MINUTES", 120)),
        SESSION_ABSOLUTE_HOURS=int(os.environ.get("SESSION_ABSOLUTE_HOURS", 12)),
        # Behind HTTPS (PREFERRED_URL_SCHEME=https): cookies only over HTTPS, and HSTS.
        PREFERRED_URL_SCHEME=os.environ.get("PREFERRED_URL_SCHEME", "http"),
        # Every absolute link is built from PUBLIC_URL (https://host); requests for any other
        # host are refused (links.py).
        PUBLIC_URL=os.environ.get("PUBLIC_URL", ""),
        # Staff (organisers, accountants, admins) log in with a password and a TOTP code.
        STAFF_TWO_FACTOR=os.environ.get("STAFF_TWO_FACTOR", "1") not in ("0", "false", "no", "off"),
        # New ID numbers an account's saves may compare with other delegations a day (issue 19).
        ID_CHECKS_PER_DAY=int(os.environ.get("ID_CHECKS_PER_DAY", 200)),
        RATELIMIT_STORAGE_URI=os.environ.get("REDIS_URL") or "memory://",
        RATELIMIT_IN_MEMORY_FALLBACK_ENABLED=True,  # a Redis outage must not lock everyone out
        # Off: the limiter's headers cost every limited form a second Redis read (the rush's
        # answer, each save); the API adds its own (api.blueprint), every 429 its Retry-After.
        RATELIMIT_HEADERS_ENABLED=False,
        # Per client address. The account lockout covers one account tried from many.
        RATE_LIMIT_LOGIN=os.environ.get("RATE_LIMIT_LOGIN", "10 per minute;60 per hour"),  # per address and name
        RATE_LIMIT_LOGIN_ADDRESS=os.environ.get("RATE_LIMIT_LOGIN_ADDRESS", "60 per minute;600 per hour"),
        RATE_LIMIT_FORMS=os.environ.get("RATE_LIMIT_FORMS", "10 per minute;60 per hour"),
        RATE_LIMIT_REGISTER=os.environ.get("RATE_LIMIT_REGISTER", "5 per minute;30 per hour"),
        RATE_LIMIT_API=os.environ.get("RATE_LIMIT_API", "60 per minute;1000 per hour"),
        # E-mail (Flask-Mailman): SMTP where MAIL_SERVER is set; else each message is written
        # to a file under instance/mail (the embedded default), and `flask notify send` says where.
        MAIL_BACKEND=os.environ.get("MAIL_BACKEND") or ("smtp" if os.environ.get("MAIL_SERVER") else "file"),
        MAIL_FILE_PATH=os.path.join(app.instance_path, "mail"),
        MAIL_SERVER=os.environ.get("MAIL_SERVER", "localhost"),
        MAIL_PORT=int(os.environ.get("MAIL_PORT", 25)),
        MAIL_USE_TLS=os.environ.get("MAIL_USE_TLS", "0") in ("1", "true", "yes"),
        MAIL_USE_SSL=os.environ.get("MAIL_USE_SSL", "0") in ("1", "true", "yes"),
        MAIL_USERNAME=os.environ.get("MAIL_USERNAME"),
        MAIL_PASSWORD=os.environ.get("MAIL_PASSWORD"),
        MAIL_DEFAULT_SENDER=os.environ.get("MAIL_DEFAULT_SENDER", "noreply@localhost"),
        MAIL_TIMEOUT=int(os.environ.get("MAIL_TIMEOUT", 30)),
        # Webhooks (notify/sender.py, outbound.py): one delivery's whole exchange, the
        # receivers answered at once, the inside networks an installation allows (none),
        # and how many URLs one Games may register.
        WEBHOOK_DEADLINE=float(os.environ.get("WEBHOOK_DEADLINE", 10)),
        WEBHOOK_PARALLEL=int(os.environ.get("WEBHOOK_PARALLEL", 8)),
        WEBHOOK_ALLOWED_NETWORKS=os.environ.get("WEBHOOK_ALLOWED_NETWORKS", ""),
        WEBHOOKS_PER_GAMES=int(os.environ.get("WEBHOOKS_PER_GAMES", 10)),
    )
    if config:
        app.config.update(config)
    if app.config.get("TRUSTED_HOSTS") is None:
        from .links import trusted_hosts
        app.config["TRUSTED_HOSTS"] = trusted_hosts(app.config["PUBLIC_URL"], os.environ.get("TRUSTED_HOSTS"))
    if app.config["PREFERRED_URL_SCHEME"] == "https":
        app.config["SESSION_COOKIE_SECURE"] = True
        app.config["REMEMBER_COOKIE_SECURE"] = True
    configure_clock(app)
    if app.config["SQLALCHEMY_DATABASE_URI"].startswith("sqlite"):
        app.config["SQLALCHEMY_ENGINE_OPTIONS"] = {"connect_args": {"timeout": 30}}

    app.url_map.converters["int"] = DatabaseIdConverter  # before any route is added
    db.init_app(app)
    migrate.init_app(app, db, directory=os.path.join(os.path.dirname(__file__), "..", "migrations"),
                     render_as_batch=True)
    mail.init_app(app)
    limiter.init_app(app)  # before CSRF: a request without a token still counts against the limit
    csrf.init_app(app)
    app.json.ensure_ascii = False

    from . import db_tx, models  # noqa: F401  (transaction hooks; all tables known to Alembic)
    from .accounts.views import bp as accounts_bp
    from .api.views import bp as api_bp
    from .cli import register_cli
    from .delegations.views import bp as delegations_bp
    from .games.views import bp as games_bp
    from .jobs.views import bp as jobs_bp
    from .money.views import bp as money_bp
    from .notify.views import bp as notify_bp
    from .register.views import bp as register_bp
    from .results.views import bp as results_bp
    from .setup.views import bp as setup_bp
    from .site import bp as site_bp, init_site
    from .venue.views import bp as venue_bp
    from .workflow.views import bp as workflow_bp

    init_site(app)
    # What `flask games load` also warns of, from areas above the games area (which may not
    # import them): rules the portal's history leaves doing nothing, or shutting an event.
    from .setup.register_traps import register_traps
    app.extensions["games_load_checks"] = [register_traps]
    from .api.auth import init_api_auth
    init_api_auth(app)
    from .unavailable import init_unavailable
    init_unavailable(app)
    init_gc_tuning(app)
    for blueprint in (site_bp, accounts_bp, api_bp, delegations_bp, workflow_bp, money_bp,
                      jobs_bp, results_bp, venue_bp, games_bp, setup_bp, notify_bp, register_bp):
        app.register_blueprint(blueprint)
    register_cli(app)
    from .retention import purge_instance_files
    purge_instance_files(app.instance_path)  # files an older portal left here are not kept past a day
    return app


def _private_dir(path: str) -> None:
    """instance/ holds the database, ID copies and pending uploads: owner only."""
    os.makedirs(path, mode=0o700, exist_ok=True)
    try:
        os.chmod(path, 0o700)
    except PermissionError:  # a folder someone else owns: leave it as it is
        pass


def _instance_secret(instance_path: str) -> str:
    """Without SECRET_KEY in the environment: a random key kept in the instance folder, so
    sessions survive a restart and no key is ever committed."""
    path = os.path.join(instance_path, "secret_key")
    try:
        with open(path, encoding="ascii") as f:
            key = f.read().strip()
            if key:
                return key
    except FileNotFoundError:
        pass
    key = secrets.token_urlsafe(48)
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    with os.fdopen(fd, "w", encoding="ascii") as f:
        f.write(key)
    return key


@event.listens_for(Engine, "connect")
def _sqlite_pragmas(dbapi_connection, connection_record):
    # Foreign keys on, and WAL so that readers do not block the one writer.
    if type(dbapi_connection).__module__.startswith("sqlite3"):
        cur = dbapi_connection.cursor()
        cur.execute("PRAGMA foreign_keys=ON")
        cur.execute("PRAGMA journal_mode=WAL")
        # The database holds ID numbers: its files are the owner's only.
        for _seq, _name, path in cur.execute("PRAGMA database_list").fetchall():
            for suffix in ("", "-wal", "-shm"):
                if path and os.path.exists(path + suffix):
                    try:
                        os.chmod(path + suffix, 0o600)
                    except PermissionError:
                        pass
        cur.close()
