"""HTTP clients of the kgaudit REST API (``kgaudit serve``), sync and async, over httpx.

>>> from kgaudit import Client
>>> with Client("http://localhost:8000", key) as kg:                       # doctest: +SKIP
...     rec = kg.audit("Do not exceed 4,000 mg of acetaminophen a day.", domain="medical",
...                    metadata={"model": "gpt-x"})
...     rec.fer, rec.id
(0.0, '6f0c...')

Every route of docs/api.md that a tenant key may use has a method; the key goes in
``Authorization: Bearer <key>``. Errors are :mod:`kgaudit.errors` exceptions carrying the
server's JSON error body. The API has no batch route: :meth:`Client.audit_many` submits the
texts concurrently (a few requests at a time), each recorded as its own audit, and
``external_id`` makes a retry of the whole batch safe.
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Iterable, Iterator, Mapping
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from datetime import date
from typing import Any
from urllib.parse import quote

import httpx

from auditor.version import AUDITOR_VERSION
from kgaudit.errors import ApiError, ConnectionFailed, error_class


@dataclass
class AuditRecord:
    """A stored audit as the server returns it: ``record`` is the whole JSON (request, text,
    chain position, hashes), ``result`` its ``AuditResult.to_dict()``; ``replayed`` is True
    when an ``external_id`` returned an earlier audit unchanged."""

    record: dict[str, Any]
    replayed: bool = False
    result: dict[str, Any] = field(init=False)

    def __post_init__(self) -> None:
        self.result = self.record.get("result") or {}

    @property
    def id(self) -> str:
        return str(self.record["id"])

    @property
    def fer(self) -> float | None:
        return self.result.get("fer")

    @property
    def counts(self) -> dict[str, int]:
        return dict(self.result.get("counts") or {})

    @property
    def claims(self) -> list[dict[str, Any]]:
        return list(self.result.get("claims") or [])

    def to_dict(self) -> dict[str, Any]:
        """The result (``AuditResult.to_dict()`` shape), with the audit's ``id``."""
        return {**self.result, "id": self.record.get("id")}

    def to_frame(self) -> Any:
        """One row per claim (needs the ``pandas`` extra); see :mod:`auditor.claim_table`."""
        from auditor.claim_table import claim_rows, to_frame

        return to_frame(claim_rows(self))


@dataclass(frozen=True)
class _Call:
    method: str
    path: str
    params: dict[str, Any] | None = None
    json: dict[str, Any] | None = None
    headers: dict[str, str] | None = None


def _clean(params: Mapping[str, Any]) -> dict[str, Any]:
    out = {}
    for k, v in params.items():
        if v is None:
            continue
        out[k] = v.isoformat() if isinstance(v, date) else ("true" if v is True else v)
    return out


def _audit_call(
    text: str,
    *,
    domain: str,
    as_of: str | date | None = None,
    citations: list[str] | None = None,
    metadata: Mapping[str, Any] | None = None,
    external_id: str | None = None,
) -> _Call:
    body = _clean(
        {
            "text": text,
            "domain": domain,
            "as_of": as_of,
            "citations": citations,
            "metadata": dict(metadata) if metadata is not None else None,
            "external_id": external_id,
        }
    )
    return _Call("POST", "/v1/audits", json=body)


def _batch_item(item: str | Mapping[str, Any], defaults: dict[str, Any]) -> dict[str, Any]:
    if isinstance(item, str):
        return {**defaults, "text": item}
    if not isinstance(item, Mapping) or "text" not in item:
        raise TypeError("each batch item is a text or a mapping with a 'text' key")
    return {**defaults, **item}


def _raise_for(response: httpx.Response) -> None:
    if response.status_code < 400:
        return
    try:
        body: Any = response.json()
    except ValueError:
        body = response.text
    err = body.get("error") if isinstance(body, dict) else None
    if not isinstance(err, dict):
        err = {"code": f"http_{response.status_code}", "message": str(body)[:200] or "no body"}
    raise error_class(response.status_code)(
        response.status_code,
        str(err.get("code")),
        str(err.get("message")),
        body=body,
        request_id=err.get("request_id") or response.headers.get("x-request-id"),
        details=err.get("details"),
        headers={k.lower(): v for k, v in response.headers.items()},
    )


def _decode(response: httpx.Response) -> Any:
    _raise_for(response)
    return response.json()


def _headers(key: str) -> dict[str, str]:
    if not key or not isinstance(key, str):
        raise ValueError("an API key is needed (kgaudit keys create --tenant T --role auditor)")
    return {"Authorization": f"Bearer {key}", "User-Agent": f"kgaudit-python/{AUDITOR_VERSION}"}


