"""The upstream client: ``POST {base}/chat/completions`` with httpx, plain or streamed, and
``GET {base}/models``.

Every failure becomes an :class:`UpstreamError` carrying the status the client gets: 504 when
the upstream did not answer (or stopped sending) within the timeout, 502 for everything else
(unreachable, an error status, a body that is not an OpenAI chat completion). The message
names the upstream's own message; the upstream key is scrubbed from it, and the key is sent
only in the ``Authorization`` header (httpx logs request lines, never headers).
"""

from __future__ import annotations

import json
from collections.abc import AsyncGenerator
from typing import Any

import httpx

from services.gateway.config import TenantRoute

MAX_MESSAGE_CHARS = 300


class GatewayError(Exception):
    """A gateway request that cannot be answered; ``status`` and ``code`` are the client's."""

    def __init__(self, status: int, code: str, message: str) -> None:
        super().__init__(message)
        self.status, self.code = status, code


class UpstreamError(GatewayError):
    """The upstream failed: 502, or 504 when it did not answer in time."""


def _scrub(text: str, route: TenantRoute) -> str:
    text = " ".join(text.split())[:MAX_MESSAGE_CHARS]
    if route.upstream_key:
        text = text.replace(route.upstream_key, "***")
    return text


def _upstream_message(body: bytes) -> str:
    """The message an upstream put in its error body (OpenAI's shape, else the raw text)."""
    text = body.decode("utf-8", "replace")
    try:
        data = json.loads(text)
    except ValueError:
        return text
    err = data.get("error") if isinstance(data, dict) else None
    if isinstance(err, dict) and isinstance(err.get("message"), str):
        return err["message"]
    if isinstance(err, str):
        return err
    return text


def translate(exc: Exception, route: TenantRoute) -> UpstreamError:
    """An httpx exception as the client's 502 / 504 (never the key, never a traceback)."""
    name = route.upstream_name
    if isinstance(exc, httpx.TimeoutException):
        return UpstreamError(
            504,
            "upstream_timeout",
            f"the upstream {name} did not answer within {route.timeout_s:g} s",
        )
    if isinstance(exc, httpx.ConnectError):
        return UpstreamError(502, "upstream_unreachable", f"the upstream {name} is unreachable")
    detail = _scrub(str(exc) or type(exc).__name__, route)
    return UpstreamError(502, "upstream_error", f"the upstream {name} failed: {detail}")


def error_status(resp: httpx.Response, body: bytes, route: TenantRoute) -> UpstreamError:
    message = _scrub(_upstream_message(body), route) or resp.reason_phrase
    return UpstreamError(
        502,
        "upstream_error",
        f"the upstream {route.upstream_name} answered {resp.status_code}: {message}",
    )


def malformed(route: TenantRoute, what: str) -> UpstreamError:
    return UpstreamError(
        502, "upstream_malformed", f"the upstream {route.upstream_name} sent {what}"
    )


