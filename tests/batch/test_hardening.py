"""A record that cannot be stored or audited in time fails alone: the run and every rerun go
on (issue 14, finding 3 and the audit deadline)."""

from __future__ import annotations

import json
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from auditor.deadline import check
from services.batch import BatchOptions, InlineBackend, run_batch
from services.batch.sources import open_source
from trail import Trail
from trail.testing import fake_audit

from .conftest import read_results


def _deep(levels: int) -> str:
    return "[" * levels + "]" * levels


def _run(path: Path, out: Path, trail: Trail, audit_fn: Callable[..., Any], **opts: Any) -> Any:
    return run_batch(
        open_source(path),
        out=out,
        trail=trail,
        backend=InlineBackend(audit_fn=audit_fn),
        options=BatchOptions(progress=False, **opts),
    )


def test_deeply_nested_metadata_fails_one_record_not_the_run(tmp_path: Path, trail: Trail) -> None:
    path = tmp_path / "in.jsonl"
    rows = [
        '{"id": "a", "text": "Aspirin is an NSAID.", "domain": "medical"}',
        '{"id": "deep", "text": "Aspirin.", "domain": "medical", "metadata": {"x": '
        + _deep(300)
        + "}}",
        '{"id": "b", "text": "Ibuprofen is an NSAID.", "domain": "medical"}',
    ]
    path.write_text("\n".join(rows) + "\n", encoding="utf-8")
    out = tmp_path / "out.jsonl"
    summary = _run(path, out, trail, fake_audit)
    lines = {r["id"]: r for r in read_results(out)}
    assert [lines[i]["status"] for i in ("a", "deep", "b")] == ["ok", "error", "ok"]
    assert "metadata" in lines["deep"]["error"] and summary.audited == 2
    assert trail.count() == 2 and trail.verify().ok  # the refused record is not in the trail
    again = _run(path, out, trail, fake_audit)  # a rerun resumes cleanly
    assert again.audited == 0 and again.skipped == 3 and len(read_results(out)) == 3


def test_a_record_over_the_audit_time_limit_fails_alone(tmp_path: Path, trail: Trail) -> None:
    def slow_on_x(text: str, **kw: Any) -> Any:
        if "slow" in text:
            time.sleep(0.3)
            check()  # where the real auditor checks: between sentences
        return fake_audit(text, **kw)

    path = tmp_path / "in.jsonl"
    path.write_text(
        '{"id": "1", "text": "fast one"}\n{"id": "2", "text": "slow one"}\n'
        '{"id": "3", "text": "fast again"}\n',
        encoding="utf-8",
    )
    out = tmp_path / "out.jsonl"
    summary = _run(path, out, trail, slow_on_x, audit_timeout_s=0.05)
    lines = {r["id"]: r for r in read_results(out)}
    assert [lines[i]["status"] for i in "123"] == ["ok", "error", "ok"]
    assert "longer than 0.05 s" in lines["2"]["error"] and summary.audited == 2


def test_a_raised_metadata_limit_reaches_the_workers(
    tmp_path: Path, trail: Trail, monkeypatch: Any
) -> None:
    """The batch reader and the workers' ``prepare`` read one limit from the settings."""
    from auditor.settings import get_settings

    monkeypatch.setenv("KGAUDIT_MAX_METADATA_BYTES", "200000")
    get_settings.cache_clear()
    try:
        path = tmp_path / "in.jsonl"
        row = {
            "id": "big",
            "text": "Aspirin.",
            "domain": "medical",
            "metadata": {"b": "x" * 100_000},
        }
        path.write_text(json.dumps(row) + "\n", encoding="utf-8")
        out = tmp_path / "out.jsonl"
        summary = _run(path, out, trail, fake_audit)
        assert [r["status"] for r in read_results(out)] == ["ok"] and summary.audited == 1
        assert trail.count() == 1
    finally:
        monkeypatch.delenv("KGAUDIT_MAX_METADATA_BYTES")
        get_settings.cache_clear()
