"""``/v1/trail``: verify the hash chain, list and create signed checkpoints."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter

from auditor.api.deps import Admin, Reader, ServicesDep
from auditor.api.errors import ApiError
from auditor.api.routes import AUTH_ERRORS, error_responses
from auditor.api.schemas import Checkpoint, VerifyReport

router = APIRouter(prefix="/v1/trail", tags=["trail"])


@router.get(
    "/verify",
    response_model=VerifyReport,
    summary="Verify the whole chain",
    description="Recomputes every record and link (and, when the server has a "
    "checkpoint key, every stored checkpoint). `first_broken` names the first broken "
    "record; audit ids of other tenants are withheld unless the key is an admin's.",
    responses=error_responses(*AUTH_ERRORS),
)
def verify(principal: Reader, services: ServicesDep) -> dict[str, Any]:
    secret = services.settings.checkpoint_key
    key = secret.get_secret_value().encode("utf-8") if secret is not None else None
    report = services.trail.verify(key=key).to_dict()
    if principal.role != "admin":
        for p in report["problems"]:
            if p["audit_id"] and services.trail.get(p["audit_id"], tenant=principal.tenant) is None:
                p["audit_id"] = None
        report["first_broken"] = report["problems"][0] if report["problems"] else None
    return report


@router.get(
    "/checkpoints",
    response_model=list[Checkpoint],
    summary="Stored checkpoints",
    responses=error_responses(*AUTH_ERRORS),
)
def list_checkpoints(principal: Reader, services: ServicesDep) -> list[dict[str, Any]]:
    return services.trail.checkpoints()


@router.post(
    "/checkpoints",
    response_model=Checkpoint,
    status_code=201,
    summary="Sign the current chain head (admin)",
    description="Signs the head with the server's checkpoint key (HMAC-SHA256). Export "
    "the returned JSON somewhere the database's writers cannot change it.",
    responses=error_responses(*AUTH_ERRORS, 422, 503),
)
def create_checkpoint(principal: Admin, services: ServicesDep) -> dict[str, Any]:
    secret = services.settings.checkpoint_key
    if secret is None:
        raise ApiError(
            503, "not_configured", "the server has no checkpoint key (KGAUDIT_CHECKPOINT_KEY)"
        )
    return services.trail.checkpoint(secret.get_secret_value().encode("utf-8"))
