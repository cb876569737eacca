"""``kgaudit bench gateway``: what the gateway costs over calling the upstream directly.

A fake upstream (:mod:`services.gateway.fake`, answers at once) and the kgaudit app in gateway
mode run as two local server processes; the audit is replaced by a fixed empty result, so
what is measured is the gateway itself: authentication, forwarding, the SSE relay, the trail
append and the extra hop. The same requests are sent straight to the upstream and through
the gateway, plain and streamed, in the same run. Reported: p50 latency at 1 client and
throughput at 8 clients, their gateway / direct ratios, and the gateway process's CPU time per
request (Linux; steadier than latencies on a shared machine). ``--upstream-delay-ms`` makes
the fake upstream take that long per answer, as a real model does.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from datetime import date
from typing import Any

import click
import httpx

from auditor.errors import UsageError
from measure.bench.audit import percentile

ANSWER = (
    "The Federal Reserve raised the federal funds target range to 5.25-5.50% on July 26, 2023, "
    "its highest level in twenty-two years."
)


def null_audit(text: str, *, domain: str, as_of: Any = None, citations: Any = None) -> Any:
    """An audit that finds nothing and costs nothing (the bench excludes the audit)."""
    from auditor.types import AuditResult

    return AuditResult(
        domain=domain if domain != "auto" else "finance",
        as_of=date.today(),
        claims=[],
        citations=[],
        fer=None,
        citation_confidence=None,
        joint_score=None,
        coverage=None,
        counts={"supported": 0, "contradicted": 0, "unverifiable": 0},
        hallucination_types={},
        kg_version="bench",
        rules_version="bench",
        auditor_version="bench",
    )


def bench_app() -> Any:
    """Uvicorn factory of the gateway under bench: the settings' app, the audit left out."""
    from auditor.settings import get_settings
    from services.api import create_app

    return create_app(get_settings(), audit_fn=null_audit)


def _wait(url: str, proc: subprocess.Popen[str], path: str) -> None:
    deadline = time.monotonic() + 120
    while True:
        try:
            httpx.get(url + path, timeout=2)
            return
        except httpx.TransportError:
            pass
        if proc.poll() is not None or time.monotonic() > deadline:
            err = proc.stderr.read() if proc.stderr else ""
            raise UsageError(f"a bench server did not start: {err[-500:]}")
        time.sleep(0.2)


def cpu_seconds(pid: int) -> float | None:
    """User + system CPU time of a process so far (Linux ``/proc``; None elsewhere)."""
    try:
        with open(f"/proc/{pid}/stat") as f:
            fields = f.read().rsplit(")", 1)[1].split()
    except OSError:
        return None
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


