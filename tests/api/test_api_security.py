"""Keys, roles, tenant isolation, limits (size, rate, time) and secret-free logs."""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

import auditor
from trail.testing import fake_audit

from ..helpers import wait_abandoned_work

AUDITOR_DIR = Path(auditor.__file__).parent  # where the abandoned request's code runs

BODY = {
    "text": "Adults should not take more than 4,000 mg of acetaminophen a day.",
    "domain": "medical",
}


@pytest.mark.parametrize(
    "header",
    [None, "Bearer nonsense", "Bearer kga_000000000000_x", "Basic dXNlcjpwYXNz"],
    ids=["none", "garbage", "unknown", "basic"],
)
def test_missing_or_bad_key_is_401(api: Any, header: str | None) -> None:
    headers = {"Authorization": header} if header else {}
    r = api.client.get("/v1/audits", headers=headers)
    assert r.status_code == 401 and r.headers["WWW-Authenticate"] == "Bearer"
    assert r.json()["error"]["code"] == "unauthorized"


def test_keys_are_stored_only_as_hashes(api: Any) -> None:
    from sqlalchemy import select

    from trail.models import ApiKey

    with api.trail.session() as s:
        stored = [(k.prefix, k.key_hash) for k in s.execute(select(ApiKey)).scalars()]
    for token in api.tokens.values():
        assert all(token not in (p, h) and token[16:] not in h for p, h in stored)


@pytest.mark.parametrize(
    ("who", "method", "path", "status"),
    [
        ("acme-viewer", "POST", "/v1/audits", 403),
        ("acme-viewer", "GET", "/v1/audits", 200),
        ("acme-auditor", "POST", "/v1/audits", 201),
        ("acme-auditor", "GET", "/v1/keys", 403),
        ("acme-auditor", "POST", "/v1/trail/checkpoints", 403),
        ("acme-admin", "GET", "/v1/keys", 200),
        ("acme-admin", "POST", "/v1/audits", 201),
    ],
)
def test_roles(api: Any, who: str, method: str, path: str, status: int) -> None:
    r = api.client.request(
        method, path, headers=api.auth(who), json=BODY if method == "POST" else None
    )
    assert r.status_code == status, r.text


def test_other_tenants_audits_are_404(api: Any) -> None:
    mine = api.client.post("/v1/audits", json=BODY, headers=api.auth("acme-auditor")).json()
    for path in (f"/v1/audits/{mine['id']}", f"/v1/audits/{mine['id']}/claims"):
        r = api.client.get(path, headers=api.auth("beta-auditor"))
        assert r.status_code == 404 and r.json()["error"]["code"] == "not_found"
    assert api.client.get("/v1/audits", headers=api.auth("beta-auditor")).json()["items"] == []
    unknown = api.client.get(
        "/v1/audits/00000000-0000-0000-0000-000000000000", headers=api.auth("beta-auditor")
    )
    assert unknown.json()["error"]["message"] == r.json()["error"]["message"]  # no oracle


def test_admin_manages_its_own_tenants_keys(api: Any) -> None:
    admin = api.auth("acme-admin")
    created = api.client.post(
        "/v1/keys", json={"tenant": "acme", "role": "viewer", "name": "dash"}, headers=admin
    )
    assert created.status_code == 201
    key = created.json()["key"]
    listed = api.client.get("/v1/keys", headers=admin).json()
    assert {k["tenant"] for k in listed} == {"acme"} and "dash" in [k["name"] for k in listed]
    assert key not in str(listed) and all("key" not in k for k in listed)
    assert (
        api.client.get("/v1/audits", headers={"Authorization": f"Bearer {key}"}).status_code == 200
    )
    assert api.client.delete(f"/v1/keys/{created.json()['id']}", headers=admin).status_code == 204
    assert (
        api.client.get("/v1/audits", headers={"Authorization": f"Bearer {key}"}).status_code == 401
    )
    assert api.client.delete(f"/v1/keys/{created.json()['id']}", headers=admin).status_code == 404
    assert [t["id"] for t in api.client.get("/v1/tenants", headers=admin).json()] == ["acme"]


def test_a_tenant_admin_is_not_a_super_user(api: Any) -> None:
    admin = api.auth("acme-admin")
    assert api.client.get("/v1/keys?tenant=beta", headers=admin).status_code == 403
    assert (
        api.client.post(
            "/v1/keys", json={"tenant": "beta", "role": "admin"}, headers=admin
        ).status_code
        == 403
    )
    assert api.client.post("/v1/tenants", json={"id": "delta"}, headers=admin).status_code == 403
    beta_keys = api.client.get("/v1/keys?tenant=beta", headers=api.auth("operator")).json()
    assert beta_keys and all(k["tenant"] == "beta" for k in beta_keys)
    assert api.client.delete(f"/v1/keys/{beta_keys[0]['id']}", headers=admin).status_code == 404
    assert api.client.get("/v1/audits", headers=api.auth("beta-auditor")).status_code == 200
    assert "beta" not in str(api.client.get("/v1/keys", headers=admin).json())
    assert "beta" not in str(api.client.get("/v1/tenants", headers=admin).json())


