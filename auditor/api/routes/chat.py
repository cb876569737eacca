"""``POST /v1/chat/completions`` (OpenAI-compatible, KG-constrained, audited) and
``GET /v1/models``.

Authentication and tenancy are the API's: a Bearer key with the ``create`` permission (the
answer's audit is recorded in the tenant's trail, ``source="chat"``). With ``stream: true``
the answer comes as server-sent events in OpenAI's ``chat.completion.chunk`` format; the last
chunk carries ``finish_reason`` and the ``kgaudit`` audit, then ``data: [DONE]``.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

import anyio
from fastapi import APIRouter, Request
from fastapi.responses import StreamingResponse

from auditor.api.deps import Creator, Reader, ServicesDep, request_deadline
from auditor.api.errors import ApiError
from auditor.api.routes import AUTH_ERRORS, error_responses
from auditor.chat.schemas import ChatCompletion, ChatRequest, ModelList
from auditor.chat.service import (
    SERVED_NAMES,
    ChatInputError,
    ChatService,
    Run,
    new_completion_id,
    now,
)
from auditor.deadline import DeadlineExceeded

router = APIRouter(prefix="/v1", tags=["chat"])
READY_WAIT_S = 8.0  # how long a request waits for the engine to load before a 503
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


def audit_payload(result: Any, run: Run, audit_id: str | None) -> dict[str, Any]:
    d = result.to_dict() if hasattr(result, "to_dict") else dict(result)
    claims = [
        {
            k: c.get(k)
            for k in (
                "text",
                "verdict",
                "subject",
                "predicate",
                "object",
                "rule_id",
                "hallucination_type",
            )
        }
        for c in d["claims"]
    ]
    return {
        "audit_id": audit_id,
        "domain": d["domain"],
        "fer": d.get("fer"),
        "citation_confidence": d.get("citation_confidence"),
        "joint_score": d.get("joint_score"),
        "coverage": d.get("coverage"),
        "counts": d["counts"],
        "claims": claims,
        "constraint": run.constraint,
    }


@router.post(
    "/chat/completions",
    response_model=ChatCompletion,
    summary="Answer with the embedded model (KG-constrained by default), audited and recorded",
    responses={
        200: {
            "content": _SSE,
            "description": "The completion (JSON), or with `stream: true` server-sent events.",
        },
        **error_responses(*AUTH_ERRORS, 404, 413, 422, 503),
    },
)
async def chat_completions(
    body: ChatRequest, request: Request, principal: Creator, services: ServicesDep
) -> Any:
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
    who = {"tenant": principal.tenant, "requester": f"key:{principal.prefix}"}

    def finish() -> dict[str, Any]:
        result = svc.audit(run)
        audit_id = svc.record(services.trail, run, result, completion_id=cid, **who)
        return audit_payload(result, run, audit_id)

    if body.stream:
        first = await anyio.to_thread.run_sync(_first_piece, svc, run)
        return StreamingResponse(
            _events(svc, run, first, cid, created, finish),
            media_type="text/event-stream",
            headers={"Cache-Control": "no-cache"},
        )

    def complete() -> dict[str, Any]:
        content = "".join(svc.deltas(run))
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
            "kgaudit": finish(),
        }

    try:
        return await anyio.to_thread.run_sync(complete, abandon_on_cancel=True)
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
) -> Iterator[str]:
    """Server-sent events in OpenAI's chunk format (a sync iterator: Starlette runs it in a
    worker thread, step by step)."""
    pieces, first = started
    model = run.request.model

    def chunk(delta: dict[str, Any], reason: str | None = None, **extra: Any) -> str:
        body = {
            "id": cid,
            "object": "chat.completion.chunk",
            "created": created,
            "model": model,
            "choices": [{"index": 0, "delta": delta, "finish_reason": reason, "logprobs": None}],
            **extra,
        }
        return f"data: {json.dumps(body, ensure_ascii=False)}\n\n"

    yield chunk({"role": "assistant", "content": ""})
    if first is not None:
        yield chunk({"content": first})
    for piece in pieces:
        yield chunk({"content": piece})
    yield chunk({}, run.finish_reason, kgaudit=finish())
    opts = run.request.stream_options
    if opts is not None and opts.include_usage:
        body = {
            "id": cid,
            "object": "chat.completion.chunk",
            "created": created,
            "model": model,
            "choices": [],
            "usage": _usage(run),
        }
        yield f"data: {json.dumps(body)}\n\n"
    yield "data: [DONE]\n\n"


@router.get(
    "/models",
    response_model=ModelList,
    summary="The served model",
    responses=error_responses(*AUTH_ERRORS),
)
def list_models(principal: Reader) -> dict[str, Any]:
    return {
        "object": "list",
        "data": [
            {"id": n, "object": "model", "created": 0, "owned_by": "kgaudit"} for n in SERVED_NAMES
        ],
    }
