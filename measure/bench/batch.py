"""``kgaudit bench batch``: batch throughput against in-process ``audit()``.

Generates ``--records`` chatbot transcripts (:mod:`services.batch.generate`), measures the
in-process ``audit()`` rate on a subset (the baseline, after warm-up), then runs the batch
for every backend × worker count. Each run gets a fresh SQLite trail and results file.
Rates exclude worker start-up (graph loading), which is reported apart. Two modes:

* ``trail`` — the real ``kgaudit batch``: every audit recorded in the trail;
* ``audit-only`` — the same pipeline with the trail append replaced by a no-op, which
  isolates the scale-out of the worker pool from the cost of the trail.

The table states the machine (CPUs, load average before and after): on a shared machine,
other processes' load changes the ratios.
"""

from __future__ import annotations

import os
import shutil
import tempfile
import time
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import click
import orjson

from auditor.errors import UsageError
from services.batch.generate import transcripts, write_transcripts


class _NoAppend:
    """Stands in for the trail's ``append_many`` in ``audit-only`` mode: records nothing."""

    def __init__(self) -> None:
        self.seq = 0

    def __call__(self, pendings: list[Any]) -> list[tuple[Any, None]]:
        from trail.records import RecordedAudit

        out = []
        for _ in pendings:
            self.seq += 1
            now = datetime.now(UTC)
            out.append((RecordedAudit(f"bench-{self.seq}", self.seq, "", now, True, ""), None))
        return out


def _baseline(n: int, with_trail: Path | None = None) -> dict[str, float]:
    """A plain loop over ``audit()`` (optionally ``+ trail.record()``): records/s, CPU/record."""
    from auditor import get_auditor

    auditor = get_auditor()
    auditor.warm_up()
    items = [
        (t["messages"][2]["content"], t["domain"], t["as_of"], t["id"]) for t in transcripts(n)
    ]
    trail = None
    if with_trail is not None:
        from trail import Trail

        trail = Trail(f"sqlite:///{with_trail}")
        trail.migrate()
    start, cpu = time.perf_counter(), time.thread_time()
    for text, domain, as_of, rid in items:
        result = auditor.audit(text, domain=domain, as_of=as_of)
        if trail is not None:
            trail.record(result, text=text, external_id=rid, source="bench")
    rate = n / (time.perf_counter() - start)
    cpu_ms = 1000 * (time.thread_time() - cpu) / n
    if trail is not None:
        trail.close()
    return {"rate": rate, "cpu_ms": cpu_ms}


def _run(
    backend: str, workers: int, mode: str, data: Path, work: Path, chunk: int
) -> dict[str, Any]:
    from services.batch.backends import make_backend
    from services.batch.runner import BatchOptions, run_batch
    from services.batch.sources import JsonlSource
    from trail import Trail

    tag = f"{backend}-{workers}-{mode}"
    trail, append_fn = None, None
    if mode == "trail":
        trail = Trail(f"sqlite:///{work / (tag + '.db')}")
        trail.migrate()
    else:
        append_fn = _NoAppend()
    driver_cpu = time.process_time()
    summary = run_batch(
        JsonlSource(data),
        out=work / f"{tag}.jsonl",
        trail=trail,
        backend=make_backend(backend, workers),
        options=BatchOptions(chunk_size=chunk, progress=False),
        append_fn=append_fn,
    )
    driver_cpu = time.process_time() - driver_cpu
    if trail is not None:
        trail.close()
    busy, n = summary.elapsed_s - summary.startup_s, max(summary.audited, 1)
    return {
        "backend": backend,
        "workers": workers,
        "mode": mode,
        "records": summary.audited,
        "failed": len(summary.failures),
        "startup_s": round(summary.startup_s, 1),
        "seconds": round(busy, 1),
        "rate": summary.audited / busy if busy > 0 else 0.0,
        "worker_cpu_ms": 1000 * summary.worker_cpu_s / n,
        "driver_cpu_ms": 1000 * driver_cpu / n,
        "out": str(work / f"{tag}.jsonl"),
    }


def _results_identical(paths: list[str]) -> bool:
    """Whether every run wrote the same audit result for every record id."""
    digests: list[dict[str, bytes]] = []
    for p in paths:
        with open(p, "rb") as f:
            entries = [orjson.loads(line) for line in f]
        digests.append(
            {e["id"]: orjson.dumps(e.get("result"), option=orjson.OPT_SORT_KEYS) for e in entries}
        )
    return all(d == digests[0] for d in digests[1:])


