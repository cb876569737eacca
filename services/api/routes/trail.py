"""``/v1/trail``: verify the hash chain, list and create signed checkpoints, signed tree
heads and consistency proofs of the Merkle tree.

Verification is incremental: it starts after the newest valid signed checkpoint (automatic
every N records or T minutes when the server has a checkpoint key), so a request recomputes
at most the records since then. ``full=true`` (the operator only) recomputes everything.
"""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Query

from services.api.deps import IntegrityReader, Operator, ServicesDep
from services.api.errors import ApiError
from services.api.routes import AUTH_ERRORS, error_responses
from services.api.schemas import Checkpoint, VerifyReport

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


@router.get(
    "/consistency",
    summary="Consistency proof between two tree sizes",
    description="An RFC 9162 consistency proof that the tree of `to` events extends the "
    "tree of `from` events (append-only), with both roots and the stored signed tree heads "
    "of those sizes. `to` defaults to the newest signed head's size. Format: docs/trail.md.",
    responses=error_responses(*AUTH_ERRORS, 422),
)
def consistency(
    principal: IntegrityReader,
    services: ServicesDep,
    first: Annotated[int, Query(alias="from", ge=0, description="The older tree size.")],
    second: Annotated[
        int | None, Query(alias="to", ge=0, description="The newer tree size.")
    ] = None,
) -> dict[str, Any]:
    from trail.proofs import prove_consistency

    return prove_consistency(services.trail, first, second)


@router.get(
    "/tree-heads",
    summary="Signed tree heads, oldest first",
    responses=error_responses(*AUTH_ERRORS),
)
def list_tree_heads(principal: IntegrityReader, services: ServicesDep) -> list[dict[str, Any]]:
    from trail.tree_heads import tree_heads

    return tree_heads(services.trail)


@router.post(
    "/tree-heads",
    status_code=201,
    summary="Sign the tree's root now (operator)",
    description="Signs (size, root, time) with the server's Ed25519 tree key, stores the "
    "head, appends it to the tree-head log and POSTs it to the witness URL if one is set.",
    responses=error_responses(*AUTH_ERRORS, 503),
)
def create_tree_head(principal: Operator, services: ServicesDep) -> dict[str, Any]:
    if services.trail.tree_signer is None:
        raise ApiError(503, "not_configured", "the server has no tree signing key")
    return services.trail.sign_tree_head()


@router.get(
    "/public-key",
    summary="The public key of the tree signing key (PEM)",
    responses=error_responses(*AUTH_ERRORS, 503),
)
def public_key(principal: IntegrityReader, services: ServicesDep) -> dict[str, Any]:
    from trail.tree_heads import ALG, public_pem

    signer = services.trail.tree_signer
    if signer is None:
        raise ApiError(503, "not_configured", "the server has no tree signing key")
    return {"alg": ALG, "key_id": signer.key_id, "public_key_pem": public_pem(signer.public)}
