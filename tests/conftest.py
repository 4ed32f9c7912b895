"""Test set-up. The pure engine is tested without a database; everything else runs on a
real database: a SQLite file by default, PostgreSQL when TEST_DATABASE_URL is set."""
from __future__ import annotations

import datetime as dt
import gc
import os
import tempfile
from pathlib import Path

import pytest
import yaml
from flask.testing import FlaskClient

from portal.config import DEFAULT_UNIVERSITIES_CSV, FIXTURES
from portal.rules import GamesDefinition, check_delegation, parse_document
from portal.rules.definition import UnitInfo, UniversityInfo

UTC = dt.UTC
CHINA = dt.timezone(dt.timedelta(hours=8))
UNIVERSITIES_CSV = Path(os.environ.get("UNIVERSITIES_CSV", DEFAULT_UNIVERSITIES_CSV))


@pytest.fixture(scope="session")
def definitions() -> dict[str, GamesDefinition]:
    out = {}
    for path in (FIXTURES / "games").glob("*.yaml"):
        d = GamesDefinition.model_validate(yaml.safe_load(path.read_text(encoding="utf-8")))
        out[d.slug] = d
    return out


@pytest.fixture(scope="session")
def units() -> dict[str, UnitInfo]:
    data = yaml.safe_load((FIXTURES / "units.yaml").read_text(encoding="utf-8"))
    return {u["code"]: UnitInfo.model_validate(u) for u in data["units"]}


@pytest.fixture(scope="session")
def universities() -> dict[str, UniversityInfo]:
    import csv
    with open(UNIVERSITIES_CSV, encoding="utf-8") as f:
        return {r["code"]: UniversityInfo(**r) for r in csv.DictReader(f)}


@pytest.fixture
def judge(definitions, units, universities):
    """judge(document, at=...) -> violations from the pure engine (schema problems included)."""
    def run(document, at=None, others=None):
        d, problems = parse_document(document)
        if d is None:
            return problems
        unit = units.get(d.unit_code) if d.unit_code else None
        at = at or dt.datetime(2019, 8, 1, tzinfo=CHINA)
        return problems + check_delegation(definitions[d.games], d, at=at, unit=unit,
                                           universities=universities, other_id_numbers=others or {})
    return run


def codes(violations, *, errors_only=False):
    return sorted(v.code for v in violations if v.is_error or not errors_only)


# --- database-backed tests ---------------------------------------------------------------

def _database_url(tmp_root: Path) -> str:
    url = os.environ.get("TEST_DATABASE_URL")
    if url:
        return url
    if os.environ.get("REQUIRE_POSTGRES"):
        raise RuntimeError("REQUIRE_POSTGRES is set but TEST_DATABASE_URL is not")
    return f"sqlite:///{tmp_root / 'test.db'}"


def _reset_postgres(url: str) -> None:
    import sqlalchemy as sa
    engine = sa.create_engine(url.replace("postgresql://", "postgresql+psycopg://", 1)
                              if url.startswith("postgresql://") else url)
    try:
        with engine.begin() as conn:
            conn.execute(sa.text("DROP SCHEMA public CASCADE"))
            conn.execute(sa.text("CREATE SCHEMA public"))
    finally:
        engine.dispose()


class BufferedClient(FlaskClient):
    """Each response read whole and closed, as a WSGI server closes it (send_file keeps
    its file open until then: a ResourceWarning, an error here). A test that follows a
    stream chunk by chunk asks for buffered=False."""

    def open(self, *args, **kwargs):
        kwargs.setdefault("buffered", True)
        response = super().open(*args, **kwargs)
        # The request body werkzeug spooled to a temporary file (a big upload): closed too.
        body = response.request.environ.get("wsgi.input") if response.request is not None else None
        if body is not None and hasattr(body, "close"):
            body.close()
        return response


