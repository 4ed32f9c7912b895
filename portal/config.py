"""Settings from the environment, with safe defaults for a developer's machine."""
from __future__ import annotations

import os
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
FIXTURES = ROOT / "fixtures"
# Public reference data shipped with the repository (fixtures/reference/README.md).
DEFAULT_UNIVERSITIES_CSV = FIXTURES / "reference" / "universities.csv"


def database_url(instance_path: str) -> str:
    url = os.environ.get("DATABASE_URL")
    if url:
        # Accept the usual postgres:// and postgresql:// spellings; psycopg 3 is the driver.
        for prefix in ("postgres://", "postgresql://"):
            if url.startswith(prefix):
                return "postgresql+psycopg://" + url[len(prefix):]
        return url
    return f"sqlite:///{Path(instance_path) / 'portal.db'}"


def universities_csv() -> Path:
    return Path(os.environ.get("UNIVERSITIES_CSV", DEFAULT_UNIVERSITIES_CSV))
