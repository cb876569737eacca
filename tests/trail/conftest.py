"""Trail tests run against SQLite and (marked ``postgres``) PostgreSQL.

PostgreSQL tests get one throw-away database per session, emptied before each test. Set
``KGAUDIT_REQUIRE_PG=1`` (CI does) to fail instead of skip when the server is not reachable.
"""

from __future__ import annotations

import os
import shutil
from collections.abc import Iterator
from pathlib import Path

import pytest

from auditor.trail import Trail
from auditor.trail.testing import postgres_available, postgres_database, reset_trail

BACKENDS = ["sqlite", pytest.param("postgres", marks=pytest.mark.postgres)]


@pytest.fixture(scope="session")
def pg_url() -> Iterator[str]:
    reason = postgres_available()
    if reason is not None:
        if os.environ.get("KGAUDIT_REQUIRE_PG"):
            pytest.fail(reason)
        pytest.skip(reason)
    with postgres_database() as url:
        Trail(url).migrate()
        yield url


@pytest.fixture(scope="session")
def sqlite_template(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("template") / "trail.db"
    trail = Trail(f"sqlite:///{path}")
    trail.migrate()
    trail.close()
    return path


@pytest.fixture(params=BACKENDS)
def db_url(request: pytest.FixtureRequest, tmp_path: Path, sqlite_template: Path) -> str:
    if request.param == "sqlite":
        shutil.copy(sqlite_template, tmp_path / "trail.db")
        return f"sqlite:///{tmp_path / 'trail.db'}"
    url = request.getfixturevalue("pg_url")
    reset_trail(url)
    return url


@pytest.fixture
def trail(db_url: str) -> Iterator[Trail]:
    t = Trail(db_url)
    yield t
    t.close()
