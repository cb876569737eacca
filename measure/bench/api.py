"""``kgaudit bench api``: drive ``kgaudit serve`` from this (separate) process over HTTP.

For each database (a temporary SQLite file, a temporary PostgreSQL database) a server is
started with ``--workers`` processes, and ``POST /v1/audits`` is sent at each concurrency
level with answers assembled from the generated benchmark (``--words`` long). Reported:
throughput, p50/p99 latency, errors, and at concurrency 1 the overhead over the in-process
``audit()`` of the same texts, measured first in this process.
"""

from __future__ import annotations

import json
import os
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Iterator
from contextlib import ExitStack, contextmanager
from typing import Any

import click
import httpx

from auditor.errors import UsageError
from measure.bench.audit import percentile


def _corpus(words: int, count: int) -> list[tuple[str, str]]:
    from auditor import get_auditor
    from measure.bench.audit import _texts

    return _texts(get_auditor(), words, count, 11)


def _in_process(texts: list[tuple[str, str]], runs: int) -> list[float]:
    from auditor import audit

    for d, t in texts[:5]:
        audit(t, domain=d)
    out = []
    for i in range(runs):
        d, t = texts[i % len(texts)]
        t0 = time.perf_counter()
        audit(t, domain=d)
        out.append(time.perf_counter() - t0)
    return out


def free_port() -> int:
    """A TCP port on 127.0.0.1 that is free now."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@contextmanager
def bench_database(kind: str) -> Iterator[str]:
    """``sqlite`` (a temporary file), ``postgres`` (a temporary database) or a given URL."""
    if kind == "sqlite":
        with tempfile.TemporaryDirectory(prefix="kgaudit-bench-") as tmp:
            yield f"sqlite:///{tmp}/trail.db"
    elif kind == "postgres":
        from trail.testing import postgres_available, postgres_database

        reason = postgres_available()
        if reason:
            raise UsageError(f"cannot bench PostgreSQL: {reason}")
        with postgres_database("kgaudit_bench") as url:
            yield url
    else:
        yield kind  # an explicit SQLAlchemy URL


def spawn_server(
    db_url: str, workers: int, durable: bool, *, new_session: bool = False
) -> tuple[subprocess.Popen[str], str, str]:
    """Start ``kgaudit serve`` on a migrated trail at ``db_url`` and wait until it is ready.

    Returns the process, its base URL and an ``auditor`` key of tenant ``bench``.
    ``new_session`` puts the server (master and workers) in a process group of its own, so
    that a caller can kill all of it at once (``os.killpg``).
    """
    from services.api.keys import KeyStore
    from trail import Trail

    trail = Trail(db_url)
    trail.migrate()
    token = KeyStore(trail).create(tenant="bench", role="auditor", name="bench")[1]
    trail.close()
    port = free_port()
    env = {
        **os.environ,
        "KGAUDIT_DATABASE_URL": db_url,
        "KGAUDIT_RATE_LIMIT_PER_MINUTE": "100000000",
        "KGAUDIT_REQUEST_TIMEOUT_S": "300",
        "KGAUDIT_TRAIL_DURABLE_COMMITS": "true" if durable else "false",
    }
    env.pop("PROMETHEUS_MULTIPROC_DIR", None)
    proc = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "services.cli.main",
            "serve",
            "--port",
            str(port),
            "--workers",
            str(workers),
            "--log-level",
            "warning",
            "--no-migrate",
        ],
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        text=True,
        start_new_session=new_session,
    )
    url = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + 300
    while True:
        try:
            if httpx.get(f"{url}/readyz", timeout=2).status_code == 200:
                return proc, url, token
        except httpx.TransportError:
            pass
        if proc.poll() is not None or time.monotonic() > deadline:
            proc.kill()
            proc.wait(timeout=60)
            raise UsageError(
                f"the server did not start: {(proc.stderr.read() if proc.stderr else '')[-500:]}"
            )
        time.sleep(0.25)


@contextmanager
def _server(db_url: str, workers: int, durable: bool) -> Iterator[tuple[str, str]]:
    proc, url, token = spawn_server(db_url, workers, durable)
    try:
        yield url, token
    finally:
        proc.terminate()
        proc.wait(timeout=60)


def _server_seconds(url: str) -> dict[str, float]:
    """Sums and counts of the server's audit() and append histograms (from /metrics)."""
    out: dict[str, float] = {}
    for line in httpx.get(f"{url}/metrics", timeout=30).text.splitlines():
        for name in ("kgaudit_audit_duration_seconds", "kgaudit_trail_append_duration_seconds"):
            for part in ("_sum", "_count"):
                if line.startswith(name + part + " ") or line.startswith(name + part + "{"):
                    out[name + part] = out.get(name + part, 0.0) + float(line.rsplit(" ", 1)[1])
    return out


