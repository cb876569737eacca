"""``POST /v1/chat/completions`` (OpenAI-compatible, KG-constrained, audited) and
``GET /v1/models``.

The bundled engine answers unless the tenant's route names an upstream (gateway mode,
:mod:`services.gateway`, docs/gateway.md); either way the tenant's policy (``annotate``,
``block``, ``review``) is applied to the audited answer.

Authentication and tenancy are the API's: a Bearer key with the ``create`` permission (the
answer's audit is recorded in the tenant's trail, ``source="chat"``). With ``stream: true``
the answer comes as server-sent events in OpenAI's ``chat.completion.chunk`` format; the last
chunk carries ``finish_reason`` and the ``kgaudit`` audit, then ``data: [DONE]``.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import anyio
from fastapi import APIRouter, Request
from fastapi.responses import JSONResponse

from auditor.deadline import DeadlineExceeded
from services.api.deps import Creator, Reader, ServicesDep, request_deadline
from services.api.errors import ApiError
from services.api.routes import AUTH_ERRORS, error_responses
from services.chat.schemas import ChatCompletion, ChatRequest, ModelList
from services.chat.service import (
    SERVED_NAMES,
    ChatInputError,
    ChatService,
    Run,
    audit_summary,
    new_completion_id,
    now,
)
from services.gateway import (
    BLOCKED,
    Decision,
    Gateway,
    GatewayError,
    Relay,
    TenantRoute,
    Who,
    completion_events,
    decide,
    tenant_route,
)
from services.gateway.policy import largest_outcome
from services.gateway.relay import DONE, event_stream, sse
from services.gateway.service import json_mode

router = APIRouter(prefix="/v1", tags=["chat"])
READY_WAIT_S = 8.0  # how long a request waits for the engine to load before a 503
ENGINE = "engine"  # who answered, in the audit's metadata and the response's ``kgaudit``
ERROR_TYPE = "invalid_request_error"  # OpenAI's error type of a refused request
_SSE = {
    "text/event-stream": {
        # one server-sent event (OpenAPI 3.2 `itemSchema`): its `data` is a JSON
        # chat.completion.chunk, and the last event's data is `[DONE]`
        "itemSchema": {
            "type": "object",
            "required": ["data"],
            "properties": {
                "data": {"type": "string"},
                "event": {"type": "string"},
                "id": {"type": "string"},
                "retry": {"type": "integer"},
            },
        },
        "example": 'data: {"id": "chatcmpl-'
        '1", "object": "chat.completion.chunk", ...}\n\ndata: [DONE]\n\n',
    }
}


def chat_service(request: Request, services: Any) -> ChatService:
    """The app's chat service (``app.state.chat_service``), created on first use."""
    svc = getattr(request.app.state, "chat_service", None)
    if svc is None:
        svc = request.app.state.chat_service = ChatService(services.audit_fn)
    return svc


def gateway(request: Request, services: Any) -> Gateway:
    """The app's gateway (``app.state.gateway``), created on first use."""
    gw = getattr(request.app.state, "gateway", None)
    if gw is None:
        gw = request.app.state.gateway = Gateway(
            services.audit_fn,
            services.trail,
            audit_timeout_s=services.settings.audit_timeout_s,
            audit_slots=services.audit_slots,
        )
    return gw


async def _via_upstream(
    route: TenantRoute, body: ChatRequest, request: Request, who: Who, services: Any
) -> Any:
    """Gateway mode: the tenant's upstream answers (docs/gateway.md)."""
    gw = gateway(request, services)
    raw = await request.json()
    limit = request_deadline(request, services.settings.request_timeout_s)
    try:
        if body.stream:
            events = await gw.stream(route, body, raw, who=who, deadline=limit)
            return event_stream(events)
        return JSONResponse(await gw.complete(route, body, raw, who=who, deadline=limit))
    except GatewayError as exc:
        raise ApiError(exc.status, exc.code, str(exc)) from None


