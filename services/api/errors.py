"""One JSON error shape for every 4xx/5xx, and the translation of exceptions into it.

Every error response body is::

    {"error": {"code": "not_found", "message": "one sentence", "request_id": "...",
               "details": [...]}}          # details only for validation errors

Messages never echo request bodies (audited text) or credentials.
"""

from __future__ import annotations

import logging
import traceback
from typing import Any

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from starlette.exceptions import HTTPException as StarletteHTTPException

from auditor.errors import KgauditError, SourceUnavailable, UsageError

log = logging.getLogger("kgaudit.api")

_STATUS_CODES: dict[int, str] = {
    400: "bad_request",
    401: "unauthorized",
    403: "forbidden",
    404: "not_found",
    405: "method_not_allowed",
    406: "not_acceptable",
    409: "conflict",
    413: "payload_too_large",
    415: "unsupported_media_type",
    422: "validation_error",
    431: "headers_too_large",
    429: "rate_limited",
    500: "internal_error",
    503: "unavailable",
    504: "timeout",
}


class ApiError(Exception):
    """An error with a status, a stable machine-readable code and a one-sentence message."""

    def __init__(
        self, status: int, code: str, message: str, *, headers: dict[str, str] | None = None
    ) -> None:
        super().__init__(message)
        self.status, self.code, self.message = status, code, message
        self.headers = headers or {}


def error_body(
    code: str, message: str, request_id: str | None, details: list[dict[str, Any]] | None = None
) -> dict[str, Any]:
    err: dict[str, Any] = {"code": code, "message": message, "request_id": request_id}
    if details is not None:
        err["details"] = details
    return {"error": err}


def request_id_of(scope_or_request: Any) -> str | None:
    scope = getattr(scope_or_request, "scope", scope_or_request)
    state = scope.get("state") or {}
    return state.get("request_id")


def error_response(
    status: int,
    code: str,
    message: str,
    request_id: str | None,
    *,
    headers: dict[str, str] | None = None,
    details: list[dict[str, Any]] | None = None,
) -> JSONResponse:
    hdrs = dict(headers or {})
    if request_id:
        hdrs["X-Request-ID"] = request_id
    return JSONResponse(
        error_body(code, message, request_id, details), status_code=status, headers=hdrs
    )


def _validation_details(exc: RequestValidationError) -> list[dict[str, Any]]:
    # Only location, message and type: pydantic's "input"/"ctx" may echo the audited text.
    return [
        {
            "loc": [str(p) for p in e.get("loc", ())],
            "msg": str(e.get("msg", "")),
            "type": str(e.get("type", "")),
        }
        for e in exc.errors()
    ]


def _is_json(content_type: str) -> bool:
    mime = content_type.split(";", 1)[0].strip().lower()
    return mime == "application/json" or (
        mime.startswith("application/") and mime.endswith("+json")
    )


def unparseable_body(details: list[dict[str, Any]], content_type: str | None) -> str | None:
    """The ``bad_request`` sentence when the body could not be read as JSON at all (broken
    JSON, or no JSON Content-Type so the body was never parsed); None when the
    body was JSON and only its fields are wrong (that stays a 422 ``validation_error``).

    >>> unparseable_body([{"loc": ["body", "13"], "msg": "JSON decode error",
    ...                    "type": "json_invalid"}], "application/json")
    'the request body is not valid JSON (error at character 13)'
    >>> unparseable_body([{"loc": ["body", "text"], "msg": "x", "type": "missing"}], None) is None
    True
    """
    for d in details:
        if d["type"] == "json_invalid":
            at = d["loc"][1] if len(d["loc"]) > 1 else "?"
            return f"the request body is not valid JSON (error at character {at})"
    # FastAPI reads a body as JSON only under a JSON Content-Type (strict_content_type), so
    # a body-level "not an object" error under another type, or none, means "never parsed".
    body_level = any(d["loc"] == ["body"] for d in details)
    if body_level and not (content_type and _is_json(content_type)):
        sent = (
            f"Content-Type: {content_type.split(';', 1)[0].strip()[:64]}"
            if content_type
            else "no Content-Type"
        )
        return (
            "the request body must be JSON: send the header Content-Type: application/json "
            f"(this request sent {sent})"
        )
    return None


def log_unexpected(exc: BaseException, request_id: str | None) -> None:
    """Log an unexpected exception: class and stack only, never its message (may hold text)."""
    stack = "".join(traceback.format_tb(exc.__traceback__))
    log.error("unhandled %s (request %s)\n%s", type(exc).__name__, request_id, stack)


def install_error_handlers(app: FastAPI) -> None:
    @app.exception_handler(ApiError)
    async def _api_error(request: Request, exc: ApiError) -> JSONResponse:
        return error_response(
            exc.status, exc.code, exc.message, request_id_of(request), headers=exc.headers
        )

    @app.exception_handler(StarletteHTTPException)
    async def _http_error(request: Request, exc: StarletteHTTPException) -> JSONResponse:
        code = _STATUS_CODES.get(exc.status_code, "error")
        message = exc.detail if isinstance(exc.detail, str) else code.replace("_", " ")
        if exc.status_code == 404 and message == "Not Found":
            message = "no such resource"
        elif exc.status_code == 400 and message == "There was an error parsing the body":
            message = "the request body is not valid JSON (it is not UTF-8 text)"
        return error_response(
            exc.status_code, code, message, request_id_of(request), headers=dict(exc.headers or {})
        )

    @app.exception_handler(RequestValidationError)
    async def _validation_error(request: Request, exc: RequestValidationError) -> JSONResponse:
        details = _validation_details(exc)
        unparseable = unparseable_body(details, request.headers.get("content-type"))
        if unparseable is not None:
            return error_response(400, "bad_request", unparseable, request_id_of(request))
        first = details[0] if details else {"loc": [], "msg": "invalid request"}
        where = ".".join(first["loc"]) or "request"
        return error_response(
            422,
            "validation_error",
            f"{where}: {first['msg']}",
            request_id_of(request),
            details=details,
        )

    @app.exception_handler(RecursionError)
    async def _too_deep(request: Request, exc: RecursionError) -> JSONResponse:
        return error_response(
            422, "invalid_request", "the request body is nested too deeply", request_id_of(request)
        )

    @app.exception_handler(SourceUnavailable)
    async def _unavailable(request: Request, exc: SourceUnavailable) -> JSONResponse:
        return error_response(503, "source_unavailable", str(exc), request_id_of(request))

    @app.exception_handler(UsageError)
    async def _usage_error(request: Request, exc: UsageError) -> JSONResponse:
        return error_response(422, "invalid_request", str(exc), request_id_of(request))

    @app.exception_handler(KgauditError)
    async def _internal(request: Request, exc: KgauditError) -> JSONResponse:
        log_unexpected(exc, request_id_of(request))
        return error_response(
            500, "internal_error", "internal error; quote the request id", request_id_of(request)
        )


__all__ = [
    "ApiError",
    "error_body",
    "error_response",
    "install_error_handlers",
    "log_unexpected",
    "request_id_of",
    "unparseable_body",
]
