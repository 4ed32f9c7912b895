"""Security headers on every response; no caching of pages that carry personal data."""
from __future__ import annotations

from flask import Flask, request


def init(app: Flask) -> None:
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
