"""``/v1/trail``, ``/v1/kg``, health, readiness and metrics in-process."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

from fastapi.testclient import TestClient
from sqlalchemy import update

from auditor.settings import Settings
from services.api import create_app
from trail import Trail
from trail.models import Audit
from trail.testing import fake_audit, fake_result

KEY = "Zq4mW8rT2vX6nB0cL5sH9dF3gJ7kP1yA"
MANUAL = {"checkpoint_every_records": 0, "checkpoint_every_s": 0}  # no automatic checkpoints


def test_verify_reports_ok_then_the_broken_record(make_api: Callable[..., Any]) -> None:
    api = make_api(checkpoint_key=KEY, **MANUAL)
    ids = [
        api.trail.record(fake_result(), text=f"t{i}", tenant="acme" if i else "beta").id
        for i in range(3)
    ]
    r = api.client.get("/v1/trail/verify", headers=api.auth("acme-viewer"))
    assert r.status_code == 200 and r.json()["ok"] and r.json()["checked"] == 3
    with api.trail.session(write=True) as s:
        s.execute(update(Audit).where(Audit.seq.in_([1, 2])).values(fer=0.99))
    body = api.client.get("/v1/trail/verify", headers=api.auth("acme-viewer")).json()
    assert not body["ok"] and body["first_broken"]["seq"] == 1
    assert body["first_broken"]["audit_id"] is None  # beta's audit id is withheld from acme
    assert body["problems"][1]["audit_id"] == ids[1]
    admin = api.client.get("/v1/trail/verify", headers=api.auth("acme-admin")).json()
    assert admin["first_broken"]["audit_id"] is None  # a tenant's admin is no exception
    operator = api.client.get("/v1/trail/verify", headers=api.auth("operator")).json()
    assert operator["first_broken"]["audit_id"] == ids[0]
    for report in (body, admin):  # no other tenant's id anywhere, reasons included
        assert ids[0] not in str(report)


def test_only_the_operator_runs_a_full_verification(make_api: Callable[..., Any]) -> None:
    api = make_api(checkpoint_key=KEY, **MANUAL)
    for i in range(3):
        api.trail.record(fake_result(), text=f"t{i}", tenant="acme")
    api.trail.checkpoint(KEY.encode())
    api.trail.record(fake_result(), text="later", tenant="acme")
    quick = api.client.get("/v1/trail/verify", headers=api.auth("acme-viewer")).json()
    assert quick["ok"] and (quick["from_seq"], quick["checked"], quick["full"]) == (3, 1, False)
    assert (
        api.client.get("/v1/trail/verify?full=true", headers=api.auth("acme-admin")).status_code
        == 403
    )
    full = api.client.get("/v1/trail/verify?full=true", headers=api.auth("operator")).json()
    assert full["ok"] and (full["from_seq"], full["checked"], full["full"]) == (0, 4, True)


def test_checkpoints_endpoint(make_api: Callable[..., Any]) -> None:
    api = make_api(checkpoint_key=KEY, **MANUAL)
    api.trail.record(fake_result(), text="t", tenant="acme")
    refused = api.client.post("/v1/trail/checkpoints", headers=api.auth("acme-admin"))
    assert refused.status_code == 403  # signing the global chain is the operator's
    created = api.client.post("/v1/trail/checkpoints", headers=api.auth("operator"))
    assert created.status_code == 201 and created.json()["seq"] == 1
    listed = api.client.get("/v1/trail/checkpoints", headers=api.auth("acme-viewer")).json()
    assert listed == [created.json()]
    assert api.trail.verify_checkpoint(listed[0], KEY.encode())


def test_kg_endpoints(api: Any) -> None:
    stats = api.client.get("/v1/kg/medical/stats", headers=api.auth("acme-viewer"))
    assert stats.status_code == 200 and stats.json()["facts"] == 2
    found = api.client.get("/v1/kg/medical/entities?q=paracet", headers=api.auth("acme-viewer"))
    assert [e["id"] for e in found.json()["items"]] == ["drug:acetaminophen"]
    assert (
        api.client.get("/v1/kg/astrology/stats", headers=api.auth("acme-viewer")).status_code == 422
    )
    assert (
        api.client.get("/v1/kg/medical/entities", headers=api.auth("acme-viewer")).status_code
        == 422
    )


def test_health_ready_metrics(api: Any) -> None:
    assert api.client.get("/healthz").json() == {"status": "ok"}
    ready = api.client.get("/readyz")
    assert ready.status_code == 200 and ready.json()["checks"] == {"database": "ok", "schema": "ok"}
    api.client.post(
        "/v1/audits", json={"text": "t", "domain": "medical"}, headers=api.auth("acme-auditor")
    )
    metrics = api.client.get("/metrics")
    assert metrics.status_code == 200 and metrics.headers["content-type"].startswith("text/plain")
    text = metrics.text
    assert 'kgaudit_http_requests_total{method="POST",route="/v1/audits",status="201"} 1.0' in text
    assert 'kgaudit_audits_recorded_total{domain="medical"} 1.0' in text


def test_readyz_is_503_before_migration(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'unmigrated.db'}"
    app = create_app(
        Settings(home=tmp_path, database_url=url), trail=Trail(url), audit_fn=fake_audit
    )
    with TestClient(app) as client:
        r = client.get("/readyz")
        assert r.status_code == 503 and r.json()["error"]["code"] == "not_ready"
        assert "schema" in r.json()["error"]["message"]
