"""``kgaudit bench audit|api|crash|batch|engine|kernels|constraint|adversarial|telemetry|gateway|review``: performance as ratios against a baseline
measured in the same run (never as pass/fail timings)."""

from __future__ import annotations

import click

from auditor.cli.main import LazyGroup

_BENCHES = {
    "audit": "auditor.bench_audit:bench_audit_command",
    "api": "auditor.api.bench_api:bench_api_command",
    "crash": "auditor.api.bench_crash:bench_crash_command",
    "batch": "auditor.batch.bench_batch:bench_batch_command",
    "engine": "engine.cli:bench_engine_command",
    "kernels": "kernels.bench:bench_kernels_command",
    "constraint": "auditor.generation.bench_constraint:bench_constraint_command",
    "adversarial": "auditor.bench_adversarial:bench_adversarial_command",
    "telemetry": "auditor.bench_telemetry:bench_telemetry_command",
    "gateway": "auditor.gateway.bench:bench_gateway_command",
    "review": "auditor.api.bench_review:bench_review_command",
}


@click.group("bench", cls=LazyGroup, lazy=_BENCHES)
def bench_group() -> None:
    """Benchmarks of the auditor, API, gateway, batch runner, engine and kernels."""
