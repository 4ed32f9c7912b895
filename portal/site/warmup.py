"""A fresh web worker's first requests, paid before it takes any.

gunicorn starts a worker at boot and again after every max_requests recycle. Without this,
its first requests each pay for what the process has not done yet: compiling the page
templates, reading every Games' definition into the engine's models, importing what a
page imports late (the password strength checker's dictionaries, the sealing cipher, the
job queue), and the universities list. In a registration rush that is a tenth of a second per worker on the first
answer; on deadline night, every recycle. gunicorn.conf.py's post_worker_init calls
`warm`; a failure (the database not reachable yet) is logged and the worker serves anyway,
as it would have without it."""
from __future__ import annotations

import importlib
import logging
import time

from flask import Flask
from sqlalchemy import select

LATE_IMPORTS = ("zxcvbn", "cryptography.fernet", "rq", "portal.accounts.arrivals")
log = logging.getLogger(__name__)


def warm(app: Flask) -> dict[str, float]:
    """Does each step, timing it; returns the seconds each took (a step that failed is
    logged and left out)."""
    took: dict[str, float] = {}
    for name, step in (("imports", _imports), ("templates", _templates), ("reference", _reference)):
        started = time.perf_counter()
        try:
            with app.app_context():
                step(app)
        except Exception:  # the worker must still start: these are only caches
            log.exception("warm-up step %s failed", name)
            continue
        took[name] = time.perf_counter() - started
    return took


def _imports(app: Flask) -> None:
    for module in LATE_IMPORTS:
        importlib.import_module(module)
    from ..accounts.services import password_problem_for
    password_problem_for(None, "a-warm-up-passphrase", "warm-up")  # builds the checker's dictionaries


def _templates(app: Flask) -> None:
    for name in app.jinja_env.list_templates(filter_func=lambda n: n.endswith(".html")):
        app.jinja_env.get_template(name)


def _reference(app: Flask) -> None:
    """Every open Games' definition, and the universities list, as the engine reads them."""
    from ..config import universities_csv
    from ..extensions import db
    from ..games.models import Games, GamesStatus
    from ..games.services import definition_of, universities_map
    try:
        for games in db.session.scalars(select(Games).where(Games.status != GamesStatus.DRAFT)):
            definition_of(games)
        universities_map(fallback_csv=universities_csv())
    finally:
        db.session.rollback()
        db.session.remove()