def _mean_ms(before: dict[str, float], after: dict[str, float], name: str) -> float:
    n = after.get(name + "_count", 0.0) - before.get(name + "_count", 0.0)
    total = after.get(name + "_sum", 0.0) - before.get(name + "_sum", 0.0)
    return total / n * 1000 if n else float("nan")


def _drive(
    url: str, token: str, texts: list[tuple[str, str]], concurrency: int, requests: int
) -> dict[str, Any]:
    """``requests`` audits from ``concurrency`` clients. Each client first sends two warm-up
    requests (connection set-up, first-request costs); the clock and the server's counters
    start only once every client is warm, so throughput counts the measured requests over
    the time they took. ``throughput_incl_warmup`` is the figure of earlier versions of this
    bench (warm-ups inside the timed window, not counted): kept to compare with old runs."""
    latencies: list[float] = []
    errors: list[int] = []
    lock, counter = threading.Lock(), iter(range(requests))
    headers = {"Authorization": f"Bearer {token}"}
    warm, go = threading.Barrier(concurrency + 1), threading.Barrier(concurrency + 1)

    def worker(n_warm: int) -> None:
        with httpx.Client(base_url=url, headers=headers, timeout=300) as client:
            try:
                for j in range(n_warm):
                    d, t = texts[j % len(texts)]
                    client.post("/v1/audits", json={"text": t, "domain": d})
            finally:
                warm.wait()
                go.wait()
            while True:
                with lock:
                    i = next(counter, None)
                if i is None:
                    return
                d, t = texts[i % len(texts)]
                t0 = time.perf_counter()
                r = client.post("/v1/audits", json={"text": t, "domain": d})
                elapsed = time.perf_counter() - t0
                with lock:
                    latencies.append(elapsed)
                    if r.status_code != 201:
                        errors.append(r.status_code)

    threads = [threading.Thread(target=worker, args=(2,)) for _ in range(concurrency)]
    launched = time.perf_counter()
    for th in threads:
        th.start()
    warm.wait()
    before = _server_seconds(url)
    started = time.perf_counter()
    go.wait()
    for th in threads:
        th.join()
    ended = time.perf_counter()
    after = _server_seconds(url)
    return {
        "concurrency": concurrency,
        "requests": len(latencies),
        "errors": len(errors),
        "throughput": len(latencies) / (ended - started),
        "throughput_incl_warmup": len(latencies) / (ended - launched),
        "p50_ms": percentile(latencies, 0.5) * 1000,
        "p99_ms": percentile(latencies, 0.99) * 1000,
        "mean_ms": statistics.fmean(latencies) * 1000 if latencies else float("nan"),
        "server_audit_ms": _mean_ms(before, after, "kgaudit_audit_duration_seconds"),
        "server_append_ms": _mean_ms(before, after, "kgaudit_trail_append_duration_seconds"),
    }


bench_db_option = click.option(
    "--db",
    "dbs",
    multiple=True,
    default=("sqlite", "postgres"),
    show_default=True,
    help="sqlite, postgres (a temporary database on KGAUDIT_TEST_PG_URL's server) "
    "or a SQLAlchemy URL; repeatable.",
)


