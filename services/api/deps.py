"""FastAPI dependencies, exposed as ``Annotated`` aliases used in route signatures."""

from __future__ import annotations

import hmac
import threading
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Annotated, Any

import anyio
from fastapi import Depends, Request
from fastapi.security import HTTPAuthorizationCredentials, HTTPBearer

from auditor.settings import Settings
from services.api.errors import ApiError
from services.api.keys import KeyExpired, KeyStore, Principal, operator_principal
from services.api.metrics import Metrics
from services.api.ratelimit import RateLimiter
from trail import Trail

_bearer = HTTPBearer(auto_error=False, description="An API key from `kgaudit keys create`.")


@dataclass
class AppServices:
    """Everything a route needs, built once per app (``app.state.services``)."""

    settings: Settings
    trail: Trail
    keys: KeyStore
    limiter: RateLimiter
    metrics: Metrics
    audit_fn: Callable[..., Any]
    kb_loader: Callable[[str], Any]
    audit_slots: threading.Semaphore
    auth_failures: RateLimiter  # failed authentications per client address


# Dependencies are ``async def`` so FastAPI runs them on the event loop instead of handing
# each to the thread pool; the only blocking work (a key lookup on a cache miss) is sent to a
# thread explicitly.


async def get_services(request: Request) -> AppServices:
    return request.app.state.services


ServicesDep = Annotated[AppServices, Depends(get_services)]


async def current_principal(
    request: Request,
    services: ServicesDep,
    credentials: Annotated[HTTPAuthorizationCredentials | None, Depends(_bearer)],
) -> Principal:
    """The caller behind ``Authorization: Bearer <key>``; rate-limited per key, and failed
    attempts per client address (past the limit, no key is even looked up)."""
    challenge = {"WWW-Authenticate": "Bearer"}
    if credentials is None:
        raise ApiError(
            401,
            "unauthorized",
            "send an API key as 'Authorization: Bearer <key>'",
            headers=challenge,
        )
    address = request.client.host if request.client else "-"
    blocked = services.auth_failures.exhausted(address)
    if blocked is not None:
        raise ApiError(
            429,
            "rate_limited",
            "too many failed authentications from this address; retry later",
            headers={"Retry-After": RateLimiter.retry_after_header(blocked)},
        )
    token = credentials.credentials
    principal = _operator(services, token) or services.keys.cached(token)
    if principal is None:
        try:
            principal = await anyio.to_thread.run_sync(services.keys.authenticate, token)
        except KeyExpired as exc:
            raise ApiError(401, "unauthorized", str(exc), headers=challenge) from None
    if principal is None:
        services.auth_failures.acquire(address)
        raise ApiError(401, "unauthorized", "the API key is invalid or revoked", headers=challenge)
    request.scope.setdefault("state", {})["tenant"] = principal.tenant
    wait = services.limiter.acquire(principal.prefix)
    if wait is not None:
        raise ApiError(
            429,
            "rate_limited",
            "too many requests for this API key; retry later",
            headers={"Retry-After": RateLimiter.retry_after_header(wait)},
        )
    return principal


def _operator(services: AppServices, token: str) -> Principal | None:
    secret = services.settings.operator_key
    if secret is None:
        return None
    expected = secret.get_secret_value().encode("utf-8")
    return operator_principal() if hmac.compare_digest(token.encode("utf-8"), expected) else None


def request_deadline(request: Request, timeout_s: float) -> float:
    """``time.monotonic()`` by which a handler must have finished writing, a little before the
    middleware answers 504 (so a request is never answered 504 *and* recorded)."""
    state = request.scope.get("state") or {}
    fires = state.get("deadline") or time.monotonic() + timeout_s
    return fires - min(0.25, 0.1 * timeout_s)


CurrentPrincipal = Annotated[Principal, Depends(current_principal)]


def _require(permission: str) -> Callable[[Principal], Awaitable[Principal]]:
    async def dependency(principal: CurrentPrincipal) -> Principal:
        if not principal.can(permission):
            raise ApiError(
                403, "forbidden", f"the role {principal.role!r} may not {permission} here"
            )
        return principal

    return dependency


async def _integrity_reader(principal: CurrentPrincipal) -> Principal:
    if not (principal.can("read") or principal.can("integrity")):
        raise ApiError(403, "forbidden", f"the role {principal.role!r} may not read here")
    return principal


Reader = Annotated[Principal, Depends(_require("read"))]
Creator = Annotated[Principal, Depends(_require("create"))]
Reviewer = Annotated[Principal, Depends(_require("review"))]  # reviewer or admin
Admin = Annotated[Principal, Depends(_require("admin"))]  # a tenant admin, or the operator
Operator = Annotated[Principal, Depends(_require("operator"))]
IntegrityReader = Annotated[Principal, Depends(_integrity_reader)]  # tenant readers, operator

__all__ = [
    "Admin",
    "AppServices",
    "Creator",
    "CurrentPrincipal",
    "IntegrityReader",
    "Operator",
    "Reader",
    "Reviewer",
    "ServicesDep",
    "request_deadline",
]
