"""``kgaudit bench telemetry``: what the OpenTelemetry hooks cost an audit, as ratios.

The same answers are audited in interleaved rounds four ways, and each way's median round
time is divided by the baseline's:

* ``baseline`` — the stage verbs called directly, without any span (the code before hooks);
* ``off`` — ``Auditor.audit`` with telemetry off: ``opentelemetry`` not importable or
  ``KGAUDIT_OTEL=off`` (the default of an install without the ``otel`` extra);
* ``api`` — the ``opentelemetry`` API installed but no SDK provider set (no-op spans);
* ``sdk`` — an SDK tracer provider exporting every span to memory (recording on).

Whole audits on a busy machine vary by more than the hooks cost, so the hooks are also
timed alone (:func:`hook_cost`: the stage verbs stubbed out, thousands of calls, best of
three) and reported per audit and as ``1 + hook time / audit time``.
"""

from __future__ import annotations

import statistics
import time
from collections.abc import Callable
from typing import Any

import click
import orjson

from auditor import stages, telemetry


def _baseline(auditor: Any) -> Callable[..., Any]:
    def run(text: str, *, domain: str) -> Any:
        ex = stages.extract(auditor, text, domain=domain, as_of=stages.parse_as_of(None))
        return stages.score(auditor, ex, stages.verify(auditor, ex))

    return run


def _tracers() -> dict[str, Any]:
    """The tracer of each hooked mode (``api``/``sdk`` only with opentelemetry installed)."""
    out: dict[str, Any] = {"off": None}
    try:
        from opentelemetry.trace import NoOpTracerProvider
    except ImportError:
        return out
    out["api"] = NoOpTracerProvider().get_tracer("kgaudit")
    try:
        from opentelemetry.sdk.trace import TracerProvider
        from opentelemetry.sdk.trace.export import SimpleSpanProcessor
        from opentelemetry.sdk.trace.export.in_memory_span_exporter import InMemorySpanExporter
    except ImportError:
        return out
    provider = TracerProvider()
    provider.add_span_processor(SimpleSpanProcessor(InMemorySpanExporter()))
    out["sdk"] = provider.get_tracer("kgaudit")
    return out


def run_bench(
    auditor: Any, texts: list[tuple[str, str]], rounds: int, *, calls: int = 5000
) -> dict[str, Any]:
    """Median seconds per round of each mode, and its ratio to the baseline."""
    tracers = _tracers()
    modes: dict[str, Callable[..., Any]] = {"baseline": _baseline(auditor)}
    modes.update(dict.fromkeys(tracers, auditor.audit))
    times: dict[str, list[float]] = {m: [] for m in modes}
    saved = telemetry._TRACER
    try:
        for _ in range(rounds):
            for mode, fn in modes.items():
                telemetry._TRACER = tracers.get(mode)
                t0 = time.perf_counter()
                for domain, text in texts:
                    fn(text, domain=domain)
                times[mode].append(time.perf_counter() - t0)
    finally:
        telemetry._TRACER = saved
    base = statistics.median(times["baseline"])
    per_audit = base / len(texts)
    hooks = hook_cost(auditor, texts[0], modes, tracers, calls)
    return {
        "texts": len(texts),
        "rounds": rounds,
        "audit_s": round(per_audit, 6),
        "modes": {
            m: {
                "median_s": round(statistics.median(ts), 5),
                "ratio": round(statistics.median(ts) / base, 4),
                "hook_us": round(hooks[m] * 1e6, 2),
                "hook_ratio": round(1 + hooks[m] / per_audit, 5),
            }
            for m, ts in times.items()
        },
    }


def hook_cost(
    auditor: Any,
    sample: tuple[str, str],
    modes: dict[str, Callable[..., Any]],
    tracers: dict[str, Any],
    calls: int = 5000,
) -> dict[str, float]:
    """Seconds per audit that the hooks alone add: the stage verbs are replaced by stubs
    returning one real audit's values, so only the span code runs (minus the baseline)."""
    domain, text = sample
    ex = stages.extract(auditor, text, domain=domain, as_of=stages.parse_as_of(None))
    checked = stages.verify(auditor, ex)
    result = stages.score(auditor, ex, checked)
    real = (stages.extract, stages.verify, stages.score)
    saved = telemetry._TRACER
    best: dict[str, float] = {}
    try:
        stages.extract = lambda *a, **k: ex  # type: ignore[assignment]
        stages.verify = lambda *a, **k: checked  # type: ignore[assignment]
        stages.score = lambda *a, **k: result  # type: ignore[assignment]
        for _ in range(3):
            for mode, fn in modes.items():
                telemetry._TRACER = tracers.get(mode)
                t0 = time.perf_counter()
                for _ in range(calls):
                    fn(text, domain=domain)
                t = (time.perf_counter() - t0) / calls
                best[mode] = min(best.get(mode, t), t)
    finally:
        stages.extract, stages.verify, stages.score = real  # type: ignore[assignment]
        telemetry._TRACER = saved
    return {m: max(0.0, t - best["baseline"]) for m, t in best.items()}


@click.command("telemetry")
@click.option(
    "--runs",
    type=click.IntRange(3, 1000),
    default=15,
    show_default=True,
    help="Interleaved rounds per mode.",
)
@click.option(
    "--texts",
    "count",
    type=click.IntRange(1, 200),
    default=12,
    show_default=True,
    help="Answers audited per round.",
)
@click.option(
    "--words",
    type=click.IntRange(10, 10_000),
    default=300,
    show_default=True,
    help="Words per answer.",
)
@click.option("--json", "as_json", is_flag=True, help="Print the figures as JSON.")
def bench_telemetry_command(runs: int, count: int, words: int, as_json: bool) -> None:
    """Cost of the OpenTelemetry hooks per audit: off / API only / SDK vs no hooks."""
    from auditor import get_auditor
    from measure.bench.audit import _texts

    auditor = get_auditor()
    texts = _texts(auditor, words, count, seed=7)
    for domain, text in texts[:3]:  # warm-up
        auditor.audit(text, domain=domain)
    out = run_bench(auditor, texts, runs)
    if as_json:
        click.echo(orjson.dumps(out).decode())
        return
    click.echo(
        f"{out['texts']} answers of {words} words, {runs} interleaved rounds; "
        f"audit median {out['audit_s'] * 1000:.2f} ms"
    )
    for mode, m in out["modes"].items():
        click.echo(
            f"  {mode:<9} {m['median_s'] * 1000:8.1f} ms/round  ratio {m['ratio']:.3f}  "
            f"hooks {m['hook_us']:7.2f} us/audit  ratio {m['hook_ratio']:.5f}"
        )


__all__ = ["bench_telemetry_command", "run_bench"]
