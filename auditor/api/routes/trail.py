"""``/v1/trail``: verify the hash chain, list and create signed checkpoints.

Verification is incremental: it starts after the newest valid signed checkpoint (automatic
every N records or T minutes when the server has a checkpoint key), so a request recomputes
at most the records since then. ``full=true`` (the operator only) recomputes everything.
"""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Query

from auditor.api.deps import IntegrityReader, Operator, ServicesDep
from auditor.api.errors import ApiError
from auditor.api.routes import AUTH_ERRORS, error_responses
from auditor.api.schemas import Checkpoint, VerifyReport

router = APIRouter(prefix="/v1/trail", tags=["trail"])


def _key(services: Any) -> bytes | None:
    secret = services.settings.checkpoint_key
    return secret.get_secret_value().encode("utf-8") if secret is not None else None


@router.get(
    "/verify",
    response_model=VerifyReport,
    summary="Verify the chain",
    description="Checks every stored and logged checkpoint and recomputes the records "
    "after the newest valid one (all of them with `full=true`, operator only, or when "
    "the server has no checkpoint key). `first_broken` names the first broken record; "
    "audit ids of other tenants are withheld from every key but the operator's.",
    responses=error_responses(*AUTH_ERRORS),
)
def verify(
    principal: IntegrityReader,
    services: ServicesDep,
    full: Annotated[bool, Query(description="Recompute every record (operator).")] = False,
) -> dict[str, Any]:
    if full and not principal.is_operator:
        raise ApiError(
            403,
            "forbidden",
            "a full re-check of the chain is an operator job ('kgaudit trail verify --full')",
        )
    key = _key(services)
    report = services.trail.verify(key=key, full=full or key is None).to_dict()
    if not principal.is_operator:
        own = {
            p["audit_id"]
            for p in report["problems"]
            if p["audit_id"]
            and services.trail.get(p["audit_id"], tenant=principal.tenant) is not None
        }
        for p in report["problems"]:
            if p["audit_id"] not in own:
                p["audit_id"] = None
        report["first_broken"] = report["problems"][0] if report["problems"] else None
    return report


@router.get(
    "/checkpoints",
    response_model=list[Checkpoint],
    summary="Stored checkpoints",
    responses=error_responses(*AUTH_ERRORS),
)
def list_checkpoints(principal: IntegrityReader, services: ServicesDep) -> list[dict[str, Any]]:
    return services.trail.checkpoints()


@router.post(
    "/checkpoints",
    response_model=Checkpoint,
    status_code=201,
    summary="Sign the current chain head (operator)",
    description="Signs the head with the server's checkpoint key (HMAC-SHA256), "
    "stores it and appends it to the checkpoint log outside the database.",
    responses=error_responses(*AUTH_ERRORS, 422, 503),
)
def create_checkpoint(principal: Operator, services: ServicesDep) -> dict[str, Any]:
    key = _key(services)
    if key is None:
        raise ApiError(
            503, "not_configured", "the server has no checkpoint key (KGAUDIT_CHECKPOINT_KEY)"
        )
    return services.trail.checkpoint(key)
