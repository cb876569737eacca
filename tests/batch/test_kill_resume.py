"""SIGKILL a real ``kgaudit batch`` mid-run, rerun it: every record exactly once, everywhere."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import uuid
from pathlib import Path

import orjson
import pytest

from services.batch.generate import transcripts
from trail import Trail

from ..helpers import wait_until

pytestmark = pytest.mark.slow
N = 150
KILL_AFTER_LINES = 30
MARK = "KGAUDIT_BATCH_KILL_TEST"


def _batch(inp: Path, out: Path, db: str, mark: str) -> subprocess.Popen[bytes]:
    env = {**os.environ, MARK: mark}
    return subprocess.Popen(
        [
            sys.executable,
            "-m",
            "services.cli.main",
            "batch",
            str(inp),
            "--out",
            str(out),
            "--db",
            db,
            "--workers",
            "1",
            "--chunk-size",
            "2",
            "--no-progress",
            "--json",
        ],
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
    )


def _lines(path: Path) -> int:
    return path.read_bytes().count(b"\n") if path.exists() else 0


def _marked_processes(mark: str) -> list[int]:
    """Processes (the batch and its workers) whose environment carries ``mark``."""
    found = []
    needle = f"{MARK}={mark}".encode()
    for d in Path("/proc").iterdir():
        if d.name.isdigit():
            try:
                if needle in (d / "environ").read_bytes():
                    found.append(int(d.name))
            except OSError:
                continue
    return found


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="uses /proc and SIGKILL")
def test_sigkill_then_rerun_audits_every_record_exactly_once(tmp_path: Path, kb) -> None:
    inp = tmp_path / "in.jsonl"
    rows = [orjson.dumps(t) for t in transcripts(N, seed=7)]
    rows.insert(N // 2, b'{"id": "broken", "text": "cut off')  # a bad line mid-input
    inp.write_bytes(b"\n".join(rows) + b"\n")
    out, db = tmp_path / "out.jsonl", f"sqlite:///{tmp_path / 'trail.db'}"
    mark = uuid.uuid4().hex

    proc = _batch(inp, out, db, mark)
    wait_until(
        lambda: _lines(out) >= KILL_AFTER_LINES or proc.poll() is not None,
        180,
        interval=0.05,
        what=f"the batch to write {KILL_AFTER_LINES} lines",
    )
    assert proc.poll() is None, f"the batch ended before the kill: {proc.stderr.read()!r}"
    os.kill(proc.pid, signal.SIGKILL)
    proc.wait()
    written_before = _lines(out)
    assert written_before < N

    wait_until(  # the orphaned worker notices and exits
        lambda: not _marked_processes(mark),
        10,
        interval=0.1,
        what="the worker processes of the killed batch to exit",
    )

    again = _batch(inp, out, db, mark)
    stdout, stderr = again.communicate(timeout=300)
    assert again.returncode == 0, stderr.decode()
    summary = orjson.loads(stdout)
    assert summary["skipped"] >= written_before - 1
    assert summary["records"] == N + 1 and summary["failed"] == 1

    entries = [orjson.loads(line) for line in out.read_bytes().splitlines()]
    ids = [e["id"] for e in entries]
    expected = [f"gen-{i:06d}/2" for i in range(N)]
    assert len(ids) == len(set(ids)) == N + 1
    assert [i for i in ids if i.startswith("gen-")] == expected  # input order, once each
    trail = Trail(db)
    stored = [a["external_id"] for a in trail.iter_audits(tenant="default")]
    assert sorted(stored) == sorted(expected)  # exactly once in the trail
    by_id = {e["id"]: e for e in entries}
    assert all(
        by_id[a["external_id"]]["audit_id"] == a["id"] for a in trail.iter_audits(tenant="default")
    )
    assert trail.verify().ok
    trail.close()
