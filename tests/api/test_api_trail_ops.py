"""``/v1/trail``, ``/v1/kg``, health, readiness and metrics in-process."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

from fastapi.testclient import TestClient
from sqlalchemy import update

from auditor.api import create_app
from auditor.settings import Settings
from auditor.trail import Trail
from auditor.trail.models import Audit
from auditor.trail.testing import fake_audit, fake_result

KEY = "k" * 32


def test_verify_reports_ok_then_the_broken_record(make_api: Callable[..., Any]) -> None:
    api = make_api(checkpoint_key=KEY)
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
    assert admin["first_broken"]["audit_id"] == ids[0]


def test_checkpoints_endpoint(make_api: Callable[..., Any]) -> None:
    api = make_api(checkpoint_key=KEY)
    api.trail.record(fake_result(), text="t", tenant="acme")
    created = api.client.post("/v1/trail/checkpoints", headers=api.auth("acme-admin"))
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
