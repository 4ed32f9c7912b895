"""The entry-rules engine (pure Python; no Flask, no database)."""
from .definition import GamesDefinition, UnitInfo, UniversityInfo  # noqa: F401
from .document import ParsedDelegation, parse_document  # noqa: F401
from .engine import check_delegation  # noqa: F401
from .violations import Violation, report, report_text  # noqa: F401
