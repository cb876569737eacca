"""``/v1/audits`` in-process: create, replay, read, list, filter, claims."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from auditor.errors import UsageError
from trail.testing import fake_result

BODY = {
    "text": "Adults should not take more than 4,000 mg of acetaminophen a day.",
    "domain": "medical",
    "metadata": {"model": "m-1"},
}


def test_create_returns_201_with_the_full_result(api: Any) -> None:
    r = api.client.post(
        "/v1/audits", json={**BODY, "as_of": "2025-06-30"}, headers=api.auth("acme-auditor")
    )
    assert r.status_code == 201, r.text
    rec = r.json()
    assert r.headers["Location"] == f"/v1/audits/{rec['id']}"
    assert r.headers["X-Request-ID"]
    assert rec["result"] == fake_result(BODY["text"], as_of="2025-06-30")
    assert rec["text"] == BODY["text"] and rec["metadata"] == {"model": "m-1"}
    assert rec["request"] == {"domain": "medical", "as_of": "2025-06-30", "citations": None}
    assert rec["tenant"] == "acme" and rec["seq"] == 1 and len(rec["hash"]) == 64
    assert rec["requester"].startswith("key:")
    got = api.client.get(f"/v1/audits/{rec['id']}", headers=api.auth("acme-viewer"))
    assert got.status_code == 200 and got.json() == rec


def test_idempotency_key_replays_and_rejects_reuse(api: Any) -> None:
    h = {**api.auth("acme-auditor"), "Idempotency-Key": "req-1"}
    first = api.client.post("/v1/audits", json=BODY, headers=h)
    again = api.client.post("/v1/audits", json=BODY, headers=h)
    assert (first.status_code, again.status_code) == (201, 200)
    assert again.headers["Idempotent-Replayed"] == "true"
    assert again.json() == first.json() and first.json()["external_id"] == "req-1"
    other = api.client.post("/v1/audits", json={**BODY, "text": "different"}, headers=h)
    assert other.status_code == 422 and other.json()["error"]["code"] == "idempotency_key_mismatch"
    both = api.client.post("/v1/audits", json={**BODY, "external_id": "x"}, headers=h)
    assert both.status_code == 422
    by_body = api.client.post(
        "/v1/audits", json={**BODY, "external_id": "req-1"}, headers=api.auth("acme-auditor")
    )
    assert by_body.status_code == 200 and by_body.json()["id"] == first.json()["id"]
    beta = api.client.post(
        "/v1/audits", json=BODY, headers={**api.auth("beta-auditor"), "Idempotency-Key": "req-1"}
    )
    assert beta.status_code == 201  # keys are per tenant
    assert api.trail.count() == 2


def _seed(api: Any) -> list[str]:
    calls = [
        ("medical", ("supported",)),
        ("finance", ("contradicted", "supported")),
        ("legal", ("unverifiable",)),
        ("finance", ("contradicted", "contradicted")),
    ]
    ids = []
    for domain, verdicts in calls:
        res = fake_result(domain=domain, verdicts=verdicts)
        ids.append(api.trail.record(res, text="t", tenant="acme").id)
    return ids


@pytest.mark.parametrize(
    ("query", "expected"),
    [
        ("", [3, 2, 1, 0]),
        ("?domain=finance", [3, 1]),
        ("?verdict=contradicted", [3, 1]),
        ("?verdict=unverifiable", [2]),
        ("?hallucination_type=numeric_mismatch", [3, 1]),
        ("?fer_min=0.6", [3]),
        ("?fer_max=0.5&domain=finance", [1]),
        ("?start=2000-01-01&end=2999-12-31", [3, 2, 1, 0]),
        ("?start=2999-01-01T00:00:00Z", []),
    ],
    ids=lambda v: v if isinstance(v, str) else None,
)
def test_list_filters(api: Any, query: str, expected: list[int]) -> None:
    ids = _seed(api)
    r = api.client.get(f"/v1/audits{query}", headers=api.auth("acme-viewer"))
    assert r.status_code == 200, r.text
    assert [it["id"] for it in r.json()["items"]] == [ids[i] for i in expected]


def test_cursor_pagination(api: Any) -> None:
    ids = _seed(api)
    seen, url = [], "/v1/audits?limit=3"
    while True:
        page = api.client.get(url, headers=api.auth("acme-viewer")).json()
        seen += [it["id"] for it in page["items"]]
        if page["next_cursor"] is None:
            break
        url = f"/v1/audits?limit=3&cursor={page['next_cursor']}"
    assert seen == ids[::-1]
    bad = api.client.get("/v1/audits?cursor=nope", headers=api.auth("acme-viewer"))
    assert bad.status_code == 422 and bad.json()["error"]["code"] == "invalid_request"


def test_claims_of_an_audit(api: Any) -> None:
    rec = api.trail.record(
        fake_result(verdicts=("supported", "contradicted", "unverifiable")), text="t", tenant="acme"
    )
    r = api.client.get(
        f"/v1/audits/{rec.id}/claims?verdict=contradicted", headers=api.auth("acme-viewer")
    )
    assert r.status_code == 200
    assert [(c["idx"], c["verdict"]) for c in r.json()["items"]] == [(1, "contradicted")]
    assert (
        len(
            api.client.get(f"/v1/audits/{rec.id}/claims", headers=api.auth("acme-viewer")).json()[
                "items"
            ]
        )
        == 3
    )


@pytest.mark.parametrize(
    ("body", "code"),
    [
        ({"domain": "medical"}, "validation_error"),
        ({**BODY, "domain": "astrology"}, "validation_error"),
        ({**BODY, "text": ""}, "validation_error"),
        ({**BODY, "as_of": "yesterday"}, "validation_error"),
        ({**BODY, "unexpected": 1}, "validation_error"),
        ({**BODY, "text": "x" * 2001}, "text_too_long"),
        ({**BODY, "text": "nul \u0000 byte"}, "invalid_request"),
    ],
    ids=["no-text", "bad-domain", "empty-text", "bad-date", "extra-field", "too-long", "nul"],
)
def test_invalid_requests_are_422(make_api: Callable[..., Any], body: dict, code: str) -> None:
    api = make_api(max_text_chars=2000)
    r = api.client.post("/v1/audits", json=body, headers=api.auth("acme-auditor"))
    assert r.status_code == 422 and r.json()["error"]["code"] == code
    assert api.trail.count() == 0


@pytest.mark.parametrize(
    ("exc", "status", "code"),
    [
        (UsageError("unknown citation style"), 422, "invalid_request"),
        (ImportError("no pipeline"), 503, "auditor_unavailable"),
        (RuntimeError("boom"), 500, "internal_error"),
    ],
    ids=["usage", "import", "bug"],
)
def test_auditor_errors_are_translated(
    make_api: Callable[..., Any], exc: Exception, status: int, code: str
) -> None:
    def failing(*args: Any, **kwargs: Any) -> Any:
        raise exc

    api = make_api(audit_fn=failing)
    r = api.client.post("/v1/audits", json=BODY, headers=api.auth("acme-auditor"))
    assert r.status_code == status and r.json()["error"]["code"] == code
    assert api.trail.count() == 0


@pytest.mark.parametrize(
    ("method", "path", "body"),
    [
        ("GET", "/v1/audits?domain=med%00ical", None),
        ("GET", "/v1/audits?hallucination_type=%00", None),
        ("GET", "/v1/keys?tenant=a%00", None),
        ("POST", "/v1/keys", {"tenant": "acme", "role": "viewer", "name": "nul\u0000"}),
        ("POST", "/v1/audits", {**BODY, "external_id": "ext\u0000"}),
    ],
    ids=["domain", "type", "keys-tenant", "key-name", "external-id"],
)
def test_nul_characters_are_422_on_every_backend(
    api: Any, method: str, path: str, body: Any
) -> None:
    """PostgreSQL refuses NUL in text: it must surface as a 422, never a 500."""
    r = api.client.request(method, path, json=body, headers=api.auth("acme-admin"))
    assert r.status_code == 422, r.text
