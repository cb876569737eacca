"""Group commit: concurrent appends share transactions; nothing acknowledged is lost."""

from __future__ import annotations

import importlib
import multiprocessing as mp
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest

from auditor.errors import DataError
from auditor.settings import Settings
from trail import Trail, append
from trail.testing import fake_result

append_module = importlib.import_module("trail.append")  # the name is the function
THREADS, PER_THREAD = 16, 20


def _hammer(trail: Trail, threads: int, per_thread: int, tag: str = "") -> list[tuple[str, int]]:
    res, start = fake_result(), threading.Barrier(threads)

    def work(t: int) -> list[tuple[str, int]]:
        start.wait()
        out = []
        for i in range(per_thread):
            rec = trail.record(res, text=f"{tag}thread {t} audit {i}", tenant=f"t{t % 3}")
            out.append((rec.id, rec.seq))
        return out

    with ThreadPoolExecutor(threads) as pool:
        return [r for rs in pool.map(work, range(threads)) for r in rs]


def test_concurrent_appends_are_batched_and_all_kept(db_url: str) -> None:
    trail = Trail(db_url, group_window_s=0.005, group_max_batch=16)
    acked = _hammer(trail, THREADS, PER_THREAD)
    total = THREADS * PER_THREAD
    assert sorted(seq for _, seq in acked) == list(range(1, total + 1))
    assert trail.count() == total
    assert trail.committer is not None and trail.committer.batches < total  # batched
    for aid, seq in acked[::37]:
        stored = next(a for a in trail.iter_audits() if a["id"] == aid)
        assert stored["seq"] == seq
    report = trail.verify()  # chain and Merkle tree
    assert report.ok and report.checked == total, report.first_broken
    trail.close()


def test_a_bad_item_fails_alone(db_url: str, monkeypatch: pytest.MonkeyPatch) -> None:
    real = append_module.audit_row

    def audit_row(result, **kw):  # type: ignore[no-untyped-def]
        if kw["text"] == "poison":
            raise DataError("refused")
        return real(result, **kw)

    monkeypatch.setattr(append_module, "audit_row", audit_row)
    trail = Trail(db_url, group_window_s=0.05, group_max_batch=64)
    texts = ["a", "poison", "b", "c"]
    with ThreadPoolExecutor(len(texts)) as pool:
        futures = [pool.submit(trail.record, fake_result(), text=t) for t in texts]
        outcomes = [f.exception() or f.result() for f in futures]
    assert isinstance(outcomes[1], DataError)
    assert sorted(o.seq for i, o in enumerate(outcomes) if i != 1) == [1, 2, 3]
    assert trail.verify().ok
    trail.close()


def test_settings_configure_the_window_and_batch(tmp_path: Path) -> None:
    settings = Settings(
        home=tmp_path, trail_group_commit_window_ms=7.5, trail_group_commit_max_batch=9
    )
    trail = Trail.from_settings(settings)
    assert trail.committer is not None
    assert (trail.committer.window_s, trail.committer.max_batch) == (0.0075, 9)
    trail.migrate()
    rec, _ = append(trail, append_module.prepare(fake_result(), text="x"))
    assert rec.seq == 1
    off = Trail.from_settings(Settings(home=tmp_path, trail_group_commit_max_batch=1))
    assert off.committer is None and off.record(fake_result(), text="y").seq == 2
    trail.close()
    off.close()


def _process(db_url: str, worker: int, start: float) -> list[tuple[str, int]]:
    trail = Trail(db_url, durable=False, group_window_s=0.002)
    time.sleep(max(0.0, start - time.time()))
    out = _hammer(trail, 8, 25, tag=f"p{worker} ")
    trail.close()
    return out


@pytest.mark.slow
def test_several_processes_each_batching(db_url: str) -> None:
    """4 processes × 8 threads: the head-row lock serialises the batches of the processes."""
    start = time.time() + 1.0
    with mp.get_context("fork").Pool(4) as pool:
        results = pool.starmap(_process, [(db_url, w, start) for w in range(4)])
    acked = [r for rs in results for r in rs]
    trail = Trail(db_url)
    assert sorted(seq for _, seq in acked) == list(range(1, len(acked) + 1))
    assert {a["id"] for a in trail.iter_audits()} == {aid for aid, _ in acked}
    report = trail.verify()
    assert report.ok and report.checked == 4 * 8 * 25, report.first_broken
    trail.close()
