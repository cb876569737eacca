"""The chat service's pieces: prompt, stop strings, JSON wrapping, loading and 503s."""

from __future__ import annotations

import json
import threading

import pytest

from services.chat.schemas import ChatRequest
from services.chat.service import ChatInputError, ChatService, _cut


@pytest.mark.parametrize(
    ("text", "stops", "expected"),
    [
        ("The dose is 1200 mg. Q: next", [" Q:"], ("The dose is 1200 mg.", True)),
        ("a\nb A: c", ["\n", " A:"], ("a", True)),
        ("no stop here", ["zz"], ("no stop here", False)),
    ],
    ids=["turn", "earliest", "none"],
)
def test_cut_at_the_earliest_stop(text: str, stops: list[str], expected) -> None:
    assert _cut(text, stops) == expected


def _req(**kw) -> ChatRequest:
    return ChatRequest(messages=kw.pop("messages", [{"role": "user", "content": "Hi?"}]), **kw)


@pytest.mark.parametrize(
    ("messages", "question"),
    [
        (
            [
                {"role": "system", "content": "Be brief."},
                {"role": "user", "content": " Dose  of x?"},
            ],
            "Dose of x?",
        ),
        (
            [
                {"role": "user", "content": "first"},
                {"role": "assistant", "content": "a"},
                {"role": "user", "content": [{"type": "text", "text": "second"}]},
            ],
            "second",
        ),
        ([{"role": "user", "content": "bad \ud800 surrogate"}], "bad ? surrogate"),
    ],
    ids=["system-ignored", "last-user-turn", "lone-surrogate"],
)
def test_question_is_the_last_user_message(messages, question: str) -> None:
    assert ChatService(lambda *a, **k: None).start(_req(messages=messages)).question == question


@pytest.mark.parametrize(
    ("req", "code"),
    [
        (_req(model="gpt-9"), "model_not_found"),
        (_req(messages=[{"role": "user", "content": "  "}]), "no_question"),
    ],
    ids=["model", "empty"],
)
def test_start_refuses(req: ChatRequest, code: str) -> None:
    with pytest.raises(ChatInputError) as info:
        ChatService(lambda *a, **k: None).start(req)
    assert info.value.code == code


def test_json_pieces_concatenate_to_valid_json(monkeypatch) -> None:
    svc = ChatService(lambda *a, **k: None)
    run = svc.start(_req(response_format={"type": "json_object"}))
    monkeypatch.setattr(svc, "_generate", lambda r: iter(['He said "1', '200 mg"\n', "\\ ok"]))
    assert json.loads("".join(svc.deltas(run))) == {"answer": 'He said "1200 mg"\n\\ ok'}


def test_engine_that_cannot_load_gives_503(tmp_path, auditor_obj) -> None:
    from fastapi.testclient import TestClient

    from auditor.settings import Settings
    from services.api import create_app
    from services.api.keys import KeyStore
    from trail import Trail

    url = f"sqlite:///{tmp_path / 't.db'}"
    trail = Trail(url)
    trail.migrate()
    app = create_app(Settings(home=tmp_path, database_url=url), trail=trail)
    app.state.chat_service = ChatService(auditor_obj.audit, model_name=str(tmp_path / "none"))
    token = KeyStore(trail).create(tenant="t", role="auditor")[1]
    body = {"model": "default", "messages": [{"role": "user", "content": "Hi?"}]}
    with TestClient(app) as http:
        r = http.post(
            "/v1/chat/completions", json=body, headers={"Authorization": f"Bearer {token}"}
        )
    assert r.status_code == 503 and r.json()["error"]["code"] == "engine_unavailable"
    trail.close()


def test_warming_up_gives_503_with_retry_after(monkeypatch, tmp_path) -> None:
    from fastapi.testclient import TestClient

    import services.api.routes.chat as chat_router
    from auditor.settings import Settings
    from services.api import create_app
    from services.api.keys import KeyStore
    from trail import Trail

    url = f"sqlite:///{tmp_path / 't.db'}"
    trail = Trail(url)
    trail.migrate()
    app = create_app(Settings(home=tmp_path, database_url=url), trail=trail)
    svc = ChatService(lambda *a, **k: None)
    release = threading.Event()
    monkeypatch.setattr(svc, "warm_up", lambda: (release.wait(5), svc._ready.set()))
    monkeypatch.setattr(chat_router, "READY_WAIT_S", 0.05)
    app.state.chat_service = svc
    token = KeyStore(trail).create(tenant="t", role="auditor")[1]
    body = {"model": "default", "messages": [{"role": "user", "content": "Hi?"}]}
    with TestClient(app) as http:
        r = http.post(
            "/v1/chat/completions", json=body, headers={"Authorization": f"Bearer {token}"}
        )
    release.set()
    assert r.status_code == 503 and r.headers["Retry-After"] == "5"
    assert r.json()["error"]["code"] == "warming_up"
    trail.close()