@click.command("api")
@bench_db_option
@click.option(
    "--concurrency",
    default="1,8,32",
    show_default=True,
    help="Comma-separated numbers of parallel clients.",
)
@click.option(
    "--requests",
    "n_requests",
    default=200,
    show_default=True,
    type=click.IntRange(1),
    help="Requests per concurrency level.",
)
@click.option(
    "--workers",
    default=os.cpu_count() or 1,
    show_default=True,
    type=click.IntRange(1, 64),
    help="Server worker processes.",
)
@click.option(
    "--words",
    default=300,
    show_default=True,
    type=click.IntRange(10),
    help="Length of each audited answer.",
)
@click.option(
    "--durable/--no-durable",
    default=True,
    show_default=True,
    help="Wait for the disk on each trail append (trail_durable_commits).",
)
@click.option(
    "--format", "fmt", type=click.Choice(["text", "json"]), default="text", show_default=True
)
def bench_api_command(
    dbs: tuple[str, ...],
    concurrency: str,
    n_requests: int,
    workers: int,
    words: int,
    durable: bool,
    fmt: str,
) -> None:
    """Throughput and p50/p99 of POST /v1/audits against a running server at several
    concurrency levels, and the overhead at concurrency 1 over in-process audit()."""
    try:
        levels = [int(c) for c in concurrency.split(",") if c.strip()]
    except ValueError as exc:
        raise UsageError(f"--concurrency {concurrency!r} is not a list of numbers") from exc
    texts = _corpus(words, 40)
    base = _in_process(texts, min(n_requests, 200))
    base_p50 = statistics.median(base) * 1000
    rows = []
    for kind in dbs:
        with ExitStack() as stack:
            db_url = stack.enter_context(bench_database(kind))
            url, token = stack.enter_context(_server(db_url, workers, durable))
            for c in levels:
                row = {
                    "db": kind if kind in ("sqlite", "postgres") else "url",
                    **_drive(url, token, texts, c, max(n_requests, 4 * c)),
                }
                if c == 1:
                    row["overhead_vs_audit"] = row["p50_ms"] / base_p50 - 1
                    row["overhead_vs_server_audit"] = row["mean_ms"] / row["server_audit_ms"] - 1
                rows.append(row)
    out = {
        "machine": {
            "cpus": os.cpu_count(),
            "server_workers": workers,
            "words": words,
            "durable": durable,
        },
        "audit_in_process": {"p50_ms": base_p50, "p99_ms": percentile(base, 0.99) * 1000},
        "rows": rows,
    }
    if fmt == "json":
        click.echo(json.dumps(out, indent=2))
        return
    click.echo(
        f"in-process audit() of {words}-word answers: p50 {base_p50:.1f} ms, "
        f"p99 {out['audit_in_process']['p99_ms']:.1f} ms  "
        f"({os.cpu_count()} CPUs, {workers} server workers, durable={durable})"
    )
    click.echo(
        "| db | clients | requests | errors | req/s | req/s incl. warm-up | p50 ms | p99 ms | "
        "overhead | overhead (same run) | server audit() ms | server append ms |"
    )
    click.echo("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|")
    for r in rows:
        over = f"{r['overhead_vs_audit']:+.0%}" if "overhead_vs_audit" in r else ""
        same = f"{r['overhead_vs_server_audit']:+.0%}" if "overhead_vs_server_audit" in r else ""
        click.echo(
            f"| {r['db']} | {r['concurrency']} | {r['requests']} | {r['errors']} | "
            f"{r['throughput']:.1f} | {r['throughput_incl_warmup']:.1f} | "
            f"{r['p50_ms']:.1f} | {r['p99_ms']:.1f} | {over} | {same} | {r['server_audit_ms']:.1f} | {r['server_append_ms']:.1f} |"
        )
    click.echo(
        "overhead: API p50 at 1 client over in-process audit() p50 (measured first, in "
        "this process); overhead (same run): API mean latency over the server's mean "
        "audit() time in the same requests; server columns: mean ms per request inside "
        "audit() and in the trail append (/metrics); req/s incl. warm-up: the measured "
        "requests over a window that also holds each client's 2 warm-up requests (how "
        "versions before 2026-12-07 counted)."
    )


__all__ = ["bench_api_command", "bench_database", "bench_db_option", "free_port", "spawn_server"]
