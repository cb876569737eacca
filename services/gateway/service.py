"""The gateway: forward a chat request upstream, audit the final answer, record, apply the
tenant's policy, and answer in OpenAI's format with the ``kgaudit`` audit attached.

The audit runs in a worker thread (CPU-bound) under ``audit_timeout_s``; what is recorded is
the upstream's answer (also when the policy replaced it), with the request's metadata
(OpenAI's ``metadata`` and ``user``), the upstream's model and address (never its key) and
the policy's outcome under ``metadata.gateway``.
"""

from __future__ import annotations

import json
import time
from collections.abc import AsyncGenerator, AsyncIterator, Callable
from contextlib import nullcontext
from dataclasses import dataclass
from http.cookiejar import CookieJar, DefaultCookiePolicy
from typing import Any

import anyio
import httpx

from auditor.deadline import DeadlineExceeded
from auditor.deadline import deadline as audit_deadline
from services.chat.schemas import ChatRequest
from services.chat.service import (
    ChatInputError,
    as_of_text,
    audit_summary,
    check_before_audit,
    checked_request,
    clean,
    new_completion_id,
    now,
)
from services.gateway.config import TenantRoute
from services.gateway.policy import BLOCKED, Decision, decide, largest_outcome
from services.gateway.relay import Relay, completion_events
from services.gateway.upstream import GatewayError, Upstream

# fields only kgaudit reads: never forwarded
KGAUDIT_FIELDS = ("kg_constraint", "domain", "radius", "as_of")
NO_CONSTRAINT = {"enabled": False}


def json_mode(req: ChatRequest) -> bool:
    return req.response_format is not None and req.response_format.type == "json_object"


def answer_text(content: str, *, json_object: bool) -> str:
    """The text to audit: in JSON mode the object's string values, one per line."""
    if not json_object:
        return content
    try:
        data = json.loads(content)
    except ValueError:
        return content
    out: list[str] = []

    def walk(v: Any) -> None:
        if isinstance(v, str):
            out.append(v)
        elif isinstance(v, dict):
            for x in v.values():
                walk(x)
        elif isinstance(v, list):
            for x in v:
                walk(x)

    walk(data)
    return "\n".join(out)


def request_metadata(raw: dict[str, Any]) -> dict[str, Any]:
    """OpenAI's ``metadata`` (string pairs, at most 16) and ``user`` of the request."""
    out: dict[str, Any] = {}
    meta = raw.get("metadata")
    if isinstance(meta, dict):
        pairs = [(k, v) for k, v in meta.items() if isinstance(k, str) and isinstance(v, str)]
        out["metadata"] = {clean(k[:64]): clean(v[:512]) for k, v in pairs[:16]}
    if isinstance(raw.get("user"), str):
        out["user"] = clean(raw["user"][:256])
    return out


@dataclass
class Who:
    tenant: str
    requester: str


