"""The ASGI middleware in front of every route: request id, body limit, time limit,
access log and metrics, and the last line of defence for unexpected exceptions.

The access log holds method, path (no query string), status, duration, request id and
tenant; never headers (credentials) or bodies (audited text).
"""

from __future__ import annotations

import logging
import re
import time
import uuid
from typing import Any

import anyio
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from services.api.errors import error_response, log_unexpected
from services.api.metrics import Metrics

access_log = logging.getLogger("kgaudit.api.access")
_REQUEST_ID_RE = re.compile(r"^[A-Za-z0-9._-]{1,64}$")
_BODY_METHODS = {"POST", "PUT", "PATCH"}


class _TooLarge(Exception):
    pass


# the methods the API answers; any other method is counted as "OTHER" in the metrics, so made-up
# methods cannot add label values without bound
_METHODS = frozenset({"GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"})


class ServiceMiddleware:
    def __init__(
        self,
        app: ASGIApp,
        *,
        max_body_bytes: int,
        timeout_s: float,
        metrics: Metrics,
        max_header_bytes: int = 32_768,
    ) -> None:
        self.app, self.max_body_bytes, self.timeout_s = app, max_body_bytes, timeout_s
        self.metrics, self.max_header_bytes = metrics, max_header_bytes

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        headers = {
            k.decode("latin-1").lower(): v.decode("latin-1") for k, v in scope.get("headers", [])
        }
        incoming = headers.get("x-request-id", "")
        request_id = incoming if _REQUEST_ID_RE.match(incoming) else uuid.uuid4().hex
        scope.setdefault("state", {})["request_id"] = request_id
        started, status = time.perf_counter(), [0]
        streaming = [False]
        # when this request's 504 fires: handlers stop (and record nothing) just before it
        scope["state"]["deadline"] = time.monotonic() + self.timeout_s

        async def send_wrapper(message: Message) -> None:
            if message["type"] == "http.response.start":
                status[0] = message["status"]
                streaming[0] = any(
                    k.lower() == b"content-type" and v.startswith(b"text/event-stream")
                    for k, v in message.get("headers", [])
                )
                hdrs = [
                    (k, v) for k, v in message.get("headers", []) if k.lower() != b"x-request-id"
                ]
                message["headers"] = [*hdrs, (b"x-request-id", request_id.encode())]
            if streaming[0]:
                # a stream ends when its client goes away: its chunks stay cancellable (a
                # shielded send to a closed client never returns)
                await send(message)
                return
            # a response that has started is finished: a time limit that fires between its
            # start and its body (a blocking handler returning late) must not leave the client
            # a 200 with an empty body
            with anyio.CancelScope(shield=True):
                await send(message)

        async def reply(resp: Any) -> None:
            if status[0] == 0:
                await resp(scope, receive, send_wrapper)

        try:
            size = sum(len(k) + len(v) + 4 for k, v in scope.get("headers", []))
            if size > self.max_header_bytes:
                await reply(
                    error_response(
                        431,
                        "headers_too_large",
                        f"the request headers are larger than {self.max_header_bytes} bytes",
                        request_id,
                    )
                )
                return
            body_receive = await self._buffer_body(scope, receive, headers)
            with anyio.move_on_after(self.timeout_s) as deadline:
                await self.app(scope, body_receive, send_wrapper)
            if deadline.cancelled_caught:
                await reply(
                    error_response(
                        504,
                        "timeout",
                        f"the request took longer than {self.timeout_s:g} s",
                        request_id,
                    )
                )
        except _TooLarge:
            await reply(
                error_response(
                    413,
                    "payload_too_large",
                    f"the request body is larger than {self.max_body_bytes} bytes",
                    request_id,
                )
            )
        except Exception as exc:  # translated here so no server log prints its message
            log_unexpected(exc, request_id)
            await reply(
                error_response(
                    500, "internal_error", "internal error; quote the request id", request_id
                )
            )
        finally:
            self._observe(scope, status[0] or 500, time.perf_counter() - started, request_id)

    async def _buffer_body(
        self, scope: Scope, receive: Receive, headers: dict[str, str]
    ) -> Receive:
        if scope["method"] not in _BODY_METHODS:
            return receive
        declared = headers.get("content-length", "")
        if declared.isdigit() and int(declared) > self.max_body_bytes:
            raise _TooLarge
        chunks, size, more = [], 0, True
        while more:
            message = await receive()
            if message["type"] == "http.disconnect":
                return receive
            chunk = message.get("body", b"")
            size += len(chunk)
            if size > self.max_body_bytes:
                raise _TooLarge
            chunks.append(chunk)
            more = message.get("more_body", False)
        body, sent = b"".join(chunks), [False]

        async def replay() -> Message:
            if not sent[0]:
                sent[0] = True
                return {"type": "http.request", "body": body, "more_body": False}
            return await receive()

        return replay

    def _observe(self, scope: Scope, status: int, elapsed: float, request_id: str) -> None:
        route = scope.get("route")
        path_template = getattr(route, "path", None) or "unmatched"
        method = scope["method"] if scope["method"] in _METHODS else "OTHER"
        self.metrics.observe_request(method, path_template, status, elapsed)
        state = scope.get("state") or {}
        access_log.info(
            "%s %s %d %.1fms request_id=%s tenant=%s",
            scope["method"],
            scope.get("path", ""),
            status,
            elapsed * 1000,
            request_id,
            state.get("tenant", "-"),
        )


__all__ = ["ServiceMiddleware"]
