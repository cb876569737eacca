"""8 writer processes × 200 audits: the chain verifies, nothing is lost or duplicated.

The writers use a cheap fake result so the test measures the chain, not the auditor. Each
writer also races the others for 20 shared external ids, of which exactly one copy each
must be stored. Meanwhile the chain is verified again and again, and must never look broken.
"""

from __future__ import annotations

import multiprocessing as mp
import time

import pytest

from trail import Trail
from trail.testing import fake_result

WRITERS, PER_WRITER, SHARED = 8, 200, 20


def _writer(db_url: str, worker: int, start: float) -> list[tuple[int, bool]]:
    trail = Trail(db_url, durable=False)  # fsync speed is not what this test measures
    res = fake_result()
    time.sleep(max(0.0, start - time.time()))  # start together
    out = []
    for i in range(PER_WRITER):
        rec = trail.record(
            res,
            text=f"writer {worker} audit {i}",
            tenant="acme",
            external_id=f"w{worker}-{i}",
            source="batch",
        )
        out.append((rec.seq, rec.created))
        if i % (PER_WRITER // SHARED) == 0:
            shared = trail.record(
                res,
                text="shared",
                tenant="acme",
                external_id=f"shared-{i // (PER_WRITER // SHARED)}",
            )
            out.append((shared.seq, shared.created))
    trail.close()
    return out


@pytest.mark.slow
def test_parallel_writers_never_fork_the_chain(db_url: str) -> None:
    ctx = mp.get_context("fork")
    start = time.time() + 1.0
    began = time.perf_counter()
    with ctx.Pool(WRITERS) as pool:
        pending = pool.starmap_async(_writer, [(db_url, w, start) for w in range(WRITERS)])
        trail = Trail(db_url)
        during = []  # verifying while the writers append must never report a false break
        while not pending.ready():
            during.append(trail.verify())
            pending.wait(2.0)  # verify again in 2 s, or stop as soon as the writers are done
        results = pending.get()
    elapsed = time.perf_counter() - began
    assert during and all(r.ok for r in during), [r.first_broken for r in during if not r.ok]
    report = trail.verify()
    total = WRITERS * PER_WRITER + SHARED
    assert report.ok, report.first_broken
    assert report.checked == total == trail.count()
    created = [seq for r in results for seq, was_created in r if was_created]
    assert sorted(created) == list(range(1, total + 1))  # no lost, no duplicated seq
    ext = [a["external_id"] for a in trail.iter_audits(tenant="acme")]
    assert len(ext) == len(set(ext)) == total
    assert {e for e in ext if e.startswith("shared-")} == {f"shared-{k}" for k in range(SHARED)}
    for r in results:  # each writer's own appends are ordered
        own = [seq for seq, was_created in r if was_created]
        assert own == sorted(own)
    print(
        f"\n{db_url.split(':')[0]}: {total} appends by {WRITERS} writers in {elapsed:.1f} s "
        f"({total / elapsed:.0f}/s)"
    )
    trail.close()
