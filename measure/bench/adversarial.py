"""``kgaudit bench adversarial``: pathological inputs of growing size, time per input.

Each shape (a run of digits, thousands separators, dots, whitespace, mixed Unicode, nested
markdown, thousands of citations, ...) is built at sizes n, 2n, 4n, ... and timed through
every extractor and through the whole ``audit()``. Linear code takes about 2x the time for 2x
the input; the table gives, for each step, the time ratio divided by the size ratio (1 is
linear, 2 quadratic; the baseline is the previous size, measured in the same run) and flags
any above 1.5. CPU time of the timing thread, best
of ``--repeat`` runs, so other processes on the machine do not count.
"""

from __future__ import annotations

import contextlib
import json
import time
from collections.abc import Callable
from typing import Any

import click

MAX_GROWTH = 1.5  # time ratio / size ratio: 1 is linear, 2 is quadratic for a doubling
SHAPES: dict[str, Callable[[int], str]] = {
    "digits": lambda n: "1" * n,
    "decimal percent": lambda n: "0." + "5" * (n - 3) + "%",
    "dollar digits": lambda n: "$" + "9" * (n - 1),
    "thousands separators": lambda n: ("1" + ",000" * n)[:n],
    "dots": lambda n: "." * n,
    "whitespace": lambda n: "Aspirin" + " " * (n - 14) + "is safe",
    "unicode": lambda n: ("Ibuprofène ５００ mg ＄１２ ١٢٣ 𝟕𝟓 ℃ — ‰ ⁴ " * n)[:n],
    "nested markdown": lambda n: _markdown(n),
    "citations": lambda n: ("Roe v. Wade, 410 U.S. 113 (1973). " * n)[:n],
    "initials": lambda n: ("A. " * n)[:n],
}


def _markdown(n: int) -> str:
    rows, depth = [], 0
    while sum(map(len, rows)) < n:
        depth = (depth + 1) % 40
        rows.append("  " * depth + f"- > **item {depth}** | 5 mg | [x](y) `c`\n")
    return "".join(rows)[:n]


def _extractors() -> dict[str, Callable[[str], Any]]:
    from auditor.extract.assertion import is_negated
    from auditor.extract.citations import find_citations
    from auditor.extract.clauses import clause_spans
    from auditor.extract.cues import find_frequencies
    from auditor.extract.dates import find_dates
    from auditor.extract.identifiers import find_identifiers
    from auditor.extract.quantities import find_quantities
    from auditor.extract.segment import split_sentences

    return {
        "quantities": find_quantities,
        "dates": find_dates,
        "frequencies": find_frequencies,
        "negation": is_negated,
        "sentences": split_sentences,
        "citations": find_citations,
        "identifiers": find_identifiers,
        "clauses": clause_spans,
    }


def _cpu(fn: Callable[[str], Any], text: str, repeat: int) -> float:
    best = float("inf")
    for _ in range(repeat):
        t0 = time.thread_time()
        with contextlib.suppress(Exception):  # a refusal (e.g. too long) is timed too
            fn(text)
        best = min(best, time.thread_time() - t0)
    return max(best, 1e-6)


def run_bench(
    sizes: list[int], repeat: int, *, with_audit: bool = True, shapes: list[str] | None = None
) -> list[dict[str, Any]]:
    """One row per (shape, function): seconds at each size and the growth per doubling."""
    fns = _extractors()
    if with_audit:
        from auditor import get_auditor

        auditor = get_auditor()
        auditor.warm_up()
        fns["audit()"] = lambda t: auditor.audit(t, domain="auto")
    rows = []
    for shape in shapes or list(SHAPES):
        texts = [SHAPES[shape](n) for n in sizes]
        for name, fn in fns.items():
            fn(texts[0])  # warm caches
            secs = [_cpu(fn, t, repeat) for t in texts]
            growth = [
                (b / a) / (m / n)
                for a, b, n, m in zip(secs, secs[1:], sizes, sizes[1:], strict=False)
            ]
            rows.append(
                {
                    "shape": shape,
                    "function": name,
                    "sizes": sizes,
                    "seconds": secs,
                    "growth": growth,
                    "linear": all(g <= MAX_GROWTH for g in growth),
                }
            )
    return rows


def render(rows: list[dict[str, Any]]) -> str:
    sizes = rows[0]["sizes"] if rows else []
    head = (
        "| shape | function | "
        + " | ".join(f"{n:,} chars ms" for n in sizes)
        + " | time ratio / size ratio | linear |"
    )
    lines = [head, "|" + "---|" * (len(sizes) + 4)]
    for r in rows:
        ms = " | ".join(f"{s * 1000:.1f}" for s in r["seconds"])
        growth = ", ".join(f"{g:.2f}" for g in r["growth"])
        lines.append(
            f"| {r['shape']} | {r['function']} | {ms} | {growth} | {'✔' if r['linear'] else '✘'} |"
        )
    bad = [r for r in rows if not r["linear"]]
    lines.append(
        f"\n{len(rows) - len(bad)} of {len(rows)} grow linearly (time ratio / size "
        f"ratio ≤ {MAX_GROWTH} at every step; 1 = linear, 2 = quadratic)"
        + (": " + ", ".join(f"{r['function']} on {r['shape']}" for r in bad) if bad else ".")
    )
    return "\n".join(lines)


@click.command("adversarial")
@click.option(
    "--sizes",
    default="25000,50000,100000,200000",
    show_default=True,
    help="Input sizes in characters (each about twice the previous).",
)
@click.option("--repeat", default=2, show_default=True, type=click.IntRange(1, 20))
@click.option(
    "--shape",
    "shapes",
    multiple=True,
    type=click.Choice(list(SHAPES)),
    help="Only these shapes (repeatable).",
)
@click.option("--no-audit", is_flag=True, help="Extractors only (no graphs loaded).")
@click.option("--json", "as_json", is_flag=True, help="Print JSON rows instead of a table.")
def bench_adversarial_command(
    sizes: str, repeat: int, shapes: tuple[str, ...], no_audit: bool, as_json: bool
) -> None:
    """Time per input on pathological inputs of growing size: is every extractor linear?"""
    from auditor.errors import UsageError

    try:
        ns = [int(s) for s in sizes.split(",") if s.strip()]
    except ValueError:
        raise UsageError(f"--sizes {sizes!r} is not a comma-separated list of integers") from None
    if len(ns) < 2 or any(n < 100 for n in ns):
        raise UsageError("--sizes needs at least two sizes of 100 characters or more")
    rows = run_bench(ns, repeat, with_audit=not no_audit, shapes=list(shapes) or None)
    click.echo(json.dumps(rows, indent=2) if as_json else render(rows))


__all__ = ["SHAPES", "bench_adversarial_command", "render", "run_bench"]
