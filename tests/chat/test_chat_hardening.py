"""A client that stops reading a stream blocks nobody; a request answered 504 is neither
generated further nor recorded (issue 14, finding 4)."""

from __future__ import annotations

import threading
import time
from pathlib import Path
from typing import Any

import pytest

import auditor
from services.chat import ChatService
from services.chat.schemas import ChatRequest

from ..helpers import wait_abandoned_work

pytest.importorskip("torch")

QUESTION = {"role": "user", "content": "What is the maximum daily dose of ibuprofen for adults?"}


def _req(**kw: Any) -> ChatRequest:
    return ChatRequest(messages=[QUESTION], max_tokens=24, kg_constraint=False, **kw)


@pytest.mark.slow
def test_an_abandoned_stream_does_not_block_other_requests(chat_model, auditor_obj) -> None:
    def slow_audit(text: str, **kw: Any) -> Any:  # finishes after the 504, whatever the CPU
        time.sleep(0.3)
        return auditor_obj.audit(text, **kw)

    svc = ChatService(slow_audit, model=chat_model, auditor=auditor_obj)
    abandoned = svc.deltas(svc.start(_req()))
    assert next(abandoned)  # the client read one piece, then went away (generator kept)
    done: list[str] = []
    other = threading.Thread(
        target=lambda: done.append("".join(svc.deltas(svc.start(_req())))), daemon=True
    )
    other.start()
    other.join(60)
    assert not other.is_alive() and done, "the abandoned stream still holds the engine"
    abandoned.close()


@pytest.mark.slow
def test_a_request_answered_504_is_not_recorded(tmp_path: Path, chat_model, auditor_obj) -> None:
    from fastapi.testclient import TestClient

    from auditor.settings import Settings
    from services.api import create_app
    from services.api.keys import KeyStore
    from trail import Trail

    url = f"sqlite:///{tmp_path / 't.db'}"
    trail = Trail(url)
    trail.migrate()
    app = create_app(Settings(home=tmp_path, database_url=url, request_timeout_s=0.05), trail=trail)

    def slow_audit(text: str, **kw: Any) -> Any:  # finishes after the 504, whatever the CPU
        time.sleep(0.3)
        return auditor_obj.audit(text, **kw)

    svc = ChatService(slow_audit, model=chat_model, auditor=auditor_obj)
    svc.warm_up()
    app.state.chat_service = svc
    token = KeyStore(trail).create(tenant="t", role="auditor")[1]
    body = {"model": "default", "messages": [QUESTION], "max_tokens": 48, "kg_constraint": False}
    before = set(threading.enumerate())
    with TestClient(app, raise_server_exceptions=False) as http:
        r = http.post(
            "/v1/chat/completions", json=body, headers={"Authorization": f"Bearer {token}"}
        )
    assert r.status_code == 504 and r.json()["error"]["code"] == "timeout"
    # the abandoned generation stops, or finishes, audits and declines to record
    wait_abandoned_work(before, Path(auditor.__file__).parent, timeout=60)
    assert trail.count() == 0
    trail.close()
