"""``kgaudit bench crash``: kill -9 the server under concurrent audits; nothing acknowledged is lost.

For each database a server is started (``--workers`` processes, durable commits), and
``--clients`` threads each send up to ``--per-client`` ``POST /v1/audits``. Once a random
share (30–70 %) of all requests has been acknowledged, the whole server — master and
workers, one process group — gets ``SIGKILL``. Then, in this process:

- every audit that got a 2xx is looked up by its id in the trail (``acked_missing`` must be 0);
- ``trail verify`` (the full chain, and the Merkle tree where the trail keeps one) must pass.

The drill is repeated ``--repeats`` times on the same trail, so each round also starts on a
trail that a crash left behind. This is a correctness drill, not a timing: the figures
reported are counts. ``tests/trail/test_trail_crash.py`` runs a short version of it.
"""

from __future__ import annotations

import json
import os
import random
import signal
import threading
import time
from contextlib import ExitStack, suppress
from typing import Any

import click
import httpx

from measure.bench.api import bench_database, bench_db_option, spawn_server

_TEXTS = (
    ("medical", "The maximum daily dose of ibuprofen for adults is 3,200 mg. Round {i}."),
    ("finance", "A currency transaction report is required for cash over $10,000. Round {i}."),
    ("legal", "Brown v. Board of Education, 347 U.S. 483 (1954), was decided in 1954. Round {i}."),
)


def _kill_group(proc: Any) -> None:
    with suppress(ProcessLookupError):
        os.killpg(proc.pid, signal.SIGKILL)
    proc.wait(timeout=60)


def crash_round(
    db_url: str,
    *,
    clients: int,
    per_client: int,
    workers: int,
    seed: int,
) -> dict[str, Any]:
    """One drill on ``db_url``: load, kill -9 mid-load, then check the trail (see module doc)."""
    from trail import Trail

    rng = random.Random(seed)
    total = clients * per_client
    kill_at = max(1, int(total * rng.uniform(0.3, 0.7)))
    proc, url, token = spawn_server(db_url, workers, durable=True, new_session=True)
    acked: list[str] = []
    failures = {"http": 0, "transport": 0}
    lock = threading.Lock()
    enough = threading.Event()
    headers = {"Authorization": f"Bearer {token}"}

    def client(worker: int) -> None:
        with httpx.Client(base_url=url, headers=headers, timeout=60) as http:
            for i in range(per_client):
                domain, text = _TEXTS[(worker + i) % len(_TEXTS)]
                body = {"text": text.format(i=f"{seed}-{worker}-{i}"), "domain": domain}
                try:
                    r = http.post("/v1/audits", json=body)
                except httpx.TransportError:
                    with lock:
                        failures["transport"] += 1
                    if enough.is_set():
                        return  # the server is gone
                    continue
                with lock:
                    if 200 <= r.status_code < 300:
                        acked.append(r.json()["id"])
                        if len(acked) >= kill_at:
                            enough.set()
                    else:
                        failures["http"] += 1

    threads = [threading.Thread(target=client, args=(w,), daemon=True) for w in range(clients)]
    started = time.perf_counter()
    for th in threads:
        th.start()
    enough.wait(timeout=600)
    _kill_group(proc)
    killed_after = time.perf_counter() - started
    for th in threads:
        th.join(timeout=120)
    with lock:
        acknowledged = list(acked)

    trail = Trail(db_url)
    try:
        missing = [a for a in acknowledged if trail.get(a, tenant="bench") is None]
        report = trail.verify(full=True)
        stored = trail.count()
    finally:
        trail.close()
    return {
        "seed": seed,
        "requests_planned": total,
        "kill_after_acks": kill_at,
        "killed_after_s": round(killed_after, 2),
        "acked": len(acknowledged),
        "acked_missing": len(missing),
        "missing_ids": missing[:10],
        "http_errors": failures["http"],
        "transport_errors": failures["transport"],
        "stored_events": stored,
        "verify_ok": report.ok,
        "verify_checked": report.checked,
        "first_broken": report.first_broken,
    }


def crash_drill(
    db_url: str, *, clients: int, per_client: int, workers: int, repeats: int, seed: int = 0
) -> list[dict[str, Any]]:
    """``repeats`` rounds of :func:`crash_round` on one trail."""
    from trail import Trail

    trail = Trail(db_url)
    trail.migrate()
    trail.close()
    return [
        crash_round(db_url, clients=clients, per_client=per_client, workers=workers, seed=seed + r)
        for r in range(repeats)
    ]


@click.command("crash")
@bench_db_option
@click.option("--clients", default=8, show_default=True, type=click.IntRange(1, 256))
@click.option(
    "--per-client",
    default=200,
    show_default=True,
    type=click.IntRange(1),
    help="Audits each client sends at most (the kill comes first).",
)
@click.option("--repeats", default=5, show_default=True, type=click.IntRange(1))
@click.option(
    "--workers", default=2, show_default=True, type=click.IntRange(1, 64), help="Server workers."
)
@click.option("--seed", default=0, show_default=True, help="Seed of the kill points.")
@click.option(
    "--format", "fmt", type=click.Choice(["text", "json"]), default="text", show_default=True
)
def bench_crash_command(
    dbs: tuple[str, ...],
    clients: int,
    per_client: int,
    repeats: int,
    workers: int,
    seed: int,
    fmt: str,
) -> None:
    """kill -9 the server during concurrent audits; every acknowledged audit must be in the
    trail and the trail must verify. Exit status 1 if any round loses one or fails verify."""
    rows = []
    for kind in dbs:
        with ExitStack() as stack:
            db_url = stack.enter_context(bench_database(kind))
            for row in crash_drill(
                db_url,
                clients=clients,
                per_client=per_client,
                workers=workers,
                repeats=repeats,
                seed=seed,
            ):
                rows.append({"db": kind if kind in ("sqlite", "postgres") else "url", **row})
    bad = [r for r in rows if r["acked_missing"] or not r["verify_ok"]]
    if fmt == "json":
        click.echo(json.dumps({"rows": rows, "ok": not bad}, indent=2))
    else:
        click.echo(
            "| db | round | acked | acked missing | killed after s | transport errors | "
            "events checked | verify |"
        )
        click.echo("|---|---:|---:|---:|---:|---:|---:|---|")
        for r in rows:
            click.echo(
                f"| {r['db']} | {r['seed']} | {r['acked']} | {r['acked_missing']} | "
                f"{r['killed_after_s']} | {r['transport_errors']} | {r['verify_checked']} | "
                f"{'ok' if r['verify_ok'] else 'BROKEN ' + str(r['first_broken'])} |"
            )
    if bad:
        raise SystemExit(1)


__all__ = ["bench_crash_command", "crash_drill", "crash_round"]
