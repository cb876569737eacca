"""Local process pool and Ray give the same results as in-process audit(), graphs loaded once."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import orjson
import pytest

from auditor.errors import UsageError
from services.batch import BatchOptions, InlineBackend, JsonlSource, run_batch
from services.batch.backends import LocalBackend, RayBackend, make_backend
from services.batch.generate import transcripts
from trail import Trail


@pytest.fixture(scope="module")
def mixed_input(tmp_path_factory: pytest.TempPathFactory, examples_dir: Path) -> Path:
    path = tmp_path_factory.mktemp("mixed") / "mixed.jsonl"
    lines = (examples_dir / "transcripts.jsonl").read_bytes().splitlines()
    lines += (examples_dir / "transcripts_bad.jsonl").read_bytes().splitlines()
    lines += [orjson.dumps(t) for t in transcripts(30, seed=11)]
    path.write_bytes(b"\n".join(lines) + b"\n")
    return path


def _run(backend: Any, inp: Path, tmp: Path, name: str, template: Path) -> list[dict[str, Any]]:
    import shutil

    shutil.copy(template, tmp / f"{name}.db")
    trail = Trail(f"sqlite:///{tmp / (name + '.db')}")
    out = tmp / f"{name}.jsonl"
    run_batch(
        JsonlSource(inp),
        out=out,
        trail=trail,
        backend=backend,
        options=BatchOptions(progress=False, chunk_size=3),
    )
    assert trail.verify().ok
    trail.close()
    return [orjson.loads(line) for line in out.read_bytes().splitlines()]


def _comparable(entries: list[dict[str, Any]]) -> list[tuple[Any, ...]]:
    return [
        (e["id"], e["status"], e.get("error"), e.get("result"), e.get("metadata")) for e in entries
    ]


@pytest.fixture(scope="module")
def inline_results(
    mixed_input: Path, sqlite_template: Path, tmp_path_factory: pytest.TempPathFactory
) -> list[dict[str, Any]]:
    """The reference: this process's ``auditor.audit`` (built exactly like a worker's)."""
    backend = InlineBackend()
    return _run(backend, mixed_input, tmp_path_factory.mktemp("inline"), "inline", sqlite_template)


@pytest.mark.slow
def test_local_pool_equals_in_process(
    mixed_input, inline_results, sqlite_template, tmp_path: Path
) -> None:
    backend = LocalBackend(workers=2)
    local = _run(backend, mixed_input, tmp_path, "local", sqlite_template)
    assert _comparable(local) == _comparable(inline_results)
    assert sum(e["status"] == "error" for e in local) == 7


@pytest.fixture(scope="module")
def ray_instance() -> Iterator[None]:
    ray = pytest.importorskip("ray")
    ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False)
    yield
    ray.shutdown()


@pytest.mark.ray
@pytest.mark.slow
def test_ray_equals_local_and_loads_graphs_once_per_worker(
    ray_instance, mixed_input, inline_results, sqlite_template, tmp_path: Path
) -> None:
    backend = RayBackend(workers=2)
    on_ray = _run(backend, mixed_input, tmp_path, "ray", sqlite_template)
    stats = backend.last_stats  # the actors' counters, read before close() killed them
    assert _comparable(on_ray) == _comparable(inline_results)
    assert len(stats) == 2 and len({s["pid"] for s in stats}) == 2
    assert all(s["auditors_built"] == 1 for s in stats)  # graphs loaded once per worker
    assert sum(s["audited"] for s in stats) == sum(e["status"] == "ok" for e in on_ray)
    assert all(s["audited"] > 0 for s in stats)


def test_backend_choices() -> None:
    assert isinstance(make_backend("local", 0), InlineBackend)
    assert isinstance(make_backend("local", 3), LocalBackend)
    with pytest.raises(UsageError, match="--ray-address needs --backend ray"):
        make_backend("local", 1, ray_address="auto")
    with pytest.raises(UsageError, match="at least 1"):
        make_backend("ray", 0)
