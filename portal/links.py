"""Absolute links the portal writes (invitations; later e-mails and QR codes): built from
the configured PUBLIC_URL, never from the request's Host header, which a client chooses
(issue 19, 8). Requests for a host that is not trusted are refused by Flask (TRUSTED_HOSTS,
set in config.trusted_hosts) with a 400."""
from __future__ import annotations

from urllib.parse import urlsplit

from flask import current_app, url_for


def external_url(endpoint: str, **values) -> str:
    base = (current_app.config.get("PUBLIC_URL") or "").rstrip("/")
    if base:
        return base + url_for(endpoint, **values)
    # No public address configured (a developer's machine): the request's own host, which
    # TRUSTED_HOSTS has already checked is one of this machine's names.
    return url_for(endpoint, _external=True, **values)


def trusted_hosts(public_url: str | None, configured: str | None) -> list[str]:
    """TRUSTED_HOSTS from the environment (comma-separated; ".example.cn" takes subdomains),
    else PUBLIC_URL's host, else this machine's own names (development)."""
    if configured:
        return [h.strip() for h in configured.split(",") if h.strip()]
    if public_url:
        host = urlsplit(public_url).hostname
        if host:
            return [host]
    return ["localhost", "127.0.0.1", "::1", "[::1]"]
