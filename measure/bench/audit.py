"""``kgaudit bench audit``: latency and throughput of ``audit()`` on one core, and start-up time.

Answers of 100, 300, 1,000 and 10,000 words are assembled from the generated benchmark (real
claims, citations, numbers), audited after a warm-up, and reported as p50/p99 latency, words
per second and cost per 1,000 words (which must stay flat if cost grows linearly). Start-up is
measured in a fresh interpreter: import, load the graphs from the cache, build the linkers,
first audit.
"""

from __future__ import annotations

import os
import statistics
import subprocess
import sys
import time

import click
import orjson

SIZES = (100, 300, 1000, 10_000)
_STARTUP = """
import time
t0 = time.perf_counter()
from auditor import get_auditor
a = get_auditor()
t1 = time.perf_counter()
a.audit("Adults should not take more than 4,000 mg of acetaminophen a day.", domain="medical")
a.audit("In July 2023 the Fed raised rates to 5.25%-5.50%.", domain="finance")
a.audit("Brown v. Board of Education, 347 U.S. 483 (1954).", domain="legal")
t2 = time.perf_counter()
print(f"{t1 - t0:.3f} {t2 - t0:.3f}")
"""


def _texts(auditor, words: int, count: int, seed: int) -> list[tuple[str, str]]:  # type: ignore[no-untyped-def]
    from measure.evaluation.benchmark import generate_benchmark

    cases = generate_benchmark(auditor.kb, seed=seed, per_domain=max(60, count * 2))
    by_domain: dict[str, list[str]] = {}
    for c in cases:
        by_domain.setdefault(c.domain, []).append(c.text)
    out = []
    domains = sorted(by_domain)
    for i in range(count):
        d = domains[i % len(domains)]
        pool, parts, n, j = by_domain[d], [], 0, i
        while n < words:
            t = pool[j % len(pool)]
            parts.append(t)
            n += len(t.split())
            j += 7
        out.append((d, " ".join(" ".join(parts).split()[:words])))
    return out


def percentile(xs: list[float], q: float) -> float:
    """The ``q`` quantile of ``xs`` (nearest rank; NaN for no values)."""
    xs = sorted(xs)
    return xs[min(len(xs) - 1, max(0, round(q * (len(xs) - 1))))] if xs else float("nan")


@click.command("audit")
@click.option(
    "--runs",
    default=200,
    show_default=True,
    help="Audits per size for 100/300 words (fewer for longer).",
)
@click.option("--seed", default=11, show_default=True)
@click.option(
    "--format", "fmt", type=click.Choice(["text", "json"]), default="text", show_default=True
)
def bench_audit_command(runs: int, seed: int, fmt: str) -> None:
    """p50/p99 latency of audit() for 100–10,000-word answers, throughput, and start-up time."""
    os.environ.setdefault("OMP_NUM_THREADS", "1")
    from auditor import get_auditor

    auditor = get_auditor()
    auditor.warm_up()
    rows = []
    for words in SIZES:
        n = runs if words <= 300 else max(10, runs // 4) if words <= 1000 else max(5, runs // 20)
        texts = _texts(auditor, words, n, seed)
        for d, t in texts[: max(3, n // 10)]:
            auditor.audit(t, domain=d)
        lat = []
        for d, t in texts:
            t0 = time.perf_counter()
            auditor.audit(t, domain=d)
            lat.append(time.perf_counter() - t0)
        total = sum(lat)
        rows.append(
            {
                "words": words,
                "runs": n,
                "p50_ms": round(1000 * statistics.median(lat), 2),
                "p99_ms": round(1000 * percentile(lat, 0.99), 2),
                "mean_ms": round(1000 * total / n, 2),
                "words_per_s": round(words * n / total),
                "ms_per_1000_words": round(1000 * total / n / words * 1000, 2),
            }
        )
    startup = subprocess.run(
        [sys.executable, "-c", _STARTUP], capture_output=True, text=True, check=True
    )
    load_s, first_s = (float(x) for x in startup.stdout.split())
    report = {
        "rows": rows,
        "startup_load_s": load_s,
        "startup_first_audits_s": first_s,
        "kg_version": auditor.kb.kg_version,
        "cpu": os.cpu_count(),
    }
    if fmt == "json":
        click.echo(orjson.dumps(report, option=orjson.OPT_INDENT_2).decode())
        return
    click.echo(
        f"{'words':>7}{'runs':>6}{'p50 ms':>9}{'p99 ms':>9}{'words/s':>10}{'ms/1k words':>13}"
    )
    for r in rows:
        click.echo(
            f"{r['words']:>7}{r['runs']:>6}{r['p50_ms']:>9}{r['p99_ms']:>9}{r['words_per_s']:>10}"
            f"{r['ms_per_1000_words']:>13}"
        )
    base = rows[0]["ms_per_1000_words"]
    click.echo(
        "cost per 1,000 words relative to 100-word answers: "
        + ", ".join(f"{r['words']}w {r['ms_per_1000_words'] / base:.2f}x" for r in rows)
    )
    click.echo(
        f"start-up: graphs + rules loaded in {load_s:.2f} s; first three audits done at {first_s:.2f} s"
    )
