"""A request to /api/v1/ is authenticated by its bearer token alone (a cookie session is
not an API client: nothing a browser sends by itself can change data there)."""
from __future__ import annotations

from flask import Flask, g

from ..accounts.api_tokens import user_for


def init_api_auth(app: Flask) -> None:
    @app.login_manager.request_loader
    def from_token(req):
        if not req.path.startswith("/api/v1/"):
            return None
        found = user_for(req.headers.get("Authorization"))
        if found is None:
            return None
        g.api_token = found[1]
        return found[0]