def _record(response: httpx.Response) -> AuditRecord:
    return AuditRecord(_decode(response), response.headers.get("idempotent-replayed") == "true")


def _id(audit_id: str) -> str:
    return quote(str(audit_id), safe="")


class _Routes:
    """The calls of every route (shared by the sync and the async client)."""

    @staticmethod
    def get_audit(audit_id: str) -> _Call:
        return _Call("GET", f"/v1/audits/{_id(audit_id)}")

    @staticmethod
    def list_audits(**filters: Any) -> _Call:
        return _Call("GET", "/v1/audits", params=_clean(filters))

    @staticmethod
    def claims(audit_id: str, **filters: Any) -> _Call:
        return _Call("GET", f"/v1/audits/{_id(audit_id)}/claims", params=_clean(filters))

    @staticmethod
    def proof(audit_id: str) -> _Call:
        return _Call("GET", f"/v1/audits/{_id(audit_id)}/proof")

    @staticmethod
    def verify_trail(full: bool) -> _Call:
        return _Call("GET", "/v1/trail/verify", params=_clean({"full": full or None}))


class Client:
    """A client of one kgaudit server, authenticated by one API key (thread-safe).

    ``timeout`` is in seconds; ``transport`` is passed to httpx (e.g. ``httpx.MockTransport``
    in tests). Use it as a context manager, or call :meth:`close`.
    """

    def __init__(
        self,
        url: str,
        key: str,
        *,
        timeout: float = 30.0,
        transport: httpx.BaseTransport | None = None,
    ) -> None:
        self._http = httpx.Client(
            base_url=url.rstrip("/"), headers=_headers(key), timeout=timeout, transport=transport
        )

    def _send(self, call: _Call) -> httpx.Response:
        try:
            return self._http.request(
                call.method, call.path, params=call.params, json=call.json, headers=call.headers
            )
        except httpx.TimeoutException as exc:
            raise ConnectionFailed(f"{self._http.base_url} did not answer in time") from exc
        except httpx.TransportError as exc:
            raise ConnectionFailed(f"cannot reach {self._http.base_url}: {exc}") from exc

    def audit(
        self,
        text: str,
        *,
        domain: str,
        as_of: str | date | None = None,
        citations: list[str] | None = None,
        metadata: Mapping[str, Any] | None = None,
        external_id: str | None = None,
    ) -> AuditRecord:
        """Audit ``text`` on the server and record it in the trail (``POST /v1/audits``)."""
        call = _audit_call(
            text,
            domain=domain,
            as_of=as_of,
            citations=citations,
            metadata=metadata,
            external_id=external_id,
        )
        return _record(self._send(call))

    def audit_many(
        self,
        items: Iterable[str | Mapping[str, Any]],
        *,
        concurrency: int = 4,
        return_exceptions: bool = False,
        **defaults: Any,
    ) -> list[AuditRecord | ApiError | ConnectionFailed]:
        """Submit several audits, ``concurrency`` at a time; results in input order.

        Each item is a text or a mapping of :meth:`audit`'s arguments (``text``, ``domain``,
        ``as_of``, ``citations``, ``metadata``, ``external_id``); ``defaults`` fill what an
        item leaves out. With ``return_exceptions`` a failed item's exception takes its place
        in the list; otherwise the first failure is raised once every request has finished.
        """
        if concurrency < 1:
            raise ValueError("concurrency must be at least 1")
        jobs = [_batch_item(i, defaults) for i in items]

        def one(job: dict[str, Any]) -> AuditRecord | ApiError | ConnectionFailed:
            try:
                return self.audit(**job)
            except (ApiError, ConnectionFailed) as exc:
                return exc

        with ThreadPoolExecutor(max_workers=min(concurrency, max(1, len(jobs)))) as pool:
            out = list(pool.map(one, jobs))
        if not return_exceptions:
            for r in out:
                if isinstance(r, Exception):
                    raise r
        return out

    def get_audit(self, audit_id: str) -> AuditRecord:
        """One stored audit (``GET /v1/audits/{id}``)."""
        return _record(self._send(_Routes.get_audit(audit_id)))

    def list_audits(self, **filters: Any) -> dict[str, Any]:
        """One page of audit summaries, newest first: ``{"items", "next_cursor"}``.

        Filters as in docs/api.md: ``domain``, ``start``, ``end``, ``fer_min``, ``fer_max``,
        ``verdict``, ``hallucination_type``, ``rule_id``, ``cursor``, ``limit``."""
        return _decode(self._send(_Routes.list_audits(**filters)))

    def iter_audits(self, **filters: Any) -> Iterator[dict[str, Any]]:
        """Every audit summary matching ``filters``, following the cursors."""
        while True:
            page = self.list_audits(**filters)
            yield from page["items"]
            if not page.get("next_cursor"):
                return
            filters = {**filters, "cursor": page["next_cursor"]}

    def claims(self, audit_id: str, **filters: Any) -> list[dict[str, Any]]:
        """The claims of one audit with their evidence (filters ``verdict``,
        ``hallucination_type``, ``rule_id``)."""
        return _decode(self._send(_Routes.claims(audit_id, **filters)))["items"]

    def proof(self, audit_id: str) -> dict[str, Any]:
        """The audit's inclusion proof under the newest signed tree head (docs/trail.md)."""
        return _decode(self._send(_Routes.proof(audit_id)))

    def verify_trail(self, *, full: bool = False) -> dict[str, Any]:
        """The server's check of the hash chain (``GET /v1/trail/verify``)."""
        return _decode(self._send(_Routes.verify_trail(full)))

    def close(self) -> None:
        self._http.close()

    def __enter__(self) -> Client:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