class Upstream:
    """One tenant route's calls, on a shared ``httpx.AsyncClient`` (keep-alive pool)."""

    def __init__(self, client: httpx.AsyncClient, route: TenantRoute, timeout_s: float) -> None:
        self.client, self.route = client, route
        self.timeout = httpx.Timeout(timeout_s)

    def _request(
        self, body: dict[str, Any] | None, path: str = "/chat/completions"
    ) -> httpx.Request:
        headers = {"Accept": "application/json"}
        if self.route.upstream_key:
            headers["Authorization"] = f"Bearer {self.route.upstream_key}"
        return self.client.build_request(
            "POST" if body is not None else "GET",
            f"{self.route.upstream_url}{path}",
            json=body,
            headers=headers,
            timeout=self.timeout,
        )

    async def models(self) -> dict[str, Any]:
        """The upstream's ``GET /models`` list (checked: a ``data`` list of models with ids)."""
        try:
            resp = await self.client.send(self._request(None, "/models"))
        except (httpx.HTTPError, httpx.InvalidURL) as exc:
            raise translate(exc, self.route) from None
        if resp.status_code != 200:
            raise error_status(resp, resp.content, self.route)
        try:
            data = resp.json()
        except ValueError:
            raise malformed(self.route, "a model list that is not JSON") from None
        models = data.get("data") if isinstance(data, dict) else None
        if not isinstance(models, list) or not all(
            isinstance(m, dict) and isinstance(m.get("id"), str) for m in models
        ):
            raise malformed(self.route, "a model list without a list of models with ids")
        return {"object": "list", "data": models}

    async def complete(self, body: dict[str, Any]) -> dict[str, Any]:
        """The upstream's chat completion (checked: one choice with a message)."""
        try:
            resp = await self.client.send(self._request(body))
        except (httpx.HTTPError, httpx.InvalidURL) as exc:
            raise translate(exc, self.route) from None
        if resp.status_code != 200:
            raise error_status(resp, resp.content, self.route)
        try:
            data = resp.json()
        except ValueError:
            raise malformed(self.route, "a body that is not JSON") from None
        check_completion(data, self.route)
        return data

    async def stream(self, body: dict[str, Any]) -> AsyncGenerator[list[dict[str, Any]], None]:
        """The upstream's chunks, parsed, a network read's worth at a time. The response is opened before the first chunk is
        asked for, so an error status or a dead upstream fails before anything is sent."""
        try:
            resp = await self.client.send(self._request(body), stream=True)
        except (httpx.HTTPError, httpx.InvalidURL) as exc:
            raise translate(exc, self.route) from None
        if resp.status_code != 200:
            content = await resp.aread()
            await resp.aclose()
            raise error_status(resp, content, self.route)
        return self._chunks(resp)

    async def _chunks(self, resp: httpx.Response) -> AsyncGenerator[list[dict[str, Any]], None]:
        """The chunks of each network read, together (relayed as one write, not one each)."""
        finished = False  # a chunk carried a finish_reason: [DONE] may then be left out
        pending = ""
        try:
            async for text in resp.aiter_text():
                *lines, pending = (pending + text).split("\n")
                batch, done = self._parse(lines)
                finished = finished or any(_finishes(c) for c in batch)
                if batch:
                    yield batch
                if done:
                    return
            batch, done = self._parse([pending])
            finished = finished or any(_finishes(c) for c in batch)
            if batch:
                yield batch
            if not (done or finished):
                raise malformed(self.route, "a stream that ended before the answer did")
        except httpx.HTTPError as exc:
            raise translate(exc, self.route) from None
        finally:
            await resp.aclose()

    def _parse(self, lines: list[str]) -> tuple[list[dict[str, Any]], bool]:
        """The chunks in ``lines`` of server-sent events, and whether ``[DONE]`` came."""
        out: list[dict[str, Any]] = []
        for line in lines:
            if not line.startswith("data:"):
                continue  # comments, event names, blank separators
            data = line[5:].strip()
            if data == "[DONE]":
                return out, True
            try:
                chunk = json.loads(data)
            except ValueError:
                raise malformed(self.route, "a stream event that is not JSON") from None
            if not isinstance(chunk, dict):
                raise malformed(self.route, "a stream event that is not an object")
            if "error" in chunk:
                raise UpstreamError(
                    502,
                    "upstream_error",
                    f"the upstream {self.route.upstream_name} failed mid-stream: "
                    + _scrub(_upstream_message(data.encode()), self.route),
                )
            if not isinstance(chunk.get("choices", []), list):
                raise malformed(self.route, "a chunk whose choices are not a list")
            out.append(chunk)
        return out, False


def _finishes(chunk: dict[str, Any]) -> bool:
    return any(isinstance(c, dict) and c.get("finish_reason") for c in chunk.get("choices", []))


def check_completion(data: Any, route: TenantRoute) -> None:
    """Refuse (502) a body that is not a chat completion with one message."""
    choices = data.get("choices") if isinstance(data, dict) else None
    if not isinstance(choices, list) or not choices or not isinstance(choices[0], dict):
        raise malformed(route, "a completion without choices")
    message = choices[0].get("message")
    if not isinstance(message, dict):
        raise malformed(route, "a choice without a message")
    if not isinstance(message.get("content"), str | None):
        raise malformed(route, "a message whose content is not text")
