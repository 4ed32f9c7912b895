"""The API's blueprint (/api/v1); its resources are in v1*.py."""
from __future__ import annotations

from flask import Blueprint

bp = Blueprint("api", __name__, url_prefix="/api/v1")
