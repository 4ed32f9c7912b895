"""JSON API, version 1: the blueprint; its resources are in v1*.py (`POST /api/v1/check`,
which judges a delegation document and changes nothing, among them)."""
from __future__ import annotations

from flask import Blueprint

bp = Blueprint("api", __name__, url_prefix="/api/v1")


from . import v1, v1_events, v1_money  # noqa: E402, F401  (version 1's resources, on this blueprint)
