"""The application's own wiring, above every area: logins and session lifetimes, the
write lock of a writing request, template filters, security headers, error pages, and
the few pages that belong to no area (home, favicon, language), and the load balancer's
health and readiness checks. `init_site` sets it up."""
from __future__ import annotations

from flask import Flask

from . import errors, headers, health, pages, sessions, templating, write_lock
from .pages import bp

__all__ = ["bp", "init_site"]


def init_site(app: Flask) -> None:
    sessions.init(app)
    write_lock.init(app)
    templating.init(app)
    pages.init(app)
    health.init(app)
    headers.init(app)
    errors.init(app)
