"""JSON API, version 1: the blueprint with its resources (`POST /api/v1/check`, which judges
a delegation document and changes nothing, among them)."""
from __future__ import annotations

from . import v1, v1_events, v1_money  # noqa: F401  (version 1's resources, on this blueprint)
from .blueprint import bp

__all__ = ["bp"]
