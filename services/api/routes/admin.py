"""``/v1/tenants`` and ``/v1/keys``: tenants and API keys.

A tenant's ``admin`` key manages its own tenant only: it sees its tenant and that tenant's
keys, creates keys for it and revokes them (another tenant's key is a 404, exactly like a
missing one). Creating tenants and managing other tenants' keys is the operator's job (the
key configured as ``KGAUDIT_OPERATOR_KEY``, or ``kgaudit keys`` on the command line).
"""

from __future__ import annotations

from datetime import UTC
from typing import Annotated, Any

from fastapi import APIRouter, Path, Query, Response

from services.api.deps import Admin, Operator, ServicesDep
from services.api.errors import ApiError
from services.api.keys import Principal
from services.api.routes import AUTH_ERRORS, error_responses
from services.api.schemas import KeyCreate, KeyCreated, KeyInfo, TenantCreate, TenantInfo
from trail.records import check_strings

router = APIRouter(prefix="/v1", tags=["admin"])


def _scope(principal: Principal) -> str | None:
    """The tenant an admin may manage (None: every tenant, for the operator)."""
    return None if principal.is_operator else principal.tenant


@router.get(
    "/tenants",
    response_model=list[TenantInfo],
    summary="List tenants (a tenant admin sees its own)",
    responses=error_responses(*AUTH_ERRORS),
)
def list_tenants(principal: Admin, services: ServicesDep) -> list[dict[str, Any]]:
    return services.keys.tenants(only=_scope(principal))


@router.post(
    "/tenants",
    response_model=TenantInfo,
    status_code=201,
    summary="Create a tenant (operator)",
    responses={
        200: {"model": TenantInfo, "description": "The tenant already exists."},
        **error_responses(*AUTH_ERRORS, 422),
    },
)
def create_tenant(
    body: TenantCreate, principal: Operator, services: ServicesDep, response: Response
) -> dict[str, Any]:
    existing = {t["id"]: t for t in services.keys.tenants()}
    if body.id in existing:
        response.status_code = 200
        return existing[body.id]
    services.trail.ensure_tenant(body.id, name=body.name)
    return {t["id"]: t for t in services.keys.tenants()}[body.id]


@router.get(
    "/keys",
    response_model=list[KeyInfo],
    summary="List API keys (never the keys)",
    responses=error_responses(*AUTH_ERRORS, 422),
)
def list_keys(
    principal: Admin,
    services: ServicesDep,
    tenant: Annotated[str | None, Query(max_length=64)] = None,
) -> list[dict[str, Any]]:
    check_strings(tenant=tenant)  # a NUL is a 422 whoever asks
    scope = _scope(principal)
    if scope is not None and tenant not in (None, scope):
        raise ApiError(403, "forbidden", "an admin key manages its own tenant's keys only")
    return services.keys.list(tenant=scope or tenant)


@router.post(
    "/keys",
    response_model=KeyCreated,
    status_code=201,
    summary="Create an API key (shown once)",
    responses=error_responses(*AUTH_ERRORS, 422),
)
def create_key(body: KeyCreate, principal: Admin, services: ServicesDep) -> dict[str, Any]:
    scope = _scope(principal)
    if scope is not None and body.tenant != scope:
        raise ApiError(403, "forbidden", "an admin key creates keys for its own tenant only")
    expires = body.expires_at
    if expires is not None and expires.tzinfo is None:
        expires = expires.replace(tzinfo=UTC)
    info, token = services.keys.create(
        tenant=body.tenant, role=body.role, name=body.name, expires_at=expires
    )
    return {**info, "key": token}


@router.delete(
    "/keys/{key_id}",
    status_code=204,
    response_class=Response,
    summary="Revoke an API key",
    responses=error_responses(*AUTH_ERRORS, 404),
)
def revoke_key(
    key_id: Annotated[int, Path(ge=1, le=2**31 - 1)], principal: Admin, services: ServicesDep
) -> Response:
    if not services.keys.revoke(key_id, tenant=_scope(principal)):
        raise ApiError(404, "not_found", "no active API key with this id")
    return Response(status_code=204)
