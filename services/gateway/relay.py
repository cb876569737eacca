"""Server-sent events in OpenAI's ``chat.completion.chunk`` format, relayed from an upstream.

Each upstream chunk is passed on with the gateway's completion id; its ``finish_reason`` and
a usage-only chunk are held back, so that — as with the bundled engine — the last chunk
carries ``finish_reason`` and the ``kgaudit`` audit, then the usage chunk (when the upstream
sent one), then ``data: [DONE]``.

Events are encoded by sse-starlette's ``ServerSentEvent`` and sent by its
``EventSourceResponse`` (:func:`event_stream`: client disconnects, keep-alive pings, server
shutdown). The events of one upstream network read are joined into one write.
"""

from __future__ import annotations

import json
from collections.abc import AsyncIterable, Iterable, Iterator
from typing import Any

from sse_starlette import EventSourceResponse, ServerSentEvent

SEP = "\n"  # OpenAI's and the bundled engine's line separator (sse-starlette's is \r\n)
PING_S = 15  # a comment line while nothing is sent (e.g. an answer held back under block)


def sse(body: Any) -> bytes:
    """One event whose data is ``body`` as JSON."""
    return ServerSentEvent(json.dumps(body, ensure_ascii=False), sep=SEP).encode()


DONE = ServerSentEvent("[DONE]", sep=SEP).encode()


def event_stream(events: AsyncIterable[Any] | Iterable[Any]) -> EventSourceResponse:
    """The streamed response: ``events`` are encoded events (bytes, sent as they are) or
    the ``data`` of one event each (a string); a sync iterable runs in a worker thread."""
    # measured against the hand-written StreamingResponse it replaced (kgaudit bench gateway,
    # 2026-12-06): gateway CPU per streamed answer 6.3 ms against 6.0 ms, within the noise
    return EventSourceResponse(events, sep=SEP, ping=PING_S, headers={"Cache-Control": "no-cache"})


class Relay:
    """One streamed completion: rewrites chunks and accumulates the answer's text."""

    def __init__(self, cid: str, created: int, model: str) -> None:
        self.cid, self.created, self.model = cid, created, model
        self.upstream_id = ""
        self.parts: list[str] = []
        self.finish_reason: str | None = None
        self.usage: dict[str, Any] | None = None

    @property
    def content(self) -> str:
        return "".join(self.parts)

    def chunk(self, choices: list[dict[str, Any]], **extra: Any) -> dict[str, Any]:
        return {
            "id": self.cid,
            "object": "chat.completion.chunk",
            "created": self.created,
            "model": self.model,
            "choices": choices,
            **extra,
        }

    def take(self, chunk: dict[str, Any]) -> bytes | None:
        """The event to send for an upstream chunk (None: held back)."""
        self.upstream_id = self.upstream_id or str(chunk.get("id", ""))
        if isinstance(chunk.get("model"), str):
            self.model = chunk["model"]
        if isinstance(chunk.get("usage"), dict):
            self.usage = chunk["usage"]
        choices = []
        for c in chunk.get("choices") or []:
            if not isinstance(c, dict) or c.get("index", 0) != 0:
                continue
            delta = c.get("delta") if isinstance(c.get("delta"), dict) else {}
            if isinstance(delta.get("content"), str):
                self.parts.append(delta["content"])
            if c.get("finish_reason"):
                self.finish_reason = str(c["finish_reason"])
            if delta:
                choices.append({**c, "delta": delta, "finish_reason": None})
        if not choices:
            return None
        return sse(self.chunk(choices))

    def closing(self, audit: dict[str, Any]) -> Iterator[bytes]:
        """The last chunk (finish_reason + audit), the usage chunk, ``[DONE]``."""
        last = {"index": 0, "delta": {}, "finish_reason": self.finish_reason or "stop"}
        yield sse(self.chunk([{**last, "logprobs": None}], kgaudit=audit))
        if self.usage is not None:
            yield sse(self.chunk([], usage=self.usage))
        yield DONE

    def error_event(self, code: str, message: str, kind: str = "upstream_error") -> bytes:
        """An error after the response has started (OpenAI's clients raise on it)."""
        return sse({"error": {"code": code, "message": message, "type": kind}})


def completion_events(
    relay: Relay, text: str, audit: dict[str, Any], finish_reason: str = "stop"
) -> Iterator[bytes]:
    """A whole answer (a refusal, or an answer held back until audited) as a stream: role,
    text, closing chunks (``relay.usage``, when set, as the usage chunk)."""
    for delta in ({"role": "assistant", "content": ""}, {"content": text}):
        yield sse(relay.chunk([{"index": 0, "delta": delta, "finish_reason": None}]))
    relay.finish_reason = finish_reason
    yield from relay.closing(audit)
