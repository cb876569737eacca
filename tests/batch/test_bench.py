"""``kgaudit bench batch`` runs end to end on a handful of transcripts (the real run is 10k)."""

from __future__ import annotations

import orjson
import pytest
from click.testing import CliRunner

from measure.bench.batch import bench_batch_command
from services.batch.generate import transcripts


@pytest.mark.slow
def test_bench_smoke() -> None:
    args = [
        "--records",
        "16",
        "--baseline-records",
        "8",
        "--backends",
        "local",
        "--workers",
        "1",
        "--modes",
        "trail",
        "--json",
    ]
    res = CliRunner().invoke(bench_batch_command, args, catch_exceptions=False)
    assert res.exit_code == 0, res.output
    info = orjson.loads(res.output[res.output.index("{") :])
    assert [(r["mode"], r["records"]) for r in info["runs"]] == [("trail", 16)]
    assert info["baseline_with_trail"]["rate"] > 0
    assert info["results_identical"] and info["baseline"]["rate"] > 0
    assert all(r["worker_cpu_ms"] > 0 for r in info["runs"])


def test_generated_transcripts_are_deterministic() -> None:
    a, b = list(transcripts(30, seed=2)), list(transcripts(30, seed=2))
    assert a == b and a != list(transcripts(30, seed=3))
    assert {t["domain"] for t in a} == {"finance", "legal", "medical"}
    words = [len(t["messages"][2]["content"].split()) for t in a]
    assert 40 <= sum(words) / len(words) <= 130
