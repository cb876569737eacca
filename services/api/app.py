"""The FastAPI application factory.

``create_app()`` builds the app from the settings; tests inject a ``trail``, an ``audit_fn``
(same signature as :func:`auditor.audit`) and a ``kb_loader`` (domain -> KnowledgeBase).
``kgaudit serve`` runs :func:`app_from_settings` under uvicorn.
"""

from __future__ import annotations

import gc
import logging
import sys
import threading
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from datetime import date
from typing import Any

import anyio
from fastapi import FastAPI

from auditor.settings import Settings, get_settings
from services.api.deps import AppServices
from services.api.errors import install_error_handlers
from services.api.keys import KeyStore
from services.api.metrics import Metrics
from services.api.middleware import ServiceMiddleware
from services.api.ratelimit import RateLimiter
from services.api.routes import admin, audits, health, kg
from services.api.routes import trail as trail_routes
from trail import Trail
from trail.checkpoints import CheckpointPolicy
from trail.metadata import MetadataLimits

log = logging.getLogger("kgaudit.api")

DESCRIPTION = """\
Audit LLM answers claim by claim against curated knowledge graphs, and keep a tamper-evident
record of every audit.

* Authenticate with `Authorization: Bearer <key>` (`kgaudit keys create --tenant T --role R`).
  Roles: `viewer` (read), `reviewer` (read + review decisions), `auditor` (create + read),
  `admin` (also its own tenant's keys, and reviews).
  Every key belongs to one tenant and sees only that tenant's audits. The `operator` key
  (`KGAUDIT_OPERATOR_KEY`, never in the database) manages every tenant and the trail.
* Every error has the same shape: `{"error": {"code", "message", "request_id"}}`.
* Audits are appended to a SHA-256 hash chain (RFC 8785 canonical JSON) with signed
  checkpoints; `GET /v1/trail/verify` checks it.
"""

TAGS = [
    {"name": "audits", "description": "Audit texts and read stored audits."},
    {"name": "trail", "description": "Integrity of the tamper-evident audit trail."},
    {"name": "knowledge graph", "description": "What the auditor knows."},
    {
        "name": "admin",
        "description": "Tenants and API keys (a tenant's admin: its own "
        "tenant; the operator: all).",
    },
    {"name": "operations", "description": "Health, readiness and metrics."},
    {"name": "reports", "description": "Compliance reports over a period (JSON, CSV, HTML, PDF)."},
    {
        "name": "chat",
        "description": "OpenAI-compatible chat with the embedded engine (KG-constrained) "
        "or, in gateway mode, any OpenAI-compatible upstream; audited and recorded.",
    },
]


def _default_audit(
    text: str, *, domain: str, as_of: str | date | None = None, citations: list[str] | None = None
) -> Any:
    from auditor import audit

    return audit(text, domain=domain, as_of=as_of, citations=citations)


def _default_kb_loader(settings: Settings) -> Callable[[str], Any]:
    """The auditor's own knowledge base (loaded once per process), else the domain alone."""

    def load(domain: str) -> Any:
        try:
            from auditor import get_auditor

            return get_auditor().kb
        except ImportError:
            from knowledge_graphs import load_graphs

            return load_graphs(
                [domain], cache_dir=settings.kg_cache_dir, extra_sources=settings.graphs
            )

    return load


