"""Liveness, readiness and Prometheus metrics (no API key needed)."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Response

from services.api.deps import ServicesDep
from services.api.errors import ApiError
from services.api.routes import error_responses
from services.api.schemas import Health, Ready

router = APIRouter(tags=["operations"])


@router.get("/healthz", response_model=Health, summary="Liveness: the process answers")
def healthz() -> dict[str, Any]:
    return {"status": "ok"}


@router.get(
    "/readyz",
    response_model=Ready,
    summary="Readiness: database reachable, schema current",
    responses=error_responses(503),
)
def readyz(services: ServicesDep) -> dict[str, Any]:
    checks: dict[str, str] = {}
    try:
        services.trail.ping()
        checks["database"] = "ok"
        checks["schema"] = "ok" if services.trail.schema_is_current() else "not migrated"
    except Exception as exc:  # any driver error means "not ready", never a 500
        checks.setdefault("database", f"unreachable ({type(exc).__name__})")
    failed = {k: v for k, v in checks.items() if v != "ok"}
    if failed or len(checks) < 2:
        raise ApiError(
            503, "not_ready", "not ready: " + ", ".join(f"{k} {v}" for k, v in failed.items())
        )
    return {"status": "ready", "checks": checks}


@router.get(
    "/metrics",
    summary="Prometheus metrics",
    response_class=Response,
    responses={
        200: {
            "content": {"text/plain": {"schema": {"type": "string"}}},
            "description": "Prometheus text exposition format.",
        }
    },
)
def metrics(services: ServicesDep) -> Response:
    return Response(services.metrics.render(), media_type=services.metrics.content_type)
