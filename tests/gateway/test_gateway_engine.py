"""Without an upstream the bundled engine answers: the same endpoint, the same audit, and the
tenant's policy applied to the engine's answer (the official ``openai`` client over HTTP)."""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

import pytest

pytest.importorskip("torch")
openai = pytest.importorskip("openai")

IBU = "What is the maximum daily dose of ibuprofen for adults?"


class Auditor:
    """The real auditor; with ``contradict`` on, every claim of its result is turned into a
    contradiction (to exercise ``block`` whatever the small model says)."""

    def __init__(self, audit: Any) -> None:
        self.audit, self.contradict = audit, False

    def __call__(self, text: str, **kw: Any) -> Any:
        d = self.audit(text, **kw).to_dict()
        if self.contradict:
            claims = d["claims"] or [{"text": text, "start": 0, "end": len(text)}]
            d["claims"] = [{**c, "verdict": "contradicted"} for c in claims]
            d["counts"] = {"supported": 0, "contradicted": len(claims), "unverifiable": 0}
            d["fer"] = 1.0
        return d


@pytest.fixture(scope="module")
def engine_gw(tmp_path_factory, auditor_obj, default_model) -> Iterator[Any]:
    from auditor.settings import Settings
    from services.api import create_app
    from services.api.keys import KeyStore
    from services.chat import ChatService
    from services.gateway.fake import serve_in_thread
    from trail import Trail

    tmp = tmp_path_factory.mktemp("engine-gw")
    url = f"sqlite:///{tmp / 'trail.db'}"
    trail = Trail(url)
    trail.migrate()
    audit = Auditor(auditor_obj.audit)
    settings = Settings(
        home=tmp,
        database_url=url,
        rate_limit_per_minute=100_000,
        checkpoint_every_s=0,
        gateway_tenants={"strict": {"policy": "block"}, "careful": {"policy": "review"}},
    )
    app = create_app(settings, trail=trail, audit_fn=audit)
    service = ChatService(audit, model=default_model, auditor=auditor_obj)
    service.warm_up()
    app.state.chat_service = service
    keys = KeyStore(trail)
    tokens = {t: keys.create(tenant=t, role="auditor")[1] for t in ("acme", "strict", "careful")}
    with serve_in_thread(app) as base:

        def client(tenant: str = "acme") -> Any:
            return openai.OpenAI(base_url=base, api_key=tokens[tenant], max_retries=0)

        yield client, trail, audit
    trail.close()


def ask(client, tenant: str = "acme", **kw):
    return client(tenant).chat.completions.create(
        model="default", messages=[{"role": "user", "content": IBU}], max_tokens=32, **kw
    )


def test_plain_answer_comes_from_the_engine(engine_gw) -> None:
    client, trail, _ = engine_gw
    resp = ask(client)
    audit = resp.model_extra["kgaudit"]
    assert resp.choices[0].message.content and audit["upstream"] == "engine"
    assert audit["status"] == "delivered" and audit["constraint"]["enabled"]
    stored = trail.get(audit["audit_id"], tenant="acme")
    assert stored["source"] == "chat" and stored["metadata"]["gateway"]["upstream"] == "engine"


def test_streamed_answer_comes_from_the_engine(engine_gw) -> None:
    client, _, _ = engine_gw
    chunks = list(ask(client, stream=True))
    text = "".join(c.choices[0].delta.content or "" for c in chunks if c.choices)
    assert text and chunks[-1].model_extra["kgaudit"]["upstream"] == "engine"


@pytest.mark.parametrize("stream", [False, True], ids=["plain", "stream"])
def test_json_mode_from_the_engine(engine_gw, stream: bool) -> None:
    client, _, _ = engine_gw
    kw = {"response_format": {"type": "json_object"}}
    if stream:
        chunks = list(ask(client, stream=True, **kw))
        content = "".join(c.choices[0].delta.content or "" for c in chunks if c.choices)
    else:
        content = ask(client, **kw).choices[0].message.content
    assert set(json.loads(content)) == {"answer"}


@pytest.mark.parametrize("stream", [False, True], ids=["plain", "stream"])
def test_block_refuses_a_contradicted_engine_answer(engine_gw, stream: bool) -> None:
    client, trail, audit = engine_gw
    audit.contradict = True
    try:
        if stream:
            opts = {"include_usage": True}
            chunks = list(ask(client, "strict", stream=True, stream_options=opts))
            content = "".join(c.choices[0].delta.content or "" for c in chunks if c.choices)
            last = next(c for c in reversed(chunks) if c.choices)
            extra = last.model_extra["kgaudit"]
            assert last.choices[0].finish_reason == "stop" and chunks[-1].usage is not None
        else:
            resp = ask(client, "strict")
            content, extra = resp.choices[0].message.content, resp.model_extra["kgaudit"]
    finally:
        audit.contradict = False
    assert extra["status"] == "blocked" and content.startswith("The answer was withheld")
    stored = trail.get(extra["audit_id"], tenant="strict")
    assert stored["text"] and stored["text"] not in ("", content)


def test_review_marks_a_contradicted_engine_answer(engine_gw) -> None:
    client, trail, audit = engine_gw
    audit.contradict = True
    try:
        resp = ask(client, "careful")
    finally:
        audit.contradict = False
    extra = resp.model_extra["kgaudit"]
    assert extra["status"] == "review"
    assert trail.get(extra["audit_id"], tenant="careful")["metadata"]["gateway"]["review"]
