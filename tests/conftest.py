"""Shared fixtures, defined once for every test package.

- the shipped graphs, rule packs and an auditor, loaded once per session;
- trail databases: ``db_url`` runs a test on SQLite and (marked ``postgres``) PostgreSQL, with
  one throw-away PostgreSQL database per session emptied before each test. Set
  ``KGAUDIT_REQUIRE_PG=1`` (CI does) to fail instead of skip when the server is unreachable;
- ``examples_dir`` and the shipped default model (``default_model``).

Plain helpers (``wait_until``) live in ``tests/helpers.py``.
"""

from __future__ import annotations

import os

# Triton picks interpreter or compiler at its first import: the kernel tests run on CPU.
os.environ.setdefault("TRITON_INTERPRET", "1")

import re
import shutil
from collections.abc import Callable, Iterator
from contextlib import ExitStack
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, settings

settings.register_profile(
    "ci", max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow]
)
settings.register_profile(
    "dev", max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow]
)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "dev"))

EXAMPLES = Path(__file__).resolve().parents[1] / "examples"
BACKENDS = ["sqlite", pytest.param("postgres", marks=pytest.mark.postgres)]
# Fixtures that take more than a few seconds to build: a test that uses one is slow.
SLOW_FIXTURES = {
    "trained": "trains a tiny model (tests/engine/conftest.py), 10-25 s",
    "report_db": "audits ~40 transcripts into a trail (tests/report/conftest.py), ~10 s",
    "chat": "the chat app with the default model warmed up (tests/chat/conftest.py), ~5 s",
}


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    for item in items:
        if SLOW_FIXTURES.keys() & set(getattr(item, "fixturenames", ())):
            item.add_marker(pytest.mark.slow)


@pytest.fixture(scope="session")
def kb():
    from knowledge_graphs import load_graphs

    return load_graphs()


@pytest.fixture(scope="session")
def ruleset():
    from rules.loader import load_rules

    return load_rules()


@pytest.fixture(scope="session")
def auditor_obj(kb, ruleset):
    from auditor.pipeline import Auditor

    return Auditor(kb, ruleset)


@pytest.fixture(scope="session")
def examples_dir() -> Path:
    return EXAMPLES


# -- trail databases ----------------------------------------------------------------------


@pytest.fixture(scope="session")
def pg_databases() -> Iterator[Callable[[str], str]]:
    """``name`` -> the URL of a migrated throw-away PostgreSQL database made for that name on
    first use; all are dropped at the end of the session."""
    from trail import Trail
    from trail.testing import postgres_available, postgres_database

    reason = postgres_available()
    if reason is not None:
        if os.environ.get("KGAUDIT_REQUIRE_PG"):
            pytest.fail(reason)
        pytest.skip(reason)
    urls: dict[str, str] = {}
    with ExitStack() as stack:

        def database(name: str) -> str:
            if name not in urls:
                urls[name] = stack.enter_context(postgres_database(f"kgaudit_{name}"))
                Trail(urls[name]).migrate()
            return urls[name]

        yield database


@pytest.fixture(scope="module")
def pg_url(request: pytest.FixtureRequest, pg_databases: Callable[[str], str]) -> str:
    """The PostgreSQL database of this test package (api, trail, ...). Packages do not share
    one: the checkpoint log outside the database remembers each database's checkpoints."""
    return pg_databases(re.sub(r"\W", "_", request.path.parent.name))


@pytest.fixture(scope="session")
def sqlite_template(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A migrated, empty SQLite trail, copied for each test (faster than migrating each)."""
    from trail import Trail

    path = tmp_path_factory.mktemp("trail-template") / "trail.db"
    trail = Trail(f"sqlite:///{path}")
    trail.migrate()
    trail.close()
    return path


@pytest.fixture(params=BACKENDS)
def db_url(request: pytest.FixtureRequest, tmp_path: Path, sqlite_template: Path) -> str:
    """An empty, migrated trail database: SQLite, then PostgreSQL."""
    if request.param == "sqlite":
        shutil.copy(sqlite_template, tmp_path / "trail.db")
        return f"sqlite:///{tmp_path / 'trail.db'}"
    from trail.testing import reset_trail

    url = request.getfixturevalue("pg_url")
    reset_trail(url)
    return url


@pytest.fixture
def trail(db_url: str) -> Iterator[Any]:
    from trail import Trail

    t = Trail(db_url)
    yield t
    t.close()


# -- the engine's shipped default model ---------------------------------------------------


@pytest.fixture(scope="session")
def default_model() -> Any:
    """The shipped default model on CPU, loaded once; torch runs on one thread (the machines
    the suite runs on share their cores)."""
    torch = pytest.importorskip("torch")
    from engine import load_model

    torch.set_num_threads(1)
    return load_model("default", device="cpu")
