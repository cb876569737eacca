"""API tests: the app in-process (TestClient) on SQLite and PostgreSQL, with a fake audit
for unit tests; the real ``audit()`` in the HTTP and schemathesis tests.

``db_url`` (both backends) and ``pg_url`` come from the root ``tests/conftest.py``."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from auditor.settings import Settings
from services.api import create_app
from services.api.keys import KeyStore
from trail import Trail
from trail.testing import fake_audit


class FakeKB:
    """A two-entity knowledge base standing in for ``load_graphs``."""

    def stats(self) -> dict[str, Any]:
        return {
            "medical": {
                "kg_version": "abc",
                "facts": 2,
                "entities": 2,
                "sources": 1,
                "facts_without_source": 0,
                "facts_per_family": {"maxDose": 2},
                "entities_per_type": {"Drug": 2},
                "subjects_per_family": {"maxDose": 2},
            }
        }

    def search(self, q: str, *, domain: str | None = None, limit: int = 20) -> list[Any]:
        from knowledge_graphs.model import Entity

        ents = [
            Entity("drug:acetaminophen", "medical", "Drug", "Acetaminophen", ("paracetamol",)),
            Entity("drug:ibuprofen", "medical", "Drug", "Ibuprofen"),
        ]
        return [e for e in ents if q.lower() in " ".join(e.names()).lower()][:limit]


@dataclass
class Api:
    client: TestClient
    trail: Trail
    settings: Settings
    tokens: dict[str, str] = field(default_factory=dict)

    def auth(self, who: str) -> dict[str, str]:
        return {"Authorization": f"Bearer {self.tokens[who]}"}


PRINCIPALS = {
    "acme-auditor": ("acme", "auditor"),
    "acme-viewer": ("acme", "viewer"),
    "acme-admin": ("acme", "admin"),
    "beta-auditor": ("beta", "auditor"),
}
OPERATOR_KEY = "op-Xw93kLq7Zr2Tn5Vb8Mc1Hd6Jf4Gs0Pa"  # the operator's configured key


@pytest.fixture
def make_api(db_url: str, tmp_path: Path) -> Iterator[Callable[..., Api]]:
    made: list[Api] = []

    def make(audit_fn: Callable[..., Any] = fake_audit, **overrides: Any) -> Api:
        settings = Settings(
            **{
                "home": tmp_path,
                "database_url": db_url,
                "rate_limit_per_minute": 100_000,
                "operator_key": OPERATOR_KEY,
                **overrides,
            }
        )
        trail = Trail(db_url)
        app = create_app(settings, trail=trail, audit_fn=audit_fn, kb_loader=lambda d: FakeKB())
        api = Api(TestClient(app, raise_server_exceptions=False), trail, settings)
        keys = KeyStore(trail)
        for who, (tenant, role) in PRINCIPALS.items():
            api.tokens[who] = keys.create(tenant=tenant, role=role, name=who)[1]
        api.tokens["operator"] = OPERATOR_KEY
        made.append(api)
        return api

    yield make
    for api in made:
        api.client.close()
        api.trail.close()


@pytest.fixture
def api(make_api: Callable[..., Api]) -> Api:
    return make_api()