@contextmanager
def _process(
    args: list[str], env: dict[str, str], url: str, path: str
) -> Iterator[subprocess.Popen[str]]:
    proc = subprocess.Popen(
        [sys.executable, *args],
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        _wait(url, proc, path)
        yield proc
    finally:
        proc.terminate()
        proc.wait(timeout=30)


@contextmanager
def _servers(durable: bool, delay_ms: float = 0.0) -> Iterator[tuple[str, str, str, int]]:
    """(upstream base URL, gateway base URL, gateway API key, gateway process id)."""
    from measure.bench.api import free_port
    from services.api.keys import KeyStore
    from trail import Trail

    up_port, gw_port = free_port(), free_port()
    upstream = f"http://127.0.0.1:{up_port}/v1"
    with tempfile.TemporaryDirectory(prefix="kgaudit-bench-gw-") as tmp:
        db = f"sqlite:///{tmp}/trail.db"
        trail = Trail(db)
        trail.migrate()
        token = KeyStore(trail).create(tenant="bench", role="auditor", name="bench")[1]
        trail.close()
        env = {
            **os.environ,
            "KGAUDIT_HOME": tmp,
            "KGAUDIT_DATABASE_URL": db,
            "KGAUDIT_GATEWAY_UPSTREAM_URL": upstream,
            "KGAUDIT_GATEWAY_UPSTREAM_KEY": "sk-bench",
            "KGAUDIT_RATE_LIMIT_PER_MINUTE": "100000000",
            "KGAUDIT_TRAIL_DURABLE_COMMITS": "true" if durable else "false",
            "KGAUDIT_CHECKPOINT_EVERY_S": "0",
        }
        env.pop("PROMETHEUS_MULTIPROC_DIR", None)
        fake = ["-m", "services.gateway.fake", "--port", str(up_port), "--key", "sk-bench"]
        fake += ["--answer-delay-ms", str(delay_ms)]
        gw = [
            *("-m", "uvicorn", "measure.bench.gateway:bench_app", "--factory"),
            *("--port", str(gw_port), "--log-level", "warning", "--no-access-log"),
            *("--http", "h11"),
        ]
        gw_url = f"http://127.0.0.1:{gw_port}/v1"
        with _process(fake, env, upstream, "/"), _process(gw, env, gw_url, "/models") as proc:
            yield upstream, gw_url, token, proc.pid


def _drive(
    url: str, key: str, stream: bool, clients: int, requests: int
) -> tuple[list[float], float, int]:
    """Latencies (s), wall time (s) and errors of ``requests`` calls from ``clients`` threads."""
    body = {
        "model": "echo",
        "messages": [{"role": "user", "content": ANSWER}],
        "stream": stream,
    }
    latencies: list[float] = []
    errors: list[int] = []
    lock, counter = threading.Lock(), iter(range(requests))

    def call(client: httpx.Client) -> int:
        if not stream:
            return client.post("/chat/completions", json=body).status_code
        with client.stream("POST", "/chat/completions", json=body) as r:
            for _ in r.iter_lines():
                pass
            return r.status_code

    def worker() -> None:
        headers = {"Authorization": f"Bearer {key}"}
        with httpx.Client(base_url=url, headers=headers, timeout=60) as client:
            for _ in range(WARM_UP):  # connection set-up and first-request costs
                call(client)
            while True:
                with lock:
                    i = next(counter, None)
                if i is None:
                    return
                t0 = time.perf_counter()
                status = call(client)
                elapsed = time.perf_counter() - t0
                with lock:
                    latencies.append(elapsed)
                    if status != 200:
                        errors.append(status)

    threads = [threading.Thread(target=worker) for _ in range(clients)]
    started = time.perf_counter()
    for th in threads:
        th.start()
    for th in threads:
        th.join()
    return latencies, time.perf_counter() - started, len(errors)


WARM_UP = 3  # calls per client before the timed ones (see _drive)


def measure(requests: int, durable: bool, delay_ms: float = 0.0) -> list[dict[str, Any]]:
    """One row per mode (plain, stream): direct and gateway p50 at 1 client, throughput at 8,
    and the gateway process's CPU ms per request over both (None where unknown)."""
    rows = []
    with _servers(durable, delay_ms) as (upstream, gateway, token, pid):
        for stream in (False, True):
            row: dict[str, Any] = {"mode": "stream" if stream else "plain"}
            for name, url, key in (("direct", upstream, "sk-bench"), ("gateway", gateway, token)):
                cpu0 = cpu_seconds(pid)
                lat, _, err1 = _drive(url, key, stream, 1, requests)
                done, wall, err8 = _drive(url, key, stream, 8, requests)
                cpu1 = cpu_seconds(pid)
                row[f"{name}_p50_ms"] = percentile(lat, 0.5) * 1000
                row[f"{name}_rps_8"] = len(done) / wall
                row[f"{name}_errors"] = err1 + err8
                if name == "gateway":
                    calls = 2 * requests + WARM_UP * (1 + 8)
                    spent = None if cpu0 is None or cpu1 is None else cpu1 - cpu0
                    row["gateway_cpu_ms"] = None if spent is None else spent * 1000 / calls
            row["p50_ratio"] = row["gateway_p50_ms"] / row["direct_p50_ms"]
            row["p50_added_ms"] = row["gateway_p50_ms"] - row["direct_p50_ms"]
            row["throughput_ratio"] = row["gateway_rps_8"] / row["direct_rps_8"]
            rows.append(row)
    return rows


@click.command("gateway")
@click.option(
    "--requests",
    default=300,
    show_default=True,
    type=click.IntRange(10),
    help="Requests per measurement (each of: direct/gateway × 1/8 clients × plain/stream).",
)
@click.option(
    "--durable/--no-durable",
    default=True,
    show_default=True,
    help="Trail appends wait for the disk (the server default).",
)
@click.option(
    "--upstream-delay-ms",
    default=0.0,
    show_default=True,
    type=click.FloatRange(0, 10_000),
    help="Time the fake upstream takes per answer (0: answers at once).",
)
@click.option(
    "--format", "fmt", type=click.Choice(["text", "json"]), default="text", show_default=True
)
def bench_gateway_command(requests: int, durable: bool, upstream_delay_ms: float, fmt: str) -> None:
    """Gateway overhead over calling a local fake upstream directly, audit excluded:
    p50 at 1 client and throughput at 8 clients, as gateway / direct ratios."""
    rows = measure(requests, durable, upstream_delay_ms)
    if fmt == "json":
        out = {"requests": requests, "durable": durable, "upstream_delay_ms": upstream_delay_ms}
        click.echo(json.dumps({**out, "rows": rows}, indent=2))
        return
    click.echo(
        f"gateway vs direct, fake upstream (answers after {upstream_delay_ms:g} ms) on this "
        f"machine, {requests} requests per cell, trail durable={durable}, audit excluded"
    )
    click.echo(
        "| mode | p50 direct ms | p50 gateway ms | p50 ratio | p50 added ms | rps@8 direct "
        "| rps@8 gateway | throughput ratio | gateway CPU ms/req | errors |"
    )
    click.echo("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|")
    for r in rows:
        cpu = "n/a" if r["gateway_cpu_ms"] is None else f"{r['gateway_cpu_ms']:.2f}"
        click.echo(
            f"| {r['mode']} | {r['direct_p50_ms']:.2f} | {r['gateway_p50_ms']:.2f} "
            f"| {r['p50_ratio']:.2f}x | {r['p50_added_ms']:.2f} | {r['direct_rps_8']:.0f} "
            f"| {r['gateway_rps_8']:.0f} "
            f"| {r['throughput_ratio']:.2f}x | {cpu} | {r['direct_errors'] + r['gateway_errors']} |"
        )
