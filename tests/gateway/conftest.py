"""The gateway over real HTTP: the fake upstream (services.gateway.fake) and the kgaudit app,
each served by uvicorn in a thread, the real auditor, a temporary SQLite trail, and the
official ``openai`` client pointed at the gateway."""

from __future__ import annotations

import socket
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest

openai = pytest.importorskip("openai")

UPSTREAM_KEY = "sk-upstream-7f3a9c1e5b2d4f60"  # must never leave the server
TIMEOUT_S = 1.0
DELAY_S = 6.0


@dataclass
class Gateway:
    url: str
    trail: Any
    upstream: Any  # the fake upstream's app (its state.seen holds every request)
    tokens: dict[str, str]
    db_path: Path
    seen_bodies: list[str] = field(default_factory=list)  # every response text, for greps

    def client(self, tenant: str = "acme") -> Any:
        return openai.OpenAI(base_url=self.url, api_key=self.tokens[tenant], max_retries=0)


def closed_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def make_gateway(tmp: Path, upstream_url: str, audit_fn: Any, **settings: Any) -> Any:
    from auditor.settings import Settings
    from services.api import create_app
    from trail import Trail

    url = f"sqlite:///{tmp / 'trail.db'}"
    trail = Trail(url)
    trail.migrate()
    conf = Settings(
        home=tmp,
        database_url=url,
        rate_limit_per_minute=100_000,
        checkpoint_every_s=0,
        gateway_upstream_url=upstream_url,
        gateway_upstream_key=UPSTREAM_KEY,
        gateway_timeout_s=TIMEOUT_S,
        **settings,
    )
    return create_app(conf, trail=trail, audit_fn=audit_fn), trail


@pytest.fixture(scope="module")
def gw(tmp_path_factory: pytest.TempPathFactory, auditor_obj) -> Iterator[Gateway]:
    from services.api.keys import KeyStore
    from services.gateway.fake import fake_upstream, serve_in_thread

    tmp = tmp_path_factory.mktemp("gateway")
    upstream = fake_upstream(key=UPSTREAM_KEY, delay_s=DELAY_S)
    with serve_in_thread(upstream) as upstream_url:
        tenants = {
            "strict": {"policy": "block"},
            "careful": {"policy": "review"},
            "meds": {"domain": "medical"},
            "down": {"upstream_url": f"http://127.0.0.1:{closed_port()}/v1"},
        }
        app, trail = make_gateway(tmp, upstream_url, auditor_obj.audit, gateway_tenants=tenants)
        keys = KeyStore(trail)
        tokens = {t: keys.create(tenant=t, role="auditor")[1] for t in ("acme", *tenants)}
        with serve_in_thread(app) as url:
            yield Gateway(url, trail, upstream, tokens, tmp / "trail.db")
    trail.close()
