"""Issue 29, validate once: the chat endpoint (the embedded engine answers) refuses what the
trail would refuse *before* the audit runs, under the metadata limits the settings set for the
API; nothing is audited or recorded."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("torch")
openai = pytest.importorskip("openai")

SHORT = "What is the maximum daily dose of ibuprofen for adults?"
# the metadata of a chat answer is ~200 bytes of JSON besides the question (``context``)
LIMIT = 400
LONG = "For an adult with no other conditions, " * 6 + SHORT  # ~290 characters


class Counted:
    def __init__(self, audit: Any) -> None:
        self.audit, self.calls = audit, []

    def __call__(self, text: str, **kw: Any) -> Any:
        self.calls.append(text)
        return self.audit(text, **kw)


@pytest.fixture
def counted(chat, monkeypatch) -> Counted:
    """The chat fixture's warmed-up service, its auditor counting its calls."""
    svc = chat.app.state.chat_service
    audit = Counted(svc.audit_fn)
    monkeypatch.setattr(svc, "audit_fn", audit)
    return audit


@pytest.fixture
def limited(chat, counted, tmp_path: Path) -> Iterator[tuple[Any, Any, Counted]]:
    """(client, trail, auditor) of an app whose settings lower ``max_metadata_bytes``, with the
    chat fixture's engine."""
    from fastapi.testclient import TestClient

    from auditor.settings import Settings
    from services.api import create_app
    from services.api.keys import KeyStore
    from trail import Trail

    url = f"sqlite:///{tmp_path / 'trail.db'}"
    trail = Trail(url)
    trail.migrate()
    settings = Settings(
        home=tmp_path, database_url=url, rate_limit_per_minute=100_000, max_metadata_bytes=LIMIT
    )
    app = create_app(settings, trail=trail, audit_fn=counted)
    app.state.chat_service = chat.app.state.chat_service
    token = KeyStore(trail).create(tenant="acme", role="auditor")[1]
    with TestClient(app, raise_server_exceptions=False) as http:
        client = openai.OpenAI(
            base_url="http://testserver/v1", api_key=token, http_client=http, max_retries=0
        )
        yield client, trail, counted
    trail.close()


def ask(client: Any, question: str, **kw: Any) -> Any:
    return client.chat.completions.create(
        model="default", messages=[{"role": "user", "content": question}], max_tokens=8, **kw
    )


def test_metadata_over_the_settings_limit_is_refused_before_the_audit(limited) -> None:
    client, trail, audit = limited
    with pytest.raises(openai.UnprocessableEntityError) as info:
        ask(client, LONG)
    body = info.value.body
    assert body["code"] == "invalid_metadata" and f"the limit is {LIMIT}" in body["message"]
    assert audit.calls == [] and trail.count() == 0  # the auditor never ran
    recorded = ask(client, SHORT).model_extra["kgaudit"]["audit_id"]  # within the limit
    assert len(audit.calls) == 1 and trail.get(recorded, tenant="acme")["metadata"]["context"]


def test_a_question_the_trail_would_refuse_is_refused_before_the_audit(chat, counted) -> None:
    before = chat.trail.count()
    with pytest.raises(openai.UnprocessableEntityError) as info:
        ask(chat.client(), "What is the maximum daily dose of ibuprofen\x00 for adults?")
    assert info.value.body["code"] == "invalid_metadata" and "NUL" in info.value.body["message"]
    assert counted.calls == [] and chat.trail.count() == before


def test_a_streamed_answer_the_trail_would_refuse_ends_in_an_error(chat, counted) -> None:
    before = chat.trail.count()
    stream = chat.client().chat.completions.create(
        model="default",
        messages=[{"role": "user", "content": "What is the maximum dose of ibuprofen\x00?"}],
        max_tokens=8,
        stream=True,
    )
    with pytest.raises(openai.APIError, match="NUL"):
        list(stream)
    assert counted.calls == [] and chat.trail.count() == before
