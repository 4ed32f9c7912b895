"""Checks register themselves with the engine on import."""
from . import career, delegation, eligibility, entries, identity, joint, numbers, teams  # noqa: F401
