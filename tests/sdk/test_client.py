"""``kgaudit.Client`` / ``AsyncClient`` against the real REST API over HTTP."""

from __future__ import annotations

import asyncio

import httpx
import pytest

from kgaudit import (
    AsyncClient,
    AuthenticationError,
    Client,
    ConnectionFailed,
    InvalidRequest,
    NotFound,
    PermissionDenied,
)

from .conftest import AS_OF, MEDICAL_BAD, MEDICAL_OK

pytestmark = pytest.mark.slow


def test_audit_is_recorded_and_read_back(api_server) -> None:
    with Client(api_server.url, api_server.key) as kg:
        rec = kg.audit(MEDICAL_BAD, domain="medical", as_of=AS_OF, metadata={"model": "m-1"})
        assert rec.fer == 1.0 and rec.counts["contradicted"] == 1 and not rec.replayed
        assert rec.record["metadata"] == {"model": "m-1"}
        again = kg.get_audit(rec.id)
        assert again.result == rec.result
        claims = kg.claims(rec.id, verdict="contradicted")
        assert [c["rule_id"] for c in claims] == ["MED-DOSE-MAX"]
        assert any(a["id"] == rec.id for a in kg.iter_audits(domain="medical", limit=1))
        assert kg.verify_trail()["ok"] is True


def test_external_id_makes_a_retry_a_replay(api_server) -> None:
    with Client(api_server.url, api_server.key) as kg:
        first = kg.audit(MEDICAL_OK, domain="medical", as_of=AS_OF, external_id="retry-1")
        second = kg.audit(MEDICAL_OK, domain="medical", as_of=AS_OF, external_id="retry-1")
        assert second.replayed and second.id == first.id


def test_audit_many_keeps_the_input_order(api_server) -> None:
    texts = [MEDICAL_OK, MEDICAL_BAD, {"text": MEDICAL_OK, "metadata": {"n": 3}}]
    with Client(api_server.url, api_server.key) as kg:
        recs = kg.audit_many(texts, domain="medical", as_of=AS_OF, concurrency=2)
    assert [r.fer for r in recs] == [0.0, 1.0, 0.0]
    assert recs[2].record["metadata"] == {"n": 3}
    assert len({r.id for r in recs}) == 3


@pytest.mark.parametrize(
    ("call", "exc", "code"),
    [
        (lambda kg: kg.audit("x", domain="astrology"), InvalidRequest, "validation_error"),
        (
            lambda kg: kg.get_audit("00000000-0000-0000-0000-000000000000"),
            NotFound,
            "not_found",
        ),
    ],
    ids=["bad-domain", "missing-audit"],
)
def test_errors_are_typed_and_carry_the_body(api_server, call, exc, code) -> None:
    with Client(api_server.url, api_server.key) as kg, pytest.raises(exc) as info:
        call(kg)
    err = info.value
    assert err.code == code and err.body["error"]["code"] == code
    assert err.request_id and err.request_id in str(err)


def test_auth_and_role_errors(api_server) -> None:
    with Client(api_server.url, "kga_nope_nope") as kg, pytest.raises(AuthenticationError):
        kg.list_audits()
    with Client(api_server.url, api_server.viewer_key) as kg, pytest.raises(PermissionDenied):
        kg.audit(MEDICAL_OK, domain="medical")


def test_batch_failures_can_be_returned() -> None:
    def handler(request: httpx.Request) -> httpx.Response:
        if b"bad" in request.content:
            body = {"error": {"code": "text_too_long", "message": "split it", "request_id": "r1"}}
            return httpx.Response(422, json=body)
        return httpx.Response(201, json={"id": "a1", "result": {"fer": 0.0, "claims": []}})

    kg = Client("http://x", "k", transport=httpx.MockTransport(handler))
    out = kg.audit_many(["good", "bad"], domain="medical", return_exceptions=True)
    assert out[0].id == "a1" and isinstance(out[1], InvalidRequest)
    assert out[1].code == "text_too_long" and out[1].message == "split it"
    with pytest.raises(InvalidRequest):
        kg.audit_many(["good", "bad"], domain="medical")


def test_an_unreachable_server_is_a_connection_error() -> None:
    with Client("http://127.0.0.1:9", "k", timeout=2) as kg, pytest.raises(ConnectionFailed):
        kg.list_audits()


def test_async_client(api_server) -> None:
    async def run() -> tuple[list, list]:
        async with AsyncClient(api_server.url, api_server.key) as kg:
            recs = await kg.audit_many([MEDICAL_OK, MEDICAL_BAD], domain="medical", as_of=AS_OF)
            listed = [a async for a in kg.iter_audits(limit=2)]
            return recs, listed

    recs, listed = asyncio.run(run())
    assert [r.fer for r in recs] == [0.0, 1.0]
    assert listed
