"""The API's blueprint (/api/v1); its resources are in v1*.py."""
from __future__ import annotations

from flask import Blueprint

from ..extensions import limiter

bp = Blueprint("api", __name__, url_prefix="/api/v1")


@bp.after_request
def rate_limit_headers(response):
    """What a client of the API paces itself by (the limiter's own headers are off: forms
    would pay a Redis read each for them)."""
    current = limiter.current_limit
    if current is not None:
        response.headers["X-RateLimit-Limit"] = str(current.limit.amount)
        response.headers["X-RateLimit-Remaining"] = str(current.remaining)
        response.headers["X-RateLimit-Reset"] = str(int(current.reset_at))  # a 429's Retry-After: site.errors
    return response
