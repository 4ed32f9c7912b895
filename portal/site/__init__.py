"""The application's own wiring, above every area: logins and session lifetimes, the
write lock of a writing request, template filters, security headers, error pages, and
the few pages that belong to no area (home, favicon, language). `init_site` sets it up."""
from __future__ import annotations

from flask import Flask

from . import errors, headers, pages, sessions, templating, write_lock
from .pages import bp

__all__ = ["bp", "init_site"]


def init_site(app: Flask) -> None:
    sessions.init(app)
    write_lock.init(app)
    templating.init(app)
    pages.init(app)
    headers.init(app)
    errors.init(app)
