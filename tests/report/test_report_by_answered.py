"""``kgaudit report --by answered``: stored history reported by the day it was said."""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import orjson
import pytest
from click.testing import CliRunner

from auditor.errors import UsageError
from services.cli.main import cli
from services.report import build_report
from services.report.data import NoAudits
from trail import Trail

TEXT = "Metformin treats type 2 diabetes."
# (external id, metadata.answered_at): two said in March 2025, one in June, one live
ROWS = [
    ("a", "2025-03-02T09:30:00Z"),
    ("b", "2025-03-20T23:30:00-02:00"),  # 2025-03-21 in UTC
    ("c", 1749038400),  # Unix seconds: 2025-06-04T12:00:00Z
    ("d", None),
]


@pytest.fixture(scope="module")
def history_db(tmp_path_factory: pytest.TempPathFactory, auditor_obj: Any) -> str:
    url = f"sqlite:///{tmp_path_factory.mktemp('answered') / 'trail.db'}"
    trail = Trail(url)
    trail.migrate()
    result = auditor_obj.audit(TEXT, domain="medical")
    for rid, when in ROWS:
        meta = {"model": "m"} if when is None else {"model": "m", "answered_at": when}
        trail.record(result, text=TEXT, external_id=rid, metadata=meta, source="batch")
    trail.close()
    return url


def _report(url: str, **kw: Any) -> dict[str, Any]:
    trail = Trail(url)
    try:
        return build_report(trail, **kw)
    finally:
        trail.close()


def test_answered_at_is_stored_in_utc(history_db: str) -> None:
    trail = Trail(history_db)
    try:
        got = {a["external_id"]: a["answered_at"] for a in trail.iter_audits(tenant="default")}
    finally:
        trail.close()
    assert got == {
        "a": "2025-03-02T09:30:00.000000Z",
        "b": "2025-03-21T01:30:00.000000Z",
        "c": "2025-06-04T12:00:00.000000Z",
        "d": None,
    }


def test_default_stays_by_recorded_day(history_db: str) -> None:
    today = datetime.now(UTC).date().isoformat()
    r = _report(history_db, start=today, end=today)
    assert r["summary"]["audits"] == 4
    assert r["parameters"]["by"] == "recorded"
    with pytest.raises(NoAudits, match="no audits were recorded from 2025-03-01"):
        _report(history_db, start="2025-03-01", end="2025-03-31")


def test_by_answered_selects_and_groups_by_the_day_said(history_db: str) -> None:
    r = _report(history_db, start="2025-03-01", end="2025-03-31", by="answered")
    assert r["summary"]["audits"] == 2
    assert r["parameters"]["by"] == "answered"
    days = sorted({d["date"] for d in r["fer_over_time"]})
    assert days == ["2025-03-02", "2025-03-21"]
    june = _report(history_db, start="2025-06-04", end="2025-06-04", by="answered")
    assert june["summary"]["audits"] == 1
    with pytest.raises(NoAudits, match="no audits were answered from 2025-04-01"):
        _report(history_db, start="2025-04-01", end="2025-05-31", by="answered")


def test_without_answered_at_an_audit_counts_on_its_recorded_day(history_db: str) -> None:
    today = datetime.now(UTC).date().isoformat()
    r = _report(history_db, start=today, end=today, by="answered")
    assert r["summary"]["audits"] == 1  # "d" only


def test_cli_by_answered(history_db: str, tmp_path: Path) -> None:
    out = tmp_path / "r.json"
    args = ["report", "--from", "2025-03-01", "--to", "2025-03-31", "--db", history_db]
    res = CliRunner().invoke(cli, [*args, "--by", "answered", "--out", str(out)])
    assert res.exit_code == 0, res.output
    assert orjson.loads(out.read_bytes())["summary"]["audits"] == 2
    res = CliRunner().invoke(cli, [*args, "--out", str(out)])
    assert res.exit_code != 0 and "no audits were recorded" in str(res.exception)


@pytest.mark.parametrize(
    "value", ["last tuesday", "2025-13-01", True, [2025]], ids=["words", "month", "bool", "list"]
)
def test_a_malformed_answered_at_is_refused(
    history_db: str, auditor_obj: Any, value: object
) -> None:
    trail = Trail(history_db)
    try:
        result = auditor_obj.audit(TEXT, domain="medical")
        with pytest.raises(UsageError, match="'answered_at'"):
            trail.record(result, text=TEXT, metadata={"answered_at": value})
    finally:
        trail.close()


def test_migration_0006_fills_answered_at_from_stored_metadata(
    tmp_path: Path, auditor_obj: Any
) -> None:
    from trail import db

    trail = Trail(f"sqlite:///{tmp_path / 't.db'}")
    try:
        trail.migrate()
        result = auditor_obj.audit(TEXT, domain="medical")
        trail.record(result, text=TEXT, external_id="x", metadata={"answered_at": "2025-03-02"})
        db.downgrade(trail.engine, "0005")  # the column goes; the metadata stays
        trail.migrate()
        assert db.current_revision(trail.engine) == db.head_revision()
        (audit,) = trail.iter_audits(tenant="default")
        assert audit["answered_at"] == "2025-03-02T00:00:00.000000Z"
        assert trail.verify().ok
    finally:
        trail.close()
