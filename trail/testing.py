"""Helpers for tests that need a trail database (used by kgaudit's own suites).

``postgres_database()`` creates a throw-away PostgreSQL database on the server named by
``KGAUDIT_TEST_PG_URL`` (default ``postgresql+psycopg://postgres@127.0.0.1:5432/test``) and
drops it afterwards. ``fake_result()`` builds a valid ``AuditResult.to_dict()``-shaped dict
without running the auditor, for tests that measure the trail rather than the auditor.
"""

from __future__ import annotations

import os
import uuid
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from typing import Any

from sqlalchemy import create_engine, text
from sqlalchemy.engine import make_url

DEFAULT_PG_URL = "postgresql+psycopg://postgres@127.0.0.1:5432/test"


def pg_admin_url() -> str:
    return os.environ.get("KGAUDIT_TEST_PG_URL", DEFAULT_PG_URL)


def postgres_available() -> str | None:
    """None when the test server answers, else why not (one sentence)."""
    try:
        engine = create_engine(pg_admin_url(), connect_args={"connect_timeout": 3})
        with engine.connect() as conn:
            conn.execute(text("SELECT 1"))
        engine.dispose()
    except Exception as exc:  # any driver or network error means "not available"
        return (
            f"PostgreSQL at {make_url(pg_admin_url()).render_as_string()} is not "
            f"reachable ({type(exc).__name__})"
        )
    return None


@contextmanager
def postgres_database(prefix: str = "kgaudit_t") -> Iterator[str]:
    """A fresh, empty database; yields its SQLAlchemy URL and drops it on exit."""
    name = f"{prefix}_{uuid.uuid4().hex[:12]}"
    admin = create_engine(pg_admin_url(), isolation_level="AUTOCOMMIT")
    # DDL takes no bind parameters: the name is generated here and quoted by the dialect.
    quoted = admin.dialect.identifier_preparer.quote(name)
    try:
        with admin.connect() as conn:
            conn.execute(text(f"CREATE DATABASE {quoted}"))
        yield make_url(pg_admin_url()).set(database=name).render_as_string(hide_password=False)
    finally:
        with admin.connect() as conn:
            conn.execute(text(f"DROP DATABASE IF EXISTS {quoted} WITH (FORCE)"))
        admin.dispose()


def reset_trail(db_url: str) -> None:
    """Empty every trail table and reset the chain head (faster than a new database)."""
    from sqlalchemy import delete, update

    from trail import Trail
    from trail.models import (
        HEAD_ROW_ID,
        ApiKey,
        Audit,
        AuditClaim,
        Review,
        Tenant,
        TrailCheckpoint,
        TrailEvent,
        TrailHead,
        TreeHead,
        TreeNode,
    )

    trail = Trail(db_url)
    try:
        with trail.session(write=True) as s:
            for model in (
                Review,
                AuditClaim,
                TrailEvent,
                Audit,
                ApiKey,
                Tenant,
                TrailCheckpoint,
                TreeNode,
                TreeHead,
            ):
                s.execute(delete(model))
            s.execute(
                update(TrailHead)
                .where(TrailHead.id == HEAD_ROW_ID)
                .values(seq=0, hash=None, updated_at=None)
            )
    finally:
        trail.close()


def fake_result(
    text_: str = "Adults should not take more than 4,000 mg of acetaminophen a day.",
    *,
    domain: str = "medical",
    verdicts: Sequence[str] = ("supported", "contradicted"),
    as_of: str = "2026-01-15",
    hallucination_type: str | None = "numeric_mismatch",
    kg_version: str = "kg-test",
) -> dict[str, Any]:
    """A valid result dict with one claim per verdict (spans cover the text)."""
    claims = []
    for i, v in enumerate(verdicts):
        claims.append(
            {
                "text": text_[:20],
                "start": 0,
                "end": min(20, len(text_)),
                "subject": f"ent:{i}",
                "predicate": "maxDailyDose",
                "object": "4000 mg",
                "verdict": v,
                "evidence": [{"fact": f"f{i}"}] if v != "unverifiable" else [],
                "rule_id": f"{domain}.rule_{i}",
                "hallucination_type": hallucination_type if v == "contradicted" else None,
            }
        )
    counts = {
        k: sum(1 for v in verdicts if v == k) for k in ("supported", "contradicted", "unverifiable")
    }
    checked = counts["supported"] + counts["contradicted"]
    fer = counts["contradicted"] / checked if checked else None
    types = (
        {hallucination_type: counts["contradicted"]}
        if (hallucination_type and counts["contradicted"])
        else {}
    )
    return {
        "domain": domain,
        "domains": [domain],
        "as_of": as_of,
        "claims": claims,
        "citations": [],
        "fer": fer,
        "citation_confidence": None,
        "joint_score": None,
        "coverage": checked / len(verdicts) if verdicts else None,
        "counts": counts,
        "hallucination_types": types,
        "kg_version": kg_version,
        "rules_version": "rules-test",
        "auditor_version": "kgaudit-auditor/test",
    }


def fake_audit(
    text_: str, *, domain: str, as_of: Any = None, citations: list[str] | None = None
) -> dict[str, Any]:
    """An ``audit()`` stand-in: deterministic, instant, honours ``as_of``."""
    kw: dict[str, Any] = {"domain": "medical" if domain == "auto" else domain}
    if as_of is not None:
        kw["as_of"] = str(as_of)
    return fake_result(text_, **kw)


__all__ = [
    "fake_audit",
    "fake_result",
    "pg_admin_url",
    "postgres_available",
    "postgres_database",
    "reset_trail",
]