def _table(
    rows: list[dict[str, Any]], base: dict[str, float], trail: dict[str, float] | None
) -> str:
    b = base["rate"]
    out = [
        "| run | workers | records/s | speed-up vs 1 worker | per worker rec/s | per worker vs "
        "in-process audit() | worker CPU ms/rec | driver CPU ms/rec | start-up s |",
        "|---|---|---|---|---|---|---|---|---|",
        f"| in-process `audit()` | 1 | {b:,.1f} | | {b:,.1f} | 100% | {base['cpu_ms']:.2f} | | |",
    ]
    if trail is not None:
        out.append(
            f"| in-process `audit()` + `trail.record()` | 1 | {trail['rate']:,.1f} | | "
            f"{trail['rate']:,.1f} | {trail['rate'] / b:.0%} | {trail['cpu_ms']:.2f} | | |"
        )
    for r in rows:
        one = next(
            (
                x["rate"]
                for x in rows
                if x["workers"] == 1 and x["backend"] == r["backend"] and x["mode"] == r["mode"]
            ),
            None,
        )
        speed = f"{r['rate'] / one:.2f}x" if one else ""
        per = r["rate"] / r["workers"]
        out.append(
            f"| {r['backend']} ({r['mode']}) | {r['workers']} | {r['rate']:,.1f} | {speed} | "
            f"{per:,.1f} | {per / b:.0%} | {r['worker_cpu_ms']:.2f} | {r['driver_cpu_ms']:.2f} | "
            f"{r['startup_s']} |"
        )
    return "\n".join(out)


@click.command("batch")
@click.option(
    "--records",
    type=click.IntRange(1),
    default=10_000,
    show_default=True,
    help="Generated transcripts per run.",
)
@click.option(
    "--workers",
    "workers_list",
    default="1,2",
    show_default=True,
    help="Comma-separated worker counts.",
)
@click.option(
    "--backends",
    default="local,ray",
    show_default=True,
    help="Comma-separated backends (local, ray).",
)
@click.option(
    "--modes",
    default="trail,audit-only",
    show_default=True,
    help="trail (real batch) and/or audit-only (trail append replaced by a no-op).",
)
@click.option(
    "--baseline-records",
    type=click.IntRange(1),
    default=2_000,
    show_default=True,
    help="Transcripts for the in-process audit() baseline.",
)
@click.option(
    "--chunk-size",
    type=click.IntRange(1, 1000),
    default=32,
    show_default=True,
    help="As for kgaudit batch.",
)
@click.option(
    "--work-dir",
    type=click.Path(file_okay=False, path_type=Path),
    default=None,
    help="Keep inputs, trails and results here (default: a temporary folder).",
)
@click.option("--json", "as_json", is_flag=True, help="Print the measurements as JSON.")
def bench_batch_command(
    records: int,
    workers_list: str,
    backends: str,
    modes: str,
    baseline_records: int,
    chunk_size: int,
    work_dir: Path | None,
    as_json: bool,
) -> None:
    """Batch throughput (records/s) for 1..N workers, local and Ray, vs in-process audit()."""
    workers = sorted({int(w) for w in workers_list.split(",") if w.strip()})
    kinds = [b.strip() for b in backends.split(",") if b.strip()]
    mode_list = [m.strip() for m in modes.split(",") if m.strip()]
    if (
        not workers
        or min(workers) < 1
        or not set(kinds) <= {"local", "ray"}
        or not set(mode_list) <= {"trail", "audit-only"}
    ):
        raise UsageError(
            "--workers takes counts >= 1, --backends local/ray, --modes trail/audit-only"
        )
    work = work_dir or Path(tempfile.mkdtemp(prefix="kgaudit-bench-"))
    work.mkdir(parents=True, exist_ok=True)
    try:
        info = _measure(work, records, workers, kinds, mode_list, baseline_records, chunk_size)
    finally:
        if work_dir is None:
            shutil.rmtree(work, ignore_errors=True)
    if as_json:
        click.echo(orjson.dumps(info, option=orjson.OPT_INDENT_2).decode())
        return
    click.echo(
        f"kgaudit bench batch: {records:,} generated transcripts, {os.cpu_count()} CPUs, "
        f"load average {info['load_before'][0]} before / {info['load_after'][0]} after; "
        f"chunk size {chunk_size}"
    )
    click.echo(_table(info["runs"], info["baseline"], info["baseline_with_trail"]))
    click.echo(f"results identical across runs: {'yes' if info['results_identical'] else 'NO'}")


def _measure(
    work: Path,
    records: int,
    workers: list[int],
    kinds: list[str],
    modes: list[str],
    baseline_records: int,
    chunk_size: int,
) -> dict[str, Any]:
    data = write_transcripts(work / "transcripts.jsonl", records)
    load_before = os.getloadavg()
    base = _baseline(min(baseline_records, records))
    base_trail = None
    if "trail" in modes:
        base_trail = _baseline(min(baseline_records, records, 500), work / "baseline.db")
    rows = []
    for kind in kinds:
        if kind == "ray":
            import ray

            ray.init(num_cpus=max(workers), include_dashboard=False, log_to_driver=False)
        try:
            rows += [_run(kind, w, m, data, work, chunk_size) for m in modes for w in workers]
        finally:
            if kind == "ray":
                ray.shutdown()
    return {
        "cpus": os.cpu_count(),
        "load_before": [round(x, 2) for x in load_before],
        "load_after": [round(x, 2) for x in os.getloadavg()],
        "records": records,
        "baseline": base,
        "baseline_with_trail": base_trail,
        "runs": rows,
        "results_identical": _results_identical([r["out"] for r in rows]) if rows else True,
    }


__all__ = ["bench_batch_command"]
