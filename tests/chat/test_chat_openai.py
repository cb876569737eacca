"""``POST /v1/chat/completions`` through the official ``openai`` client (in-process ASGI)."""

from __future__ import annotations

import json

import openai
import pytest

IBU = "What is the maximum daily dose of ibuprofen for adults?"


def _ask(chat, question: str = IBU, **kw):
    kw.setdefault("max_tokens", 40)
    return chat.client().chat.completions.create(
        model="default", messages=[{"role": "user", "content": question}], **kw
    )


def test_completion_is_constrained_audited_and_recorded(chat) -> None:
    resp = _ask(chat)
    choice = resp.choices[0]
    assert resp.object == "chat.completion" and resp.id.startswith("chatcmpl-")
    assert choice.message.role == "assistant" and choice.message.content
    assert choice.finish_reason in ("stop", "length") and resp.usage.completion_tokens > 0
    extra = resp.model_extra["kgaudit"]
    assert extra["constraint"]["enabled"] and "drug:ibuprofen" in extra["constraint"]["seeds"]
    assert set(extra["counts"]) >= {"supported", "contradicted", "unverifiable"}
    assert "citation_confidence" in extra and "fer" in extra
    stored = chat.trail.get(extra["audit_id"], tenant="acme")
    assert stored["source"] == "chat" and stored["text"] == choice.message.content
    assert stored["metadata"]["context"] == IBU and stored["metadata"]["kg_constraint"] is True
    assert chat.trail.get(extra["audit_id"], tenant="other") is None


def test_constraint_on_by_default_and_off_on_request(chat) -> None:
    resp = _ask(chat)
    on = resp.model_extra["kgaudit"]
    frame = on["constraint"]["answer_slot"]["frame"]  # the trained answer's opening
    assert frame == "The maximum daily dose of ibuprofen"
    assert resp.choices[0].message.content.startswith(frame)
    off = _ask(chat, extra_body={"kg_constraint": False}).model_extra["kgaudit"]
    assert off["constraint"]["enabled"] is False
    assert on["constraint"]["config"] == "slot-frame"  # the framed answer slot is the default
    # what the default model says unconstrained: another drug's dose instead of ibuprofen's
    assert {c["subject"] for c in off["claims"]} - {"drug:ibuprofen", None}
    assert {c["subject"] for c in on["claims"]} <= {"drug:ibuprofen", None}


def test_stream_matches_the_completion_and_ends_with_the_audit(chat) -> None:
    whole = _ask(chat).choices[0].message.content
    chunks = list(_ask(chat, stream=True, stream_options={"include_usage": True}))
    assert chunks[0].choices[0].delta.role == "assistant"
    text = "".join(c.choices[0].delta.content or "" for c in chunks if c.choices)
    assert text == whole
    last = [c for c in chunks if c.choices][-1]
    assert last.choices[0].finish_reason in ("stop", "length")
    assert last.model_extra["kgaudit"]["audit_id"]
    assert chunks[-1].usage is not None and chunks[-1].choices == []


def test_raw_sse_format(chat) -> None:
    body = {
        "model": "default",
        "stream": True,
        "max_tokens": 8,
        "messages": [{"role": "user", "content": IBU}],
    }
    r = chat.http.post("/v1/chat/completions", json=body, headers=chat.auth())
    assert r.status_code == 200 and r.headers["content-type"].startswith("text/event-stream")
    events = [e for e in r.text.split("\n\n") if e]
    assert all(e.startswith("data: ") for e in events) and events[-1] == "data: [DONE]"
    assert json.loads(events[0][6:])["object"] == "chat.completion.chunk"


@pytest.mark.parametrize("max_tokens", [3, 40], ids=["cut-short", "full"])
@pytest.mark.parametrize("stream", [False, True], ids=["json", "sse"])
def test_json_mode_is_always_valid_json(chat, max_tokens: int, stream: bool) -> None:
    kw = {"response_format": {"type": "json_object"}, "max_tokens": max_tokens}
    if stream:
        content = "".join(
            c.choices[0].delta.content or "" for c in _ask(chat, stream=True, **kw) if c.choices
        )
    else:
        content = _ask(chat, **kw).choices[0].message.content
    assert isinstance(json.loads(content)["answer"], str)


def test_stop_strings_are_cut(chat) -> None:
    resp = _ask(chat, stop=["mg"], extra_body={"kg_constraint": False})
    assert "mg" not in resp.choices[0].message.content
    assert resp.choices[0].finish_reason == "stop"


def test_seeded_sampling_is_reproducible(chat) -> None:
    a = _ask(chat, temperature=0.9, top_p=0.95, seed=3).choices[0].message.content
    b = _ask(chat, temperature=0.9, top_p=0.95, seed=3).choices[0].message.content
    assert a == b


ERRORS = [
    ("no-key", None, {}, openai.AuthenticationError, 401),
    ("viewer", "viewer", {}, openai.PermissionDeniedError, 403),
    ("unknown-model", "auditor", {"model": "gpt-9"}, openai.NotFoundError, 404),
    ("n=2", "auditor", {"n": 2}, openai.UnprocessableEntityError, 422),
    (
        "no-user-message",
        "auditor",
        {"messages": [{"role": "system", "content": "hi"}]},
        openai.UnprocessableEntityError,
        422,
    ),
    (
        "json-schema",
        "auditor",
        {"response_format": {"type": "json_schema"}},
        openai.UnprocessableEntityError,
        422,
    ),
]


@pytest.mark.parametrize(
    ("who", "extra", "exc", "status"), [e[1:] for e in ERRORS], ids=[e[0] for e in ERRORS]
)
def test_errors_have_the_api_shape(chat, who, extra, exc, status) -> None:
    kw = {"model": "default", "messages": [{"role": "user", "content": IBU}], **extra}
    client = chat.client(who) if who else chat.client()
    if who is None:
        client = client.with_options(api_key="kga_nope")
    with pytest.raises(exc) as info:
        client.chat.completions.create(**kw)
    assert info.value.status_code == status
    assert set(info.value.body) >= {"code", "message", "request_id"}


def test_models_list(chat) -> None:
    assert "default" in [m.id for m in chat.client().models.list()]
