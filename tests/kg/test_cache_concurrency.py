"""Several processes building one graph cache at once (xdist workers, batch workers) must not
rename each other's temporary file away: each writes under a name of its own."""

from __future__ import annotations

import multiprocessing as mp
from pathlib import Path

import pytest

from knowledge_graphs.cache import build_domain, load_domain

pytestmark = pytest.mark.slow  # spawns processes


def test_concurrent_builds_of_one_cache_all_succeed(tmp_path: Path) -> None:
    ctx = mp.get_context("spawn")
    procs = [
        ctx.Process(target=build_domain, args=("finance", tmp_path), kwargs={"quiet": True})
        for _ in range(4)
    ]
    for p in procs:
        p.start()
    for p in procs:
        p.join(120)
    assert [p.exitcode for p in procs] == [0, 0, 0, 0]
    ents, facts, _ = load_domain("finance", tmp_path)
    assert ents and facts
    assert not list(tmp_path.glob("*.tmp"))  # every writer renamed its own file into place
