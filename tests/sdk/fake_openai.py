"""A tiny stand-in for the OpenAI chat-completions endpoint (for the official client)."""

from __future__ import annotations

from typing import Any

from fastapi import FastAPI, Request


def fake_openai_app(replies: list[str]) -> FastAPI:
    """Answers each ``POST /v1/chat/completions`` with ``replies`` as its choices (plus a
    tool-call choice when a reply is empty); ``app.state.requests`` keeps the bodies."""
    app = FastAPI()
    app.state.requests = []

    @app.post("/v1/chat/completions")
    async def completions(request: Request) -> dict[str, Any]:
        body = await request.json()
        app.state.requests.append(body)
        choices = []
        for i, reply in enumerate(replies):
            message: dict[str, Any] = {"role": "assistant", "content": reply or None}
            if not reply:
                message["tool_calls"] = [
                    {
                        "id": "call_1",
                        "type": "function",
                        "function": {"name": "lookup", "arguments": "{}"},
                    }
                ]
            choices.append({"index": i, "finish_reason": "stop", "message": message})
        return {
            "id": f"chatcmpl-{len(app.state.requests)}",
            "object": "chat.completion",
            "created": 1_700_000_000,
            "model": body["model"],
            "choices": choices,
            "usage": {"prompt_tokens": 5, "completion_tokens": 7, "total_tokens": 12},
        }

    return app
