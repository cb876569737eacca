"""The chat endpoint in-process: the app on a temporary SQLite trail, the real auditor and the
default model injected as the chat service, and the official ``openai`` client pointed at it."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("torch")
openai = pytest.importorskip("openai")


@dataclass
class Chat:
    app: Any
    http: Any  # starlette TestClient (an httpx.Client on the ASGI app)
    trail: Any
    tokens: dict[str, str]

    def client(self, who: str = "auditor") -> Any:
        return openai.OpenAI(
            base_url="http://testserver/v1",
            api_key=self.tokens[who],
            http_client=self.http,
            max_retries=0,
        )

    def auth(self, who: str = "auditor") -> dict[str, str]:
        return {"Authorization": f"Bearer {self.tokens[who]}"}


@pytest.fixture(scope="session")
def chat_model(default_model):
    """The shipped default model (the root conftest's ``default_model``, one thread)."""
    return default_model


@pytest.fixture(scope="module")
def chat(tmp_path_factory: pytest.TempPathFactory, auditor_obj, chat_model) -> Iterator[Chat]:
    from fastapi.testclient import TestClient

    from auditor.settings import Settings
    from services.api import create_app
    from services.api.keys import KeyStore
    from services.chat import ChatService
    from trail import Trail

    path: Path = tmp_path_factory.mktemp("chat") / "trail.db"
    url = f"sqlite:///{path}"
    trail = Trail(url)
    trail.migrate()
    settings = Settings(home=path.parent, database_url=url, rate_limit_per_minute=100_000)
    app = create_app(settings, trail=trail, audit_fn=auditor_obj.audit)
    service = ChatService(auditor_obj.audit, model=chat_model, auditor=auditor_obj)
    service.warm_up()
    app.state.chat_service = service
    keys = KeyStore(trail)
    tokens = {role: keys.create(tenant="acme", role=role)[1] for role in ("auditor", "viewer")}
    with TestClient(app, raise_server_exceptions=False) as http:
        yield Chat(app, http, trail, tokens)
    trail.close()
