"""The checks, each registering itself (check_context.rule_check, builtin_check) on import."""
from . import career, delegation, eligibility, entries, identity, joint, numbers, teams  # noqa: F401
