"""A fake OpenAI-compatible upstream for tests and ``kgaudit bench gateway`` (local only).

``GET /v1/models`` lists :data:`MODELS`. ``POST /v1/chat/completions`` answers with the last user message (so a caller chooses the
answer), JSON-wrapped as ``{"answer": ...}`` under ``response_format: json_object``, plain or
streamed word by word. The request's ``model`` picks a misbehaviour: ``slow`` (waits
``delay_s`` first), ``fail`` (500 with an OpenAI error body that echoes the caller's key, as
some providers do), ``malformed`` (200, not JSON), ``no-choices`` (200, JSON without choices),
``broken-stream`` (a chunk, then an event that is not JSON), ``stalled-stream`` (a chunk,
then silence for ``delay_s``); every other answer waits ``answer_delay_s`` first (0: none; the
bench's stand-in for an upstream's own time). With ``key`` set, a request
without ``Authorization: Bearer <key>`` gets 401. Every answer sets a session cookie (as hosted
APIs' load balancers do). Every request is kept in ``app.state.seen``, with its ``cookie``.

``python -m services.gateway.fake --port 9000`` serves it.
"""

from __future__ import annotations

import asyncio
import json
import threading
import time
from collections.abc import AsyncIterator, Iterator
from contextlib import contextmanager
from typing import Any

from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import JSONResponse, PlainTextResponse, Response, StreamingResponse
from starlette.routing import Route


def _answer(body: dict[str, Any]) -> str:
    users = [m for m in body.get("messages", []) if m.get("role") == "user"]
    text = str(users[-1].get("content", "")) if users else ""
    if (body.get("response_format") or {}).get("type") == "json_object":
        return json.dumps({"answer": text})
    return text


MODELS = ("echo", "slow", "fail", "malformed", "no-choices", "broken-stream", "stalled-stream")


def fake_upstream(
    *, key: str | None = None, delay_s: float = 5.0, answer_delay_s: float = 0.0
) -> Starlette:
    """The fake upstream's ASGI app."""

    def refused(auth: str) -> Response | None:
        if key is None or auth == f"Bearer {key}":
            return None
        given = auth.removeprefix("Bearer ")
        return JSONResponse(
            {"error": {"message": f"Incorrect API key provided: {given}"}}, status_code=401
        )

    async def models(request: Request) -> Response:
        auth = request.headers.get("authorization", "")
        request.app.state.seen.append({"path": "/v1/models", "authorization": auth})
        data = [{"id": m, "object": "model", "created": 0, "owned_by": "fake"} for m in MODELS]
        return refused(auth) or JSONResponse({"object": "list", "data": data})

    async def completions(request: Request) -> Response:
        resp = await answer(request)
        resp.set_cookie("fake_session", request.headers.get("authorization", "")[-8:])
        return resp

    async def answer(request: Request) -> Response:
        body = await request.json()
        auth = request.headers.get("authorization", "")
        cookie = request.headers.get("cookie", "")
        request.app.state.seen.append({"body": body, "authorization": auth, "cookie": cookie})
        if (no := refused(auth)) is not None:
            return no
        model = body.get("model", "echo")
        if model == "slow":
            await asyncio.sleep(delay_s)
        elif answer_delay_s > 0:
            await asyncio.sleep(answer_delay_s)
        if model == "fail":
            given = auth.removeprefix("Bearer ")
            msg = f"the model crashed while serving key {given}"
            return JSONResponse({"error": {"message": msg, "type": "server_error"}}, 500)
        if model == "malformed":
            return PlainTextResponse("<html>upstream proxy error</html>")
        if model == "no-choices":
            return JSONResponse({"id": "x", "object": "chat.completion"})
        text, created = _answer(body), int(time.time())
        if body.get("stream"):
            return StreamingResponse(
                _chunks(model, text, created, body, delay_s), media_type="text/event-stream"
            )
        words = len(text.split())
        return JSONResponse(
            {
                "id": "fake-1",
                "object": "chat.completion",
                "created": created,
                "model": model,
                "choices": [
                    {
                        "index": 0,
                        "message": {"role": "assistant", "content": text},
                        "finish_reason": "stop",
                        "logprobs": None,
                    }
                ],
                "usage": {
                    "prompt_tokens": 5,
                    "completion_tokens": words,
                    "total_tokens": 5 + words,
                },
            }
        )

    app = Starlette(
        routes=[
            Route("/v1/chat/completions", completions, methods=["POST"]),
            Route("/v1/models", models, methods=["GET"]),
        ]
    )
    app.state.seen = []
    return app


async def _chunks(
    model: str, text: str, created: int, body: dict[str, Any], delay_s: float
) -> AsyncIterator[str]:
    def event(delta: dict[str, Any], reason: str | None = None) -> str:
        choice = {"index": 0, "delta": delta, "finish_reason": reason}
        chunk = {"id": "fake-1", "object": "chat.completion.chunk", "created": created}
        return f"data: {json.dumps({**chunk, 'model': model, 'choices': [choice]})}\n\n"

    yield event({"role": "assistant", "content": ""})
    words = text.split(" ")
    for i, w in enumerate(words):
        yield event({"content": w if i == 0 else " " + w})
        if model == "broken-stream":
            yield "data: {not json\n\n"
            return
        if model == "stalled-stream":
            await asyncio.sleep(delay_s)
    yield event({}, "stop")
    if (body.get("stream_options") or {}).get("include_usage"):
        usage = {
            "prompt_tokens": 5,
            "completion_tokens": len(words),
            "total_tokens": 5 + len(words),
        }
        chunk = {"id": "fake-1", "object": "chat.completion.chunk", "created": created}
        yield f"data: {json.dumps({**chunk, 'model': model, 'choices': [], 'usage': usage})}\n\n"
    yield "data: [DONE]\n\n"


@contextmanager
def serve_in_thread(app: Any, *, port: int = 0) -> Iterator[str]:
    """Serve ``app`` with uvicorn in a daemon thread; yields its base URL (``.../v1``)."""
    import socket

    import uvicorn

    sock = socket.socket()
    sock.bind(("127.0.0.1", port))
    config = uvicorn.Config(app, log_level="warning", access_log=False, lifespan="off")
    server = uvicorn.Server(config)
    thread = threading.Thread(target=server.run, kwargs={"sockets": [sock]}, daemon=True)
    thread.start()
    deadline = time.monotonic() + 30
    while not server.started:
        if time.monotonic() > deadline or not thread.is_alive():
            raise RuntimeError("the fake upstream did not start")
        time.sleep(0.01)
    try:
        yield f"http://127.0.0.1:{sock.getsockname()[1]}/v1"
    finally:
        server.should_exit = True
        thread.join(timeout=10)
        sock.close()


def main() -> None:
    import argparse

    import uvicorn

    parser = argparse.ArgumentParser(description="Serve the fake OpenAI-compatible upstream.")
    parser.add_argument("--port", type=int, default=9000)
    parser.add_argument("--key", default=None)
    parser.add_argument("--answer-delay-ms", type=float, default=0.0)
    args = parser.parse_args()
    uvicorn.run(
        fake_upstream(key=args.key, answer_delay_s=args.answer_delay_ms / 1000),
        host="127.0.0.1",
        port=args.port,
        log_level="warning",
        access_log=False,
    )


if __name__ == "__main__":
    main()
