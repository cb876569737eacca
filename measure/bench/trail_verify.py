"""Benchmark of ``trail verify`` (full: chain and Merkle tree) on a large generated trail.

    python -m measure.bench.trail_verify --events 200000 [--db URL]

Fills a new SQLite file (or the empty, migrated database ``--db``) with ``--events`` audits
of a small fake result (``append_many`` in batches of 1,000), then runs the full
verification in a fresh child process and reports its wall time, events per second and peak
resident memory (``ru_maxrss`` of the child: the verifier alone).
"""

from __future__ import annotations

import json
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import click

_CHILD = """
import json, resource, sys, time
from trail import Trail
t = Trail(sys.argv[1])
t0 = time.perf_counter()
r = t.verify(full=True)
wall = time.perf_counter() - t0
print(json.dumps({"ok": r.ok, "checked": r.checked, "verify_s": wall,
                  "max_rss_mib": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024}))
"""


def fill(db_url: str, events: int, batch: int = 1000) -> float:
    """Append ``events`` fake audits; returns the seconds it took."""
    from trail import Trail, append_many, prepare
    from trail.testing import fake_result

    trail = Trail(db_url, durable=False)
    trail.migrate()
    res = fake_result()
    t0 = time.perf_counter()
    for i in range(0, events, batch):
        n = min(batch, events - i)
        append_many(trail, [prepare(res, text=f"audit {i + j}", tenant="bench") for j in range(n)])
    trail.close()
    return time.perf_counter() - t0


@click.command()
@click.option("--events", default=100_000, show_default=True, type=click.IntRange(1))
@click.option("--db", "db_url", default=None, help="An empty database (default: a temp SQLite).")
def main(events: int, db_url: str | None) -> None:
    with tempfile.TemporaryDirectory(prefix="kgaudit-verify-") as tmp:
        url = db_url or f"sqlite:///{Path(tmp) / 'trail.db'}"
        fill_s = fill(url, events)
        child = subprocess.run(
            [sys.executable, "-c", _CHILD, url], capture_output=True, text=True, check=True
        )
        out = json.loads(child.stdout)
        out.update(
            events=events,
            fill_s=fill_s,
            events_per_s=events / out["verify_s"],
            us_per_event=out["verify_s"] / events * 1e6,
            parent_max_rss_mib=resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024,
        )
        click.echo(json.dumps(out, indent=2))


if __name__ == "__main__":
    main()
