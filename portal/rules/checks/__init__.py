"""Checks register themselves with the engine on import."""
from . import delegation, eligibility, entries, identity, numbers, teams  # noqa: F401
