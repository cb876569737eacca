"""``/v1/tenants`` and ``/v1/keys`` (admin role): tenants and API keys."""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Path, Query, Response

from auditor.api.deps import Admin, ServicesDep
from auditor.api.errors import ApiError
from auditor.api.routes import AUTH_ERRORS, error_responses
from auditor.api.schemas import KeyCreate, KeyCreated, KeyInfo, TenantCreate, TenantInfo

router = APIRouter(prefix="/v1", tags=["admin"])


@router.get(
    "/tenants",
    response_model=list[TenantInfo],
    summary="List tenants",
    responses=error_responses(*AUTH_ERRORS),
)
def list_tenants(principal: Admin, services: ServicesDep) -> list[dict[str, Any]]:
    return services.keys.tenants()


@router.post(
    "/tenants",
    response_model=TenantInfo,
    status_code=201,
    summary="Create a tenant",
    responses={
        200: {"model": TenantInfo, "description": "The tenant already exists."},
        **error_responses(*AUTH_ERRORS, 422),
    },
)
def create_tenant(
    body: TenantCreate, principal: Admin, services: ServicesDep, response: Response
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
    return services.keys.list(tenant=tenant)


@router.post(
    "/keys",
    response_model=KeyCreated,
    status_code=201,
    summary="Create an API key (shown once)",
    responses=error_responses(*AUTH_ERRORS, 422),
)
def create_key(body: KeyCreate, principal: Admin, services: ServicesDep) -> dict[str, Any]:
    info, token = services.keys.create(tenant=body.tenant, role=body.role, name=body.name)
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
    if not services.keys.revoke(key_id):
        raise ApiError(404, "not_found", "no active API key with this id")
    return Response(status_code=204)