class Gateway:
    """Shared by every request of an app; one keep-alive ``httpx.AsyncClient`` per loop."""

    def __init__(
        self,
        audit_fn: Callable[..., Any],
        trail: Any,
        *,
        audit_timeout_s: float,
        audit_slots: Any = None,
    ) -> None:
        self.audit_fn, self.trail = audit_fn, trail
        self.audit_timeout_s = audit_timeout_s
        self.audit_slots = audit_slots
        self._client: httpx.AsyncClient | None = None
        self._loop: object = None

    def client(self) -> httpx.AsyncClient:
        # a pool belongs to the event loop that opened it (one per app outside tests)
        loop = anyio.lowlevel.current_token().native_token
        if self._client is None or self._loop is not loop:
            self._client = httpx.AsyncClient(
                limits=httpx.Limits(max_keepalive_connections=64),
                # one client serves every tenant: a cookie an upstream sets for one request
                # must not ride along on the next (another tenant's); the jar keeps none
                cookies=CookieJar(DefaultCookiePolicy(allowed_domains=[])),
            )
            self._loop = loop
        return self._client

    async def aclose(self) -> None:
        if self._client is not None:
            await self._client.aclose()
            self._client = None

    def upstream(self, route: TenantRoute, deadline: float) -> Upstream:
        left = max(0.05, deadline - time.monotonic())
        return Upstream(self.client(), route, min(route.timeout_s, left))

    @staticmethod
    def forward_body(raw: dict[str, Any]) -> dict[str, Any]:
        return {k: v for k, v in raw.items() if k not in KGAUDIT_FIELDS}

    # -- audit and record (in a worker thread) -------------------------------------------

    def audit_and_record(
        self,
        route: TenantRoute,
        req: ChatRequest,
        raw: dict[str, Any],
        content: str,
        *,
        who: Who,
        completion_id: str,
        upstream_meta: dict[str, Any],
        deadline: float,
    ) -> tuple[dict[str, Any], Decision]:
        """Check the answer and its metadata, audit, apply the policy, record; the ``kgaudit``
        object and decision. What the trail would refuse is refused before the audit (422)."""
        domain = req.domain if "domain" in req.model_fields_set else route.domain
        text = clean(answer_text(content, json_object=json_mode(req))).strip()
        users = [m for m in req.messages if m.role == "user"]

        def metadata(outcome: dict[str, Any]) -> dict[str, Any]:
            return {
                "completion_id": completion_id,
                "context": clean(users[-1].text()[:2000]) if users else "",
                **upstream_meta,
                "gateway": outcome,
                **request_metadata(raw),
            }

        try:  # under the trail's limits (the settings', as the API's), the outcome at its largest
            check_before_audit(
                text,
                metadata(largest_outcome(route.policy, route.upstream_name)),
                self.trail.metadata_limits,
            )
        except ChatInputError as exc:
            raise GatewayError(exc.status, exc.code, str(exc)) from None
        try:
            with self.audit_slots or nullcontext():  # CPU-bound: a few at a time
                left = min(self.audit_timeout_s, deadline - time.monotonic())
                with audit_deadline(max(0.0, left)):
                    result = self.audit_fn(text, domain=domain, as_of=req.as_of)
        except DeadlineExceeded:
            raise GatewayError(
                504, "timeout", "the audit took longer than the time limit; nothing was recorded"
            ) from None
        decision = decide(route.policy, result, json_mode=json_mode(req))
        if time.monotonic() > deadline:  # the client already got a 504: record nothing
            raise GatewayError(504, "timeout", "the answer took longer than the time limit")
        request = {"domain": domain, "as_of": as_of_text(req), "citations": None}
        checked = checked_request(text, request, metadata(decision.outcome(route.upstream_name)))
        rec = self.trail.record(
            result,
            text=text,
            tenant=who.tenant,
            requester=who.requester,
            source="gateway",
            checked=checked,
        )
        payload = audit_summary(result, NO_CONSTRAINT, str(rec.id))
        return {**payload, **decision.summary(), "upstream": route.upstream_name}, decision

    async def models(self, route: TenantRoute, *, deadline: float) -> dict[str, Any]:
        """The upstream's model list, as it sent it (``GET /v1/models`` in gateway mode)."""
        return await self.upstream(route, deadline).models()

    # -- plain ------------------------------------------------------------------------

    async def complete(
        self,
        route: TenantRoute,
        req: ChatRequest,
        raw: dict[str, Any],
        *,
        who: Who,
        deadline: float,
    ) -> dict[str, Any]:
        """The upstream's completion, audited, with the policy applied."""
        data = await self.upstream(route, deadline).complete(self.forward_body(raw))
        cid = new_completion_id()
        message = data["choices"][0]["message"]
        content = message.get("content") or ""
        meta = {
            "model": str(data.get("model", req.model))[:200],
            "upstream_id": str(data.get("id", ""))[:200],
            "finish_reason": data["choices"][0].get("finish_reason"),
        }
        payload, decision = await anyio.to_thread.run_sync(
            lambda: self.audit_and_record(
                route,
                req,
                raw,
                content,
                who=who,
                completion_id=cid,
                upstream_meta=meta,
                deadline=deadline,
            ),
            abandon_on_cancel=True,
        )
        if decision.status == BLOCKED:
            data["choices"] = [
                {
                    "index": 0,
                    "message": {"role": "assistant", "content": decision.refusal},
                    "finish_reason": "stop",
                    "logprobs": None,
                }
            ]
        return {**data, "id": cid, "kgaudit": payload}

    # -- streamed -----------------------------------------------------------------------

    async def stream(
        self,
        route: TenantRoute,
        req: ChatRequest,
        raw: dict[str, Any],
        *,
        who: Who,
        deadline: float,
    ) -> AsyncIterator[bytes]:
        """Opens the upstream's stream now (so its failures are a 502 / 504), then returns
        the server-sent events to send: relayed live, or under ``block`` buffered until the
        audit has passed."""
        chunks = await self.upstream(route, deadline).stream(self.forward_body(raw))
        relay = Relay(new_completion_id(), now(), req.model)
        return self._events(route, req, raw, chunks, relay, who=who, deadline=deadline)

    async def _events(
        self,
        route: TenantRoute,
        req: ChatRequest,
        raw: dict[str, Any],
        chunks: AsyncGenerator[list[dict[str, Any]], None],
        relay: Relay,
        *,
        who: Who,
        deadline: float,
    ) -> AsyncIterator[bytes]:
        buffered: list[bytes] = []
        hold = route.policy == "block"  # nothing may reach the client before the audit
        try:
            async for batch in chunks:
                events = b"".join(e for e in map(relay.take, batch) if e is not None)
                if not events:
                    continue
                if hold:
                    buffered.append(events)
                else:
                    yield events
            meta = {
                "model": relay.model[:200],
                "upstream_id": relay.upstream_id[:200],
                "finish_reason": relay.finish_reason,
            }
            payload, decision = await anyio.to_thread.run_sync(
                lambda: self.audit_and_record(
                    route,
                    req,
                    raw,
                    relay.content,
                    who=who,
                    completion_id=relay.cid,
                    upstream_meta=meta,
                    deadline=deadline,
                ),
                abandon_on_cancel=True,
            )
        except GatewayError as exc:  # the response has started: an error event, no record
            kind = "invalid_request_error" if exc.status < 500 else "upstream_error"
            yield relay.error_event(exc.code, str(exc), kind)
            return
        finally:  # a client that went away closes the upstream's response too
            await chunks.aclose()
        if decision.status == BLOCKED:
            for event in completion_events(relay, decision.refusal or "", payload):
                yield event
            return
        for event in buffered:
            yield event
        for event in relay.closing(payload):
            yield event