@router.post(
    "/chat/completions",
    response_model=ChatCompletion,
    summary="Answer with the embedded model (KG-constrained by default) or, in gateway mode, "
    "the configured upstream; audited and recorded",
    responses={
        200: {
            "content": _SSE,
            "description": "The completion (JSON), or with `stream: true` server-sent events.",
        },
        **error_responses(*AUTH_ERRORS, 404, 413, 422, 502, 503, 504),
    },
)
async def chat_completions(
    body: ChatRequest, request: Request, principal: Creator, services: ServicesDep
) -> Any:
    route = tenant_route(services.settings, principal.tenant)
    who = Who(principal.tenant, f"key:{principal.prefix}")
    if route.upstream_url is not None:
        return await _via_upstream(route, body, request, who, services)
    if "domain" not in body.model_fields_set:
        body.domain = route.domain  # the tenant's default domain
    svc = chat_service(request, services)
    if not await anyio.to_thread.run_sync(svc.ready, READY_WAIT_S):
        raise ApiError(
            503,
            "warming_up",
            "the embedded engine is still loading; retry in a few seconds",
            headers={"Retry-After": "5"},
        )
    if svc.error is not None:
        raise ApiError(
            503,
            "engine_unavailable",
            "the embedded engine could not be loaded "
            f"({type(svc.error).__name__}); see the server log",
        )
    try:
        run = svc.start(body)
    except ChatInputError as exc:
        raise ApiError(exc.status, exc.code, str(exc)) from None
    # past the request's time limit nothing more is generated, audited or recorded
    run.deadline = request_deadline(request, services.settings.request_timeout_s)
    cid, created = new_completion_id(), now()
    decided: list[Decision] = []

    def finish() -> dict[str, Any]:
        # refused before the audit: what the trail would refuse (the outcome at its largest)
        svc.check(
            services.trail,
            run,
            completion_id=cid,
            extra={"gateway": largest_outcome(route.policy, ENGINE)},
        )
        result = svc.audit(run)
        decision = decide(route.policy, result, json_mode=json_mode(body))
        decided.append(decision)
        audit_id = svc.record(
            services.trail,
            run,
            result,
            completion_id=cid,
            tenant=who.tenant,
            requester=who.requester,
            extra={"gateway": decision.outcome(ENGINE)},
        )
        summary = audit_summary(result, run.constraint, audit_id)
        return {**summary, **decision.summary(), "upstream": ENGINE}

    if body.stream and route.policy != "block":
        first = await anyio.to_thread.run_sync(_first_piece, svc, run)
        return event_stream(_events(svc, run, first, cid, created, finish))

    def complete() -> dict[str, Any]:
        content = "".join(svc.deltas(run))
        audit = finish()
        if decided[-1].status == BLOCKED:
            content = decided[-1].refusal or ""
        return {
            "id": cid,
            "created": created,
            "model": body.model,
            "object": "chat.completion",
            "choices": [
                {
                    "index": 0,
                    "message": {"role": "assistant", "content": content},
                    "finish_reason": run.finish_reason,
                    "logprobs": None,
                }
            ],
            "usage": _usage(run),
            "kgaudit": audit,
        }

    try:
        done = await anyio.to_thread.run_sync(complete, abandon_on_cancel=True)
        if body.stream:  # under block: nothing is sent before the audit has passed
            relay = Relay(cid, created, body.model)
            opts = body.stream_options
            relay.usage = done["usage"] if opts is not None and opts.include_usage else None
            choice = done["choices"][0]
            text, reason = choice["message"]["content"], choice["finish_reason"]
            return event_stream(completion_events(relay, text, done["kgaudit"], reason))
        return done
    except ChatInputError as exc:
        raise ApiError(exc.status, exc.code, str(exc)) from None
    except DeadlineExceeded:
        raise ApiError(
            504, "timeout", "the completion took longer than the time limit; nothing was recorded"
        ) from None
    except (ImportError, OSError) as exc:
        raise ApiError(
            503,
            "engine_unavailable",
            f"the embedded engine is not available ({type(exc).__name__}); install kgaudit[engine]",
        ) from None


def _usage(run: Run) -> dict[str, int]:
    return {
        "prompt_tokens": run.prompt_tokens,
        "completion_tokens": run.completion_tokens,
        "total_tokens": run.prompt_tokens + run.completion_tokens,
    }


def _first_piece(svc: ChatService, run: Run) -> tuple[Iterator[str], str | None]:
    """Start generating before the response starts, so input errors still become 4xx."""
    pieces = svc.deltas(run)
    try:
        first = next(pieces)
    except ChatInputError as exc:
        raise ApiError(exc.status, exc.code, str(exc)) from None
    except StopIteration:
        first = None
    return pieces, first


def _events(
    svc: ChatService,
    run: Run,
    started: tuple[Iterator[str], str | None],
    cid: str,
    created: int,
    finish: Any,
) -> Iterator[bytes]:
    """Server-sent events in OpenAI's chunk format (a sync iterator: sse-starlette runs it in
    a worker thread, step by step)."""
    pieces, first = started
    model = run.request.model

    def chunk(delta: dict[str, Any], reason: str | None = None, **extra: Any) -> bytes:
        return sse(
            {
                "id": cid,
                "object": "chat.completion.chunk",
                "created": created,
                "model": model,
                "choices": [
                    {"index": 0, "delta": delta, "finish_reason": reason, "logprobs": None}
                ],
                **extra,
            }
        )

    yield chunk({"role": "assistant", "content": ""})
    if first is not None:
        yield chunk({"content": first})
    for piece in pieces:
        yield chunk({"content": piece})
    try:
        audit = finish()
    except ChatInputError as exc:  # the response has started: an error event, no record
        yield sse({"error": {"code": exc.code, "message": str(exc), "type": ERROR_TYPE}})
        return
    yield chunk({}, run.finish_reason, kgaudit=audit)
    opts = run.request.stream_options
    if opts is not None and opts.include_usage:
        yield sse(
            {
                "id": cid,
                "object": "chat.completion.chunk",
                "created": created,
                "model": model,
                "choices": [],
                "usage": _usage(run),
            }
        )
    yield DONE


@router.get(
    "/models",
    response_model=ModelList,
    summary="The served model, or in gateway mode the upstream's models (as it lists them)",
    responses=error_responses(*AUTH_ERRORS, 502, 504),
)
async def list_models(principal: Reader, request: Request, services: ServicesDep) -> Any:
    route = tenant_route(services.settings, principal.tenant)
    if route.upstream_url is not None:  # gateway mode: the upstream's own list
        limit = request_deadline(request, services.settings.request_timeout_s)
        try:
            return JSONResponse(await gateway(request, services).models(route, deadline=limit))
        except GatewayError as exc:
            raise ApiError(exc.status, exc.code, str(exc)) from None
    return {
        "object": "list",
        "data": [
            {"id": n, "object": "model", "created": 0, "owned_by": "kgaudit"} for n in SERVED_NAMES
        ],
    }