def test_the_operator_manages_every_tenant(api: Any) -> None:
    op = api.auth("operator")
    t = api.client.post("/v1/tenants", json={"id": "delta", "name": "Delta"}, headers=op)
    assert t.status_code == 201 and t.json()["name"] == "Delta"
    assert api.client.post("/v1/tenants", json={"id": "delta"}, headers=op).status_code == 200
    created = api.client.post("/v1/keys", json={"tenant": "delta", "role": "admin"}, headers=op)
    assert created.status_code == 201
    assert {"acme", "beta", "delta"} <= {
        k["tenant"] for k in api.client.get("/v1/keys", headers=op).json()
    }
    assert api.client.get("/v1/audits", headers=op).status_code == 403  # no tenant of its own
    assert (
        api.client.post(
            "/v1/keys", json={"tenant": "acme", "role": "operator"}, headers=op
        ).status_code
        == 422
    )  # never issued as a key


def test_rate_limit_is_per_key_with_retry_after(make_api: Callable[..., Any]) -> None:
    api = make_api(rate_limit_per_minute=3)
    codes = [
        api.client.get("/v1/audits", headers=api.auth("acme-viewer")).status_code for _ in range(4)
    ]
    assert codes == [200, 200, 200, 429]
    r = api.client.get("/v1/audits", headers=api.auth("acme-viewer"))
    assert r.status_code == 429 and int(r.headers["Retry-After"]) >= 1
    assert r.json()["error"]["code"] == "rate_limited"
    assert api.client.get("/v1/audits", headers=api.auth("acme-auditor")).status_code == 200


def test_body_size_limit_is_413(make_api: Callable[..., Any]) -> None:
    api = make_api(max_body_bytes=1024)
    big = {**BODY, "text": "x" * 2000}
    r = api.client.post("/v1/audits", json=big, headers=api.auth("acme-auditor"))
    assert r.status_code == 413 and r.json()["error"]["code"] == "payload_too_large"

    def chunks() -> Any:  # no Content-Length: counted while streaming
        for _ in range(4):
            yield b"x" * 400

    r = api.client.post(
        "/v1/audits",
        content=chunks(),
        headers={**api.auth("acme-auditor"), "Content-Type": "application/json"},
    )
    assert r.status_code == 413
    assert api.trail.count() == 0


def test_slow_requests_time_out_without_recording(make_api: Callable[..., Any]) -> None:
    release = threading.Event()

    def slow_audit(*args: Any, **kwargs: Any) -> Any:  # runs until the test releases it
        release.wait(30)
        return fake_audit(*args, **kwargs)

    api = make_api(audit_fn=slow_audit, request_timeout_s=0.2)
    before = set(threading.enumerate())
    started = time.perf_counter()
    r = api.client.post("/v1/audits", json=BODY, headers=api.auth("acme-auditor"))
    assert r.status_code == 504 and r.json()["error"]["code"] == "timeout"
    assert time.perf_counter() - started < 1.0  # answered while the audit still runs
    release.set()  # the abandoned audit finishes in its thread and must not be recorded
    wait_abandoned_work(before, AUDITOR_DIR)
    assert api.trail.count() == 0


def test_logs_never_hold_text_or_keys(
    make_api: Callable[..., Any], caplog: pytest.LogCaptureFixture
) -> None:
    secret_text = "Patient Jane Roe-7731 takes 9000 mg of acetaminophen daily"

    def leaky_audit(text: str, **kwargs: Any) -> Any:
        if "boom" in kwargs.get("citations", [""])[0]:
            raise RuntimeError(f"failed on {text}")  # an exception message holding the text
        return fake_audit(text, **kwargs)

    api = make_api(audit_fn=leaky_audit)
    caplog.set_level(logging.DEBUG)
    token = api.tokens["acme-auditor"]
    body = {"text": secret_text, "domain": "medical", "citations": ["ok"]}
    assert (
        api.client.post("/v1/audits", json=body, headers=api.auth("acme-auditor")).status_code
        == 201
    )
    r = api.client.post(
        "/v1/audits", json={**body, "citations": ["boom"]}, headers=api.auth("acme-auditor")
    )
    assert r.status_code == 500 and secret_text not in r.text
    api.client.get("/v1/audits", headers={"Authorization": f"Bearer {token}x"})
    logged = caplog.text + "".join(str(rec.args) for rec in caplog.records)
    assert "kgaudit.api.access" in {rec.name for rec in caplog.records}
    assert "RuntimeError" in logged  # the failure is logged...
    assert secret_text not in logged and "Jane" not in logged  # ...without the text
    assert token not in logged and token[4:16] + "_" not in logged