@pytest.fixture(scope="session")
def app():
    tmp_root = Path(tempfile.mkdtemp(prefix="portal-test-"))
    url = _database_url(tmp_root)
    if url.startswith("postgres"):
        _reset_postgres(url)  # fails loudly when PostgreSQL is unreachable: no skipping
    os.environ["DATABASE_URL"] = url
    from portal import create_app
    from portal.games.services import all_fixture_slugs, import_universities, load_games, load_units

    # Rate limits are wide for the suite at large (it logs in hundreds of times from one
    # address); tests/security sets the production limits.
    wide = "100000 per minute"
    app = create_app({"TESTING": True, "WTF_CSRF_ENABLED": True, "SECRET_KEY": "test", "RATE_LIMIT_LOGIN": wide,
                      "RATE_LIMIT_LOGIN_ADDRESS": wide,
                      "RATE_LIMIT_FORMS": wide, "RATE_LIMIT_REGISTER": wide, "RATE_LIMIT_API": wide,
                      # Jobs run in a thread of the test process; tests/test_jobs.py also runs
                      # them through RQ on Redis, on a queue of its own.
                      "JOBS_BACKEND": "thread", "ARRIVALS_QUIET_SECONDS": 0, "JOBS_QUEUE": f"portal-test-{os.getpid()}",
                      # Staff log in with a password alone here; tests/security/test_two_factor.py
                      # turns the second factor on, as production has it.
                      "STAFF_TWO_FACTOR": False,
                      # scrypt at N=2**10, not 2**15: the suite logs in thousands of times.
                      "PASSWORD_HASH_METHOD": "scrypt:1024:8:1",
                      # Every save checks the document it builds from the rows it wrote against
                      # the rows read back (delegations/services.replace_contents).
                      "CHECK_STORED_DOCUMENT": True,
                      # The rate limits' counters under a prefix of this run's own: two suites
                      # sharing one Redis (SQLite's and PostgreSQL's side by side) never count
                      # against, nor reset, each other's.
                      **({"RATELIMIT_STORAGE_OPTIONS": {"key_prefix": f"LIMITS-test-{os.getpid()}"}}
                         if os.environ.get("REDIS_URL") else {})})
    app.test_client_class = BufferedClient
    with app.app_context():
        from flask_migrate import upgrade
        upgrade()
        load_units()
        for slug in all_fixture_slugs():
            load_games(slug)
        import_universities(UNIVERSITIES_CSV)
        from portal.games.models import Games
        _FIXTURE_DEFINITIONS.update({row.slug: row.definition for row in _db_session().query(Games)})
    yield app
    from portal.extensions import db as _db
    with app.app_context():  # its pooled connections closed, not left to the collector
        _db.engine.dispose()


_FIXTURE_DEFINITIONS: dict[str, dict] = {}  # each fixture Games' definition as loaded
# Loaded once for the session: the units, the universities and the fixture Games.
KEPT_BETWEEN_TESTS = {"unit", "university", "games", "sport", "event"}


def _db_session():
    from portal.extensions import db as _db
    return _db.session


def _finish_background_jobs() -> None:
    """A job a test started (a route that starts one, in the thread backend) runs to its end
    before the next test: on SQLite its writes would otherwise meet the next test's as
    "database is locked"."""
    import threading
    for thread in threading.enumerate():
        if thread.name.startswith("job-") and thread is not threading.current_thread():
            thread.join(timeout=300)


@pytest.fixture
def db(app):
    from portal.delegations.models import Delegation
    from portal.extensions import db as _db
    with app.app_context():
        yield _db
        _finish_background_jobs()
        _db.session.rollback()
        # Test clean-up only (the audit log and the ledger are append-only in the app): every
        # table but the reference data the session loaded once, children before parents, so
        # that no table a test writes (jobs, identity checks...) outlives it.
        for table in reversed(_db.metadata.sorted_tables):
            if table.name not in KEPT_BETWEEN_TESTS:
                _db.session.execute(table.delete())
        for row in _db.session.query(Delegation).all():
            _db.session.delete(row)
        # Games a test set up in the screens (the fixtures' stay for the whole session).
        from portal.games.models import Games
        from portal.games.services import all_fixture_slugs
        _db.session.execute(_db.text("DELETE FROM games_version"))
        for row in _db.session.query(Games).filter(Games.slug.not_in(all_fixture_slugs())).all():
            _db.session.delete(row)
        _db.session.commit()
        # A fixture Games a test amended in the screens is the fixture again for the next.
        from portal.games.services import load_games
        for row in _db.session.query(Games).filter(Games.slug.in_(all_fixture_slugs())).all():
            if row.status != "published" or row.definition != _FIXTURE_DEFINITIONS.get(row.slug, row.definition):
                load_games(row.slug)
                _db.session.query(Games).filter_by(slug=row.slug).one().status = "published"
                _db.session.commit()


@pytest.fixture
def cli(app):
    return app.test_cli_runner()


@pytest.fixture
def client(app):
    return app.test_client()


@pytest.fixture(autouse=True)
def _no_leaked_write_lock_flag(request):
    from portal.db_tx import _immediate, _in_write
    assert not _immediate.get() and not _in_write.get(), f"leaked before {request.node.nodeid}"
    yield


@pytest.fixture
def no_csrf(app, monkeypatch):
    """Forms posted without their token, for tests of what a page does (tests/security and
    test_authorization test CSRF itself)."""
    monkeypatch.setitem(app.config, "WTF_CSRF_ENABLED", False)


@pytest.fixture(autouse=True)
def _collect_garbage_after_each_test():
    """A file left open is reported (a ResourceWarning: an error here) by the test that
    left it, not by whichever later test the collector happens to run in. What survives is
    then frozen (gc.freeze): the next collection scans only what the next test made, not
    the whole suite's long-lived heap again (that scan was most of the suite's time)."""
    yield
    gc.collect()
    gc.freeze()
