"""SDK tests: the real auditor in-process, the REST API and a fake OpenAI server, each
served over real HTTP by uvicorn in a thread; OpenTelemetry spans caught in memory (the
SDK's ``InMemorySpanExporter``)."""

from __future__ import annotations

import socket
import threading
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
import uvicorn

MEDICAL_OK = "The OTC ibuprofen label caps it at 1,200 mg per day."
MEDICAL_BAD = "Without a prescription, you can take up to 3,200 mg of ibuprofen a day."
AS_OF = "2026-01-15"


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@dataclass
class Served:
    url: str
    server: uvicorn.Server
    thread: threading.Thread


def serve(app: Any) -> Served:
    """Serve ``app`` on a free local port in a daemon thread until :func:`stop`."""
    port = _free_port()
    server = uvicorn.Server(
        uvicorn.Config(app, host="127.0.0.1", port=port, log_level="warning", lifespan="on")
    )
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    deadline = time.monotonic() + 20
    while not server.started:
        if time.monotonic() > deadline or not thread.is_alive():
            raise RuntimeError("the test server did not start")
        time.sleep(0.02)
    return Served(f"http://127.0.0.1:{port}", server, thread)


def stop(s: Served) -> None:
    s.server.should_exit = True
    s.thread.join(10)


@pytest.fixture(scope="session")
def real_auditor() -> Any:
    from auditor import get_auditor

    return get_auditor()


@dataclass
class Api:
    url: str
    key: str
    viewer_key: str


@pytest.fixture(scope="module")
def api_server(tmp_path_factory: pytest.TempPathFactory, real_auditor: Any) -> Iterator[Api]:
    """The REST API with the real auditor on a fresh SQLite trail."""
    from auditor.settings import Settings
    from services.api import create_app
    from services.api.keys import KeyStore
    from trail import Trail

    home: Path = tmp_path_factory.mktemp("sdk-api")
    db_url = f"sqlite:///{home / 'trail.db'}"
    settings = Settings(home=home, database_url=db_url, rate_limit_per_minute=100_000)
    trail = Trail(db_url)
    trail.migrate()
    keys = KeyStore(trail)
    key = keys.create(tenant="acme", role="auditor", name="sdk")[1]
    viewer = keys.create(tenant="acme", role="viewer", name="sdk-viewer")[1]
    app = create_app(settings, trail=trail, audit_fn=real_auditor.audit)
    served = serve(app)
    yield Api(served.url, key, viewer)
    stop(served)
    trail.close()


@pytest.fixture
def exporter(monkeypatch: pytest.MonkeyPatch) -> Any:
    """Spans of this test, in memory: the SDK's tracer stands in for kgaudit's for the test
    only (no global tracer provider is set, so other tests record nothing)."""
    pytest.importorskip("opentelemetry.sdk")
    from opentelemetry.sdk.trace import TracerProvider
    from opentelemetry.sdk.trace.export import SimpleSpanProcessor
    from opentelemetry.sdk.trace.export.in_memory_span_exporter import InMemorySpanExporter

    from auditor import telemetry

    exporter = InMemorySpanExporter()
    provider = TracerProvider()
    provider.add_span_processor(SimpleSpanProcessor(exporter))
    monkeypatch.setattr(telemetry, "_TRACER", provider.get_tracer("kgaudit"))
    return exporter