class AsyncClient:
    """The asyncio twin of :class:`Client` (same methods, awaitable)."""

    def __init__(
        self,
        url: str,
        key: str,
        *,
        timeout: float = 30.0,
        transport: httpx.AsyncBaseTransport | None = None,
    ) -> None:
        self._http = httpx.AsyncClient(
            base_url=url.rstrip("/"), headers=_headers(key), timeout=timeout, transport=transport
        )

    async def _send(self, call: _Call) -> httpx.Response:
        try:
            return await self._http.request(
                call.method, call.path, params=call.params, json=call.json, headers=call.headers
            )
        except httpx.TimeoutException as exc:
            raise ConnectionFailed(f"{self._http.base_url} did not answer in time") from exc
        except httpx.TransportError as exc:
            raise ConnectionFailed(f"cannot reach {self._http.base_url}: {exc}") from exc

    async def audit(
        self,
        text: str,
        *,
        domain: str,
        as_of: str | date | None = None,
        citations: list[str] | None = None,
        metadata: Mapping[str, Any] | None = None,
        external_id: str | None = None,
    ) -> AuditRecord:
        """See :meth:`Client.audit`."""
        call = _audit_call(
            text,
            domain=domain,
            as_of=as_of,
            citations=citations,
            metadata=metadata,
            external_id=external_id,
        )
        return _record(await self._send(call))

    async def audit_many(
        self,
        items: Iterable[str | Mapping[str, Any]],
        *,
        concurrency: int = 4,
        return_exceptions: bool = False,
        **defaults: Any,
    ) -> list[AuditRecord | ApiError | ConnectionFailed]:
        """See :meth:`Client.audit_many`."""
        if concurrency < 1:
            raise ValueError("concurrency must be at least 1")
        jobs = [_batch_item(i, defaults) for i in items]
        gate = asyncio.Semaphore(concurrency)

        async def one(job: dict[str, Any]) -> AuditRecord | ApiError | ConnectionFailed:
            async with gate:
                try:
                    return await self.audit(**job)
                except (ApiError, ConnectionFailed) as exc:
                    return exc

        out = list(await asyncio.gather(*(one(j) for j in jobs)))
        if not return_exceptions:
            for r in out:
                if isinstance(r, Exception):
                    raise r
        return out

    async def get_audit(self, audit_id: str) -> AuditRecord:
        return _record(await self._send(_Routes.get_audit(audit_id)))

    async def list_audits(self, **filters: Any) -> dict[str, Any]:
        return _decode(await self._send(_Routes.list_audits(**filters)))

    async def iter_audits(self, **filters: Any) -> AsyncIterator[dict[str, Any]]:
        while True:
            page = await self.list_audits(**filters)
            for item in page["items"]:
                yield item
            if not page.get("next_cursor"):
                return
            filters = {**filters, "cursor": page["next_cursor"]}

    async def claims(self, audit_id: str, **filters: Any) -> list[dict[str, Any]]:
        return _decode(await self._send(_Routes.claims(audit_id, **filters)))["items"]

    async def proof(self, audit_id: str) -> dict[str, Any]:
        return _decode(await self._send(_Routes.proof(audit_id)))

    async def verify_trail(self, *, full: bool = False) -> dict[str, Any]:
        return _decode(await self._send(_Routes.verify_trail(full)))

    async def aclose(self) -> None:
        await self._http.aclose()

    async def __aenter__(self) -> AsyncClient:
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.aclose()


__all__ = ["AsyncClient", "AuditRecord", "Client"]
