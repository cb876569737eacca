"""``kgaudit bench audit|api|crash|batch|engine|kernels|constraint|adversarial|telemetry|gateway|review``: performance as ratios against a baseline
measured in the same run (never as pass/fail timings)."""

from __future__ import annotations

import click

from services.cli.main import LazyGroup

_BENCHES = {
    "audit": "measure.bench.audit:bench_audit_command",
    "api": "measure.bench.api:bench_api_command",
    "crash": "measure.bench.crash:bench_crash_command",
    "batch": "measure.bench.batch:bench_batch_command",
    "engine": "measure.bench.engine:bench_engine_command",
    "kernels": "measure.bench.kernels:bench_kernels_command",
    "constraint": "measure.bench.constraint:bench_constraint_command",
    "adversarial": "measure.bench.adversarial:bench_adversarial_command",
    "telemetry": "measure.bench.telemetry:bench_telemetry_command",
    "gateway": "measure.bench.gateway:bench_gateway_command",
    "review": "measure.bench.review:bench_review_command",
}


@click.group("bench", cls=LazyGroup, lazy=_BENCHES)
def bench_group() -> None:
    """Benchmarks of the auditor, API, gateway, batch runner, engine and kernels."""
