"""Checkpoints outside the database, incremental verification, automatic checkpoints, key
strength, and RFC 8785 hashes a third party can recompute (issue 14, findings 7, 9, 10, 11
and the canonical-JSON item)."""

from __future__ import annotations

import hashlib
import hmac
import importlib
import json
import subprocess
import sys
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest
import rfc8785
from sqlalchemy import delete, update

from auditor.errors import UsageError
from trail import Trail
from trail.checkpoints import CheckpointPolicy, check_key_strength, key_id
from trail.export import export_trail
from trail.models import Audit, TrailCheckpoint
from trail.testing import fake_result

from .test_trail_checkpoints import KEY, _fill, _rewrite_whole_chain

REPO = Path(__file__).resolve().parents[2]


def _policy(tmp_path: Path, every_records: int = 0, every_s: float = 0.0) -> CheckpointPolicy:
    return CheckpointPolicy(KEY, tmp_path / "checkpoints.jsonl", every_records, every_s)


def test_deleting_stored_checkpoints_then_rewriting_is_caught_by_the_log(
    trail: Trail, tmp_path: Path
) -> None:
    trail.use_checkpoints(_policy(tmp_path))
    _fill(trail)
    trail.checkpoint(KEY)
    assert (tmp_path / "checkpoints.jsonl").read_text().count("\n") == 1
    with trail.session(write=True) as s:  # the insider removes the evidence first...
        s.execute(delete(TrailCheckpoint))
    _rewrite_whole_chain(trail, "rewritten")  # ...then rewrites the chain
    report = trail.verify(key=KEY)
    codes = {p["code"] for p in report.problems}
    assert not report.ok and {"checkpoint_missing", "checkpoint_mismatch"} <= codes


def test_verification_starts_after_the_newest_signed_checkpoint(trail: Trail) -> None:
    _fill(trail, 6)
    cp = trail.checkpoint(KEY)
    _fill(trail, 2)
    incremental = trail.verify(key=KEY)
    assert incremental.ok and incremental.from_seq == cp["seq"] == 6
    assert incremental.checked == 2 and not incremental.full
    seen: list[int] = []
    full = trail.verify(key=KEY, full=True, progress=seen.append)
    assert full.ok and full.checked == 8 and full.from_seq == 0 and seen[-1] == 8
    assert full.head_hash == incremental.head_hash
    with trail.session(write=True) as s:  # a change after the checkpoint is still caught
        s.execute(update(Audit).where(Audit.seq == 7).values(text="forged"))
    assert trail.verify(key=KEY).first_broken["seq"] == 7


def test_checkpoints_are_signed_automatically(trail: Trail, tmp_path: Path) -> None:
    trail.use_checkpoints(_policy(tmp_path, every_records=3))
    for _ in range(7):
        _fill(trail, 1)
        trail.wait_for_checkpoint()
    assert [cp["seq"] for cp in trail.checkpoints()] == [3, 6]
    logged = [json.loads(line) for line in (tmp_path / "checkpoints.jsonl").read_text().split()]
    assert [cp["seq"] for cp in logged] == [3, 6]
    timed, later = _policy(tmp_path, every_s=60), datetime.now(UTC) + timedelta(minutes=2)
    assert timed.due(7, trail.checkpoints()[-1], later)  # records added, newest is old
    assert not timed.due(6, trail.checkpoints()[-1], later)  # nothing new since
    assert not timed.due(7, trail.checkpoints()[-1], datetime.now(UTC))  # newest is recent


@pytest.mark.parametrize(
    "weak",
    [b"a" * 16, b"a" * 64, b"abcd" * 16, b"0123456789abcdef" * 2, b"short"],
    ids=["16a", "64a", "abcd", "period16", "short"],
)
def test_weak_checkpoint_keys_are_refused(trail: Trail, weak: bytes) -> None:
    with pytest.raises(UsageError):
        check_key_strength(weak)
    with pytest.raises(UsageError):
        trail.checkpoint(weak)


def test_key_id_does_not_allow_offline_guessing() -> None:
    assert check_key_strength(KEY) == KEY
    plain = hashlib.sha256(b"kgaudit-checkpoint-key:" + KEY).hexdigest()[:16]
    assert key_id(KEY) != plain  # the old id: anyone could test a guessed key against it
    assert (
        key_id(KEY) == hmac.new(KEY, b"kgaudit checkpoint key id", hashlib.sha256).hexdigest()[:16]
    )


def _record_v1(trail: Trail, monkeypatch: pytest.MonkeyPatch, n: int) -> None:
    """Records hashed as before migration 0002 (format 1), as the older code wrote them."""
    with monkeypatch.context() as m:
        m.setattr(importlib.import_module("trail.append"), "HASH_VERSION", 1)
        _fill(trail, n)


def test_old_records_keep_verifying_and_new_ones_use_rfc8785(
    trail: Trail, monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    _record_v1(trail, monkeypatch, 3)
    trail.record(
        fake_result(),
        text="Ünïcode ✓ 𝄞",
        tenant="acme",
        metadata={"score": 1.0, "big": 2**53 - 1, "nested": {"b": [0.1, 1e21]}},
    )
    assert trail.verify().ok and trail.verify(full=True).checked == 4
    out = tmp_path / "trail.jsonl"
    assert export_trail(trail, out) == 4
    lines = [json.loads(line) for line in out.read_text(encoding="utf-8").splitlines()]
    assert [line["hash_version"] for line in lines] == [1, 1, 1, 2]
    last = lines[-1]
    event = {
        k: last[k]
        for k in ("seq", "kind", "audit_id", "tenant_id", "created_at", "record_hash", "prev_hash")
    }
    assert hashlib.sha256(rfc8785.dumps({"v": 2, **event})).hexdigest() == last["hash"]
    with trail.session(write=True) as s:
        s.execute(update(Audit).where(Audit.seq == 2).values(text="forged"))
    assert trail.verify().first_broken["seq"] == 2


def test_third_party_script_reverifies_an_export(
    trail: Trail, monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    _record_v1(trail, monkeypatch, 2)
    _fill(trail, 3)
    out = tmp_path / "trail.jsonl"
    export_trail(trail, out)
    script = [sys.executable, str(REPO / "docs" / "trail_verify.py"), str(out)]
    ok = subprocess.run(script, capture_output=True, text=True, timeout=60)
    assert ok.returncode == 0 and ok.stdout.startswith("ok: 5 records"), ok.stdout + ok.stderr
    lines = out.read_text(encoding="utf-8").splitlines()
    forged = json.loads(lines[3])
    forged["audit"]["text"] = "forged"
    lines[3] = json.dumps(forged)
    out.write_text("\n".join(lines) + "\n", encoding="utf-8")
    bad = subprocess.run(script, capture_output=True, text=True, timeout=60)
    assert bad.returncode == 1 and "BROKEN seq 4" in bad.stdout
