"""Fixtures for the batch tests: a fresh SQLite trail per test, inputs, an in-process backend.

``trail``, ``examples_dir`` and the SQLite template are the root ``tests/conftest.py``'s.
Fast tests audit in this process (``InlineBackend``) with the session's auditor; the tests
that need real worker processes (kill/resume, Ray equivalence) start them themselves.
"""

from __future__ import annotations

import shutil
from collections.abc import Callable
from pathlib import Path
from typing import Any

import orjson
import pytest

from services.batch import BatchOptions, InlineBackend, run_batch
from services.batch.summary import BatchSummary
from trail import Trail


@pytest.fixture
def db_url(tmp_path: Path, sqlite_template: Path) -> str:
    """SQLite only (the root fixture also runs PostgreSQL): the batch tests measure the batch."""
    shutil.copy(sqlite_template, tmp_path / "trail.db")
    return f"sqlite:///{tmp_path / 'trail.db'}"


@pytest.fixture
def write_jsonl(tmp_path: Path) -> Callable[..., Path]:
    def write(rows: list[Any], name: str = "in.jsonl") -> Path:
        path = tmp_path / name
        with path.open("wb") as f:
            for r in rows:
                f.write((r if isinstance(r, bytes) else orjson.dumps(r)) + b"\n")
        return path

    return write


@pytest.fixture
def run_inline(auditor_obj: Any, trail: Trail, tmp_path: Path) -> Callable[..., BatchSummary]:
    """Run a batch in this process with the session's auditor."""

    def run(source: Any, out: Path | None = None, **options: Any) -> BatchSummary:
        backend = InlineBackend(audit_fn=auditor_obj.audit)
        return run_batch(
            source,
            out=out or tmp_path / "out.jsonl",
            trail=trail,
            backend=backend,
            options=BatchOptions(progress=False, **options),
        )

    return run


def read_results(path: Path) -> list[dict[str, Any]]:
    return [orjson.loads(line) for line in path.read_bytes().splitlines() if line.strip()]


@pytest.fixture
def results() -> Callable[[Path], list[dict[str, Any]]]:
    return read_results


@pytest.fixture
def trail_ids() -> Callable[[Trail], list[str]]:
    def ids(t: Trail, tenant: str = "default") -> list[str]:
        return [a["external_id"] for a in t.iter_audits(tenant=tenant)]

    return ids
