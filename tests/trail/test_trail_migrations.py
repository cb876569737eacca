"""Migrations upgrade from empty, match the models exactly, and round-trip."""

from __future__ import annotations

import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
from alembic.autogenerate import compare_metadata
from alembic.runtime.migration import MigrationContext
from sqlalchemy import inspect

from trail import Trail, db
from trail.models import Base
from trail.testing import fake_result, postgres_database

REPO = Path(__file__).resolve().parents[2]
TABLES = {
    "tenants",
    "api_keys",
    "audits",
    "audit_claims",
    "trail_events",
    "trail_head",
    "trail_checkpoints",
}


@pytest.fixture(params=["sqlite", pytest.param("postgres", marks=pytest.mark.postgres)])
def empty_url(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[str]:
    if request.param == "sqlite":
        yield f"sqlite:///{tmp_path / 'fresh.db'}"
        return
    request.getfixturevalue("pg_url")  # skips (or fails in CI) when the server is down
    with postgres_database("kgaudit_mig") as url:
        yield url


def _diff(trail: Trail) -> list:
    with trail.engine.connect() as conn:
        ctx = MigrationContext.configure(conn, opts={"compare_type": True})
        return compare_metadata(ctx, Base.metadata)


def test_upgrade_from_empty_matches_models_and_round_trips(empty_url: str) -> None:
    trail = Trail(empty_url)
    assert not db.has_schema(trail.engine)
    trail.migrate()
    assert set(inspect(trail.engine).get_table_names()) >= TABLES
    assert trail.schema_is_current()
    assert _diff(trail) == []  # autogenerate finds nothing: migration == models
    trail.record(fake_result(), text="before")
    db.downgrade(trail.engine, "base")
    assert not TABLES & set(inspect(trail.engine).get_table_names())
    assert not trail.schema_is_current()
    trail.migrate()
    assert _diff(trail) == []
    rec = trail.record(fake_result(), text="after")
    assert rec.seq == 1 and trail.verify().ok
    trail.close()


def test_constraint_names_come_from_the_naming_convention(tmp_path: Path) -> None:
    trail = Trail(f"sqlite:///{tmp_path / 'names.db'}")
    trail.migrate()
    insp = inspect(trail.engine)
    assert insp.get_pk_constraint("audits")["name"] == "pk_audits"
    assert {u["name"] for u in insp.get_unique_constraints("audits")} == {
        "uq_audits_seq",
        "uq_audits_tenant_id_external_id",
    }
    assert {i["name"] for i in insp.get_indexes("audit_claims")} >= {
        "ix_audit_claims_verdict_audit_id",
        "ix_audit_claims_hallucination_type_audit_id",
        "ix_audit_claims_rule_id_audit_id",
    }
    trail.close()


@pytest.mark.slow
def test_alembic_command_line_uses_the_ini_and_settings(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'cli.db'}"
    alembic = [
        sys.executable,
        "-m",
        "alembic",
        "-c",
        str(REPO / "alembic.ini"),
        "-x",
        f"db_url={url}",
    ]
    for args in (["upgrade", "head"], ["check"], ["downgrade", "base"], ["upgrade", "head"]):
        done = subprocess.run(
            [*alembic, *args], cwd=REPO, capture_output=True, text=True, timeout=120
        )
        assert done.returncode == 0, done.stderr
    assert Trail(url).schema_is_current()
