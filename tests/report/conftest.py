"""A trail with real audits (examples + generated transcripts) and a signed checkpoint.

Built once per session and only read by the report tests.
"""

from __future__ import annotations

from collections.abc import Iterator
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import orjson
import pytest

from services.batch import JsonlSource
from services.batch.generate import transcripts
from trail import Trail

KEY = b"report-test-checkpoint-key-0123456789"


@pytest.fixture(scope="session")
def today() -> str:
    return datetime.now(UTC).date().isoformat()


@pytest.fixture(scope="session")
def report_db(
    tmp_path_factory: pytest.TempPathFactory, auditor_obj: Any, examples_dir: Path
) -> Iterator[str]:
    url = f"sqlite:///{tmp_path_factory.mktemp('report') / 'trail.db'}"
    trail = Trail(url)
    trail.migrate()
    records = [*JsonlSource(examples_dir / "transcripts.jsonl")]
    gen = tmp_path_factory.mktemp("gen") / "gen.jsonl"
    gen.write_bytes(b"".join(orjson.dumps(t) + b"\n" for t in transcripts(18, seed=5)))
    records += [*JsonlSource(gen)]
    from auditor.risk import apply_operating_point

    for i, r in enumerate(records):
        result = auditor_obj.audit(
            r.text, domain=r.domain or "auto", as_of=r.as_of, citations=r.citations
        )
        if i % 2 == 0 and result.domain != "auto":  # half the audits flagged at FPR 5 %
            apply_operating_point(result, 0.05)
        trail.record(
            result,
            text=r.text,
            external_id=r.id,
            source="batch",
            metadata=r.metadata,
            request={"domain": r.domain or "auto", "as_of": r.as_of, "citations": r.citations},
        )
    other = auditor_obj.audit("Roe v. Wade was decided in 1971.", domain="legal")
    trail.record(other, text="Roe v. Wade was decided in 1971.", tenant="other")
    trail.checkpoint(KEY)
    trail.close()
    yield url


@pytest.fixture
def report_trail(report_db: str) -> Iterator[Trail]:
    t = Trail(report_db)
    yield t
    t.close()


@pytest.fixture(scope="session")
def report_dict(report_db: str, today: str, kb: Any, ruleset: Any) -> dict[str, Any]:
    from services.report import build_report

    trail = Trail(report_db)
    try:
        return build_report(trail, start=today, end=today, kb=kb, rules=ruleset, key=KEY)
    finally:
        trail.close()
