"""Schemathesis fuzzes every operation of the OpenAPI document against the app with the real
auditor, on SQLite and PostgreSQL: no 5xx, responses match the documented schemas, status
codes and content types.
"""

from __future__ import annotations

import base64
import tempfile
import time
from pathlib import Path
from typing import Any

import pytest
import schemathesis
from fastapi.testclient import TestClient
from hypothesis import HealthCheck, given, settings
from hypothesis.errors import Unsatisfiable
from schemathesis import GenerationMode
from schemathesis.checks import not_a_server_error
from schemathesis.specs.openapi.checks import (
    content_type_conformance,
    response_schema_conformance,
    status_code_conformance,
)

from auditor.settings import Settings
from services.api import create_app
from services.api.keys import KeyStore
from trail import Trail
from trail.testing import reset_trail

pytestmark = pytest.mark.slow
TOKENS: dict[str, str] = {}
EXAMPLES = {"positive": 12, "negative": 8}


@pytest.fixture(
    scope="module", params=["sqlite", pytest.param("postgres", marks=pytest.mark.postgres)]
)
def fuzzed_app(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> Any:
    if request.param == "sqlite":
        url = f"sqlite:///{tmp_path_factory.mktemp('fuzz') / 'trail.db'}"
    else:
        url = request.getfixturevalue("pg_url")
        reset_trail(url)
    settings_ = Settings(
        database_url=url,
        rate_limit_per_minute=1_000_000,
        checkpoint_key="Zq4mW8rT2vX6nB0cL5sH9dF3gJ7kP1yA",
        tree_key=base64.b64encode(bytes(range(32))).decode("ascii"),
        tree_key_file=tmp_path_factory.mktemp("fuzz-home") / "no-tree-key.pem",
        max_text_chars=5000,
    )
    trail = Trail.from_settings(settings_, url)  # with the tree key: /v1/trail/public-key answers
    trail.migrate()
    app = create_app(settings_, trail=trail)
    TOKENS["admin"] = KeyStore(trail).create(tenant="fuzz", role="admin")[1]
    with TestClient(app) as client:  # seed one audit so the read paths find data
        client.post(
            "/v1/audits",
            json={"text": "Ibuprofen is an NSAID.", "domain": "medical"},
            headers={"Authorization": f"Bearer {TOKENS['admin']}"},
        )
        # the embedded engine loads in the background: a 503 "warming_up" while it does is
        # documented behaviour, not a server error, so the fuzzer starts once it has loaded
        for _ in range(240):
            r = client.post(
                "/v1/chat/completions",
                json={"messages": [{"role": "user", "content": "Hi"}], "max_tokens": 1},
                headers={"Authorization": f"Bearer {TOKENS['admin']}"},
            )
            if r.status_code != 503 or r.json()["error"]["code"] != "warming_up":
                break
            time.sleep(0.5)
    yield app
    trail.close()


@pytest.fixture(scope="module")
def api_schema(fuzzed_app: Any) -> Any:
    return schemathesis.openapi.from_asgi("/openapi.json", fuzzed_app)


def _operations() -> list[str]:
    with tempfile.TemporaryDirectory() as tmp:
        url = f"sqlite:///{tmp}/spec.db"
        spec = create_app(Settings(database_url=url), trail=Trail(url)).openapi()
    return [
        f"{m.upper()} {p}"
        for p, ops in spec["paths"].items()
        for m in ops
        if (m, p) != ("delete", "/v1/keys/{key_id}")
    ]  # revoking would lock the fuzzer out


CHECKS = [
    not_a_server_error,
    status_code_conformance,
    content_type_conformance,
    response_schema_conformance,
]


@pytest.mark.parametrize(
    "mode", [GenerationMode.POSITIVE, GenerationMode.NEGATIVE], ids=["positive", "negative"]
)
@pytest.mark.parametrize("label", _operations())
def test_api_conforms_to_its_openapi(api_schema: Any, label: str, mode: GenerationMode) -> None:
    operation = api_schema.find_operation_by_label(label)
    auth = {"Authorization": f"Bearer {TOKENS['admin']}"}

    @given(case=operation.as_strategy(generation_mode=mode))
    @settings(
        max_examples=EXAMPLES[mode.value],
        deadline=None,
        database=None,
        suppress_health_check=list(HealthCheck),
    )
    def run(case: Any) -> None:
        case.call_and_validate(headers=auth, checks=CHECKS)

    try:
        run()
    except Unsatisfiable:
        pytest.skip("the operation has no input that can be made invalid")


def test_openapi_is_complete(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 't.db'}"
    spec = create_app(Settings(database_url=url), trail=Trail(url)).openapi()
    assert spec["components"]["securitySchemes"]["HTTPBearer"]["scheme"] == "bearer"
    for path, ops in spec["paths"].items():
        for method, op in ops.items():
            assert op.get("summary"), f"{method} {path} has no summary"
            for status, resp in op["responses"].items():
                if status.startswith(("4", "5")):
                    ref = resp["content"]["application/json"]["schema"]["$ref"]
                    assert ref.endswith("/ErrorResponse"), (method, path, status)
    schemas = spec["components"]["schemas"]
    for name in (
        "AuditRequest",
        "AuditRecord",
        "AuditSummary",
        "AuditResult",
        "Claim",
        "VerifyReport",
        "Checkpoint",
    ):
        assert schemas[name].get("examples"), f"{name} has no example"


@pytest.mark.parametrize("stream", [True, False], ids=["stream", "whole"])
def test_chat_completion_conforms_to_its_openapi(api_schema: Any, stream: bool) -> None:
    """A valid chat request, streamed and not, checked against the documented responses
    (the fuzzer reaches a 200 stream only by chance; each server-sent event must match)."""
    operation = api_schema.find_operation_by_label("POST /v1/chat/completions")
    case = operation.Case(
        body={
            "model": "default",
            "stream": stream,
            "max_tokens": 8,
            "messages": [{"role": "user", "content": "What is the maximum dose of ibuprofen?"}],
        },
        media_type="application/json",
    )
    response = case.call_and_validate(
        headers={"Authorization": f"Bearer {TOKENS['admin']}"}, checks=CHECKS
    )
    assert response.status_code == 200
