"""China Standard Time: deadlines are China time; we store UTC and convert at the edges."""
from .rules.engine import CHINA  # noqa: F401