def create_app(
    settings: Settings | None = None,
    *,
    trail: Trail | None = None,
    audit_fn: Callable[..., Any] | None = None,
    kb_loader: Callable[[str], Any] | None = None,
    preload: bool = False,
) -> FastAPI:
    """The REST API; ``preload`` loads the auditor (graphs, rules) before serving."""
    settings = settings or get_settings()
    trail = trail or Trail.from_settings(settings)  # group commit, tree key, checkpoints
    if trail.checkpoint_policy is None:  # refuses a weak checkpoint key before serving
        trail.use_checkpoints(CheckpointPolicy.from_settings(settings))
    trail.metadata_limits = MetadataLimits.from_settings(settings)  # the route's limits
    services = AppServices(
        settings=settings,
        trail=trail,
        keys=KeyStore(trail, cache_s=settings.api_key_cache_s),
        limiter=RateLimiter(settings.rate_limit_per_minute),
        metrics=Metrics(),
        audit_fn=audit_fn or _default_audit,
        kb_loader=kb_loader or _default_kb_loader(settings),
        audit_slots=threading.Semaphore(settings.audits_per_worker),
        auth_failures=RateLimiter(settings.auth_failures_per_minute),
    )

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        if preload:
            await anyio.to_thread.run_sync(_preload)
        async with anyio.create_task_group() as tg:
            if trail.checkpoint_policy is not None and trail.checkpoint_policy.every_s:
                tg.start_soon(_checkpoint_timer, trail, trail.checkpoint_policy.every_s)
            yield
            tg.cancel_scope.cancel()
        gateway = getattr(app.state, "gateway", None)
        if gateway is not None:  # the upstream's keep-alive connections
            await gateway.aclose()

    from auditor import __version__

    app = FastAPI(
        title="kgaudit",
        version=__version__,
        description=DESCRIPTION,
        openapi_tags=TAGS,
        lifespan=lifespan,
        docs_url=None,  # served from local assets by install_docs, not from a CDN
        redoc_url=None,  # ReDoc has no locally installable bundle
    )
    app.state.services = services
    install_error_handlers(app)
    for router in (audits.router, trail_routes.router, kg.router, admin.router, health.router):
        app.include_router(router)
    from services.api.routes.chat import router as chat_router  # OpenAI-compatible chat
    from services.api.routes.docs import install_docs  # /docs without a CDN
    from services.api.routes.reports import router as report_router  # GET /v1/reports

    install_docs(app)
    app.include_router(report_router)
    app.include_router(chat_router)
    _install_review(app, settings)
    app.add_middleware(
        ServiceMiddleware,
        max_body_bytes=settings.max_body_bytes,
        timeout_s=settings.request_timeout_s,
        metrics=services.metrics,
        max_header_bytes=settings.max_header_bytes,
    )
    return app


def _install_review(app: FastAPI, settings: Settings) -> None:
    """The reviewer workbench (``/review``, HTML) and its decision endpoint."""
    from fastapi.staticfiles import StaticFiles

    from services.api.routes.review import api_router, router
    from services.api.web import STATIC, Sessions, templates

    secret = settings.review_session_secret
    app.state.review_sessions = Sessions(
        secret.get_secret_value().encode("utf-8") if secret is not None else None,
        lifetime_s=settings.review_session_s,
        secure=settings.review_cookie_secure,
    )
    app.state.review_templates = templates()
    app.include_router(api_router)
    app.include_router(router)
    app.mount("/review/static", StaticFiles(directory=STATIC), name="review-static")


async def _checkpoint_timer(trail: Trail, every_s: float) -> None:
    """Sign a due checkpoint even while no audit arrives (the last records of a busy spell
    would otherwise wait for the next append)."""
    while True:
        await anyio.sleep(min(every_s, 60.0))
        try:
            await anyio.to_thread.run_sync(trail.maybe_checkpoint)
        except Exception as exc:  # the database may be down for a while: try again later
            log.warning("automatic checkpoint check failed: %s", type(exc).__name__)


def _preload() -> None:
    """Load graphs and rules now, then move them out of the garbage collector's way."""
    try:
        from auditor import get_auditor

        auditor = get_auditor()
        warm_up = getattr(auditor, "warm_up", None)
        if warm_up is not None:
            warm_up()  # build the lazily-built linkers and indexes before the first request
    except ImportError as exc:
        log.warning("auditor not preloaded: %s", type(exc).__name__)
    gc.collect()
    gc.freeze()  # long-lived graph objects are never rescanned by later collections
    # A thread appending to the trail holds the chain lock while it waits for the GIL, which
    # a CPU-bound audit() thread keeps for the whole switch interval (5 ms by default) at
    # each statement: hand the GIL over sooner so the lock is held for less time.
    sys.setswitchinterval(0.0005)


def app_from_settings() -> FastAPI:
    """Uvicorn factory (``services.api.app:app_from_settings``) used by ``kgaudit serve``."""
    return create_app(get_settings(), preload=True)


__all__ = ["app_from_settings", "create_app"]
