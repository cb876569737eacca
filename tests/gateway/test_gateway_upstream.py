"""The gateway in front of the fake upstream, driven by the official ``openai`` client."""

from __future__ import annotations

import json
import logging
import sqlite3
import time

import httpx
import pytest

from tests.gateway.conftest import TIMEOUT_S, UPSTREAM_KEY

openai = pytest.importorskip("openai")

# the auditor's verdicts on these were checked by hand against the graph's sources
CONTRADICTED = "The maximum daily dose of acetaminophen for adults is 9000 mg per day."
OTC_CONTRADICTED = "The maximum daily dose of ibuprofen for adults (OTC) is 12000 mg per day."
SUPPORTED = (
    "The Federal Reserve raised the federal funds target range to 5.25-5.50% on July 26, 2023."
)


def ask(gw, text: str, tenant: str = "acme", **kw):
    kw.setdefault("model", "echo")
    return gw.client(tenant).chat.completions.create(
        messages=[{"role": "user", "content": text}], **kw
    )


def streamed(gw, text: str, tenant: str = "acme", **kw):
    chunks = list(ask(gw, text, tenant, stream=True, **kw))
    content = "".join(c.choices[0].delta.content or "" for c in chunks if c.choices)
    return content, chunks


def audit_of(resp) -> dict:
    return resp.model_extra["kgaudit"]


@pytest.mark.parametrize("text", [SUPPORTED, CONTRADICTED], ids=["supported", "contradicted"])
def test_plain_answer_is_forwarded_audited_and_recorded(gw, text: str) -> None:
    resp = ask(gw, text, metadata={"ticket": "T-1"}, user="alice")
    assert resp.choices[0].message.content == text
    audit = audit_of(resp)
    assert audit["status"] == "delivered" and audit["policy"] == "annotate"
    assert audit["upstream"].startswith("http://127.0.0.1:")
    want = "contradicted" if text == CONTRADICTED else "supported"
    assert [c["verdict"] for c in audit["claims"]][:1] == [want]
    stored = gw.trail.get(audit["audit_id"], tenant="acme")
    assert stored["text"] == text
    meta = stored["metadata"]
    assert meta["metadata"] == {"ticket": "T-1"} and meta["user"] == "alice"
    assert meta["model"] == "echo" and meta["gateway"]["review"] is False
    assert meta["completion_id"] == resp.id
    sent = gw.upstream.state.seen[-1]
    assert sent["authorization"] == f"Bearer {UPSTREAM_KEY}"
    assert not {"kg_constraint", "domain", "radius", "as_of"} & set(sent["body"])


def test_streamed_answer_ends_with_the_audit(gw) -> None:
    content, chunks = streamed(gw, SUPPORTED, stream_options={"include_usage": True})
    assert content == SUPPORTED
    last = next(c for c in reversed(chunks) if c.choices)
    assert last.choices[0].finish_reason == "stop"
    assert last.model_extra["kgaudit"]["counts"]["supported"] >= 1
    assert chunks[-1].usage is not None and chunks[-1].usage.total_tokens > 0
    assert len({c.id for c in chunks}) == 1
    stored = gw.trail.get(last.model_extra["kgaudit"]["audit_id"], tenant="acme")
    assert stored["text"] == SUPPORTED


@pytest.mark.parametrize("stream", [False, True], ids=["plain", "stream"])
def test_json_mode_answer_is_json_and_its_strings_audited(gw, stream: bool) -> None:
    kw = {"response_format": {"type": "json_object"}}
    if stream:
        content, chunks = streamed(gw, CONTRADICTED, **kw)
        audit = next(c for c in reversed(chunks) if c.choices).model_extra["kgaudit"]
    else:
        resp = ask(gw, CONTRADICTED, **kw)
        content, audit = resp.choices[0].message.content, audit_of(resp)
    assert json.loads(content) == {"answer": CONTRADICTED}
    assert audit["counts"]["contradicted"] == 1


def test_the_domain_comes_from_the_request_else_the_tenant(gw) -> None:
    assert audit_of(ask(gw, OTC_CONTRADICTED, tenant="meds"))["domain"] == "medical"
    got = ask(gw, SUPPORTED, tenant="meds", extra_body={"domain": "finance"})
    assert audit_of(got)["domain"] == "finance"


@pytest.mark.parametrize("text", [CONTRADICTED, OTC_CONTRADICTED], ids=["acetaminophen", "otc"])
@pytest.mark.parametrize("stream", [False, True], ids=["plain", "stream"])
def test_block_replaces_a_contradicted_answer_by_a_refusal(gw, text: str, stream: bool) -> None:
    if stream:
        content, chunks = streamed(gw, text, tenant="strict")
        audit = next(c for c in reversed(chunks) if c.choices).model_extra["kgaudit"]
    else:
        resp = ask(gw, text, tenant="strict")
        content, audit = resp.choices[0].message.content, audit_of(resp)
    assert audit["status"] == "blocked" and audit["policy"] == "block"
    assert content.startswith("The answer was withheld") and text in content
    stored = gw.trail.get(audit["audit_id"], tenant="strict")
    assert stored["text"] == text  # the trail keeps what the upstream said
    assert stored["metadata"]["gateway"]["status"] == "blocked"


def test_block_in_json_mode_refuses_in_json(gw) -> None:
    resp = ask(gw, CONTRADICTED, tenant="strict", response_format={"type": "json_object"})
    body = json.loads(resp.choices[0].message.content)
    assert body["contradicted_claims"] == [CONTRADICTED]


def test_block_delivers_an_answer_without_contradiction(gw) -> None:
    content, _ = streamed(gw, SUPPORTED, tenant="strict")
    assert content == SUPPORTED


def test_review_delivers_and_marks_the_audit(gw) -> None:
    resp = ask(gw, CONTRADICTED, tenant="careful")
    assert resp.choices[0].message.content == CONTRADICTED
    audit = audit_of(resp)
    assert audit["status"] == "review"
    stored = gw.trail.get(audit["audit_id"], tenant="careful")
    assert stored["metadata"]["gateway"]["review"] is True


def _status_error(gw, tenant: str = "acme", **kw) -> openai.APIStatusError:
    with pytest.raises(openai.APIStatusError) as info:
        ask(gw, SUPPORTED, tenant, **kw)
    return info.value


def test_upstream_down_is_502(gw) -> None:
    err = _status_error(gw, tenant="down")
    assert err.status_code == 502
    assert err.body["code"] == "upstream_unreachable"


@pytest.mark.parametrize("stream", [False, True], ids=["plain", "stream"])
def test_slow_upstream_is_504_within_the_timeout(gw, stream: bool) -> None:
    t0 = time.monotonic()
    err = _status_error(gw, model="slow", stream=stream)
    assert err.status_code == 504 and err.body["code"] == "upstream_timeout"
    assert time.monotonic() - t0 < TIMEOUT_S + 1.5


@pytest.mark.parametrize(
    ("model", "stream", "code", "says"),
    [
        ("fail", False, "upstream_error", "the model crashed"),
        ("fail", True, "upstream_error", "the model crashed"),
        ("malformed", False, "upstream_malformed", "not JSON"),
        ("no-choices", False, "upstream_malformed", "without choices"),
    ],
    ids=["fail", "fail-stream", "malformed", "no-choices"],
)
def test_upstream_errors_are_502_with_its_message(gw, model, stream, code, says) -> None:
    err = _status_error(gw, model=model, stream=stream)
    assert err.status_code == 502 and err.body["code"] == code
    assert says in err.body["message"]
    assert UPSTREAM_KEY not in json.dumps(err.body)


def test_a_broken_stream_ends_in_an_error_and_records_nothing(gw) -> None:
    def count() -> int:
        return len(gw.trail.list_audits(tenant="acme", limit=500)[0])

    before = count()
    with pytest.raises(openai.APIError, match="not JSON"):
        streamed(gw, SUPPORTED, model="broken-stream")
    assert count() == before


def test_a_stalled_stream_ends_in_a_timeout_error_within_the_timeout(gw) -> None:
    t0 = time.monotonic()
    with pytest.raises(openai.APIError, match="did not answer within"):
        streamed(gw, SUPPORTED, model="stalled-stream")
    assert time.monotonic() - t0 < TIMEOUT_S + 1.5


def test_the_upstream_key_never_leaves_the_server(gw, caplog) -> None:
    caplog.set_level(logging.DEBUG)
    texts = []
    with httpx.Client(base_url=gw.url, timeout=10) as http:
        auth = {"Authorization": f"Bearer {gw.tokens['acme']}"}
        for model in ("echo", "fail", "malformed", "slow"):
            for stream in (False, True):
                body = {"model": model, "stream": stream}
                body["messages"] = [{"role": "user", "content": CONTRADICTED}]
                texts.append(http.post("/chat/completions", json=body, headers=auth).text)
        texts.append(http.get("/openapi.json").text)
    assert "HTTP Request: POST" in caplog.text  # the gateway's own upstream calls were seen
    texts.append(caplog.text)
    texts.extend(r.getMessage() for r in caplog.records)
    db = sqlite3.connect(gw.db_path)
    texts.extend(db.iterdump())  # every row of every table
    db.close()
    assert len(texts) > 10
    assert not [t for t in texts if UPSTREAM_KEY in t]


def test_models_are_the_upstreams_in_gateway_mode(gw) -> None:
    from services.gateway.fake import MODELS

    assert [m.id for m in gw.client().models.list()] == list(MODELS)
    sent = gw.upstream.state.seen[-1]
    assert sent["path"] == "/v1/models" and sent["authorization"] == f"Bearer {UPSTREAM_KEY}"
    with pytest.raises(openai.APIStatusError) as info:
        gw.client("down").models.list()
    assert info.value.status_code == 502 and info.value.body["code"] == "upstream_unreachable"


def test_a_stream_is_framed_for_proxies_and_openai(gw) -> None:
    body = {"model": "echo", "stream": True, "messages": [{"role": "user", "content": "Hi."}]}
    auth = {"Authorization": f"Bearer {gw.tokens['acme']}"}
    with httpx.Client(base_url=gw.url, timeout=10) as http:
        r = http.post("/chat/completions", json=body, headers=auth)
    assert r.headers["content-type"].startswith("text/event-stream")
    assert r.headers["x-accel-buffering"] == "no"  # nginx must not buffer the stream
    events = r.text.split("\n\n")
    assert events[-2:] == ["data: [DONE]", ""] and "\r" not in r.text
    assert all(e.startswith("data: {") for e in events[:-2])


def test_an_upstreams_cookie_does_not_reach_the_next_request(gw) -> None:
    ask(gw, SUPPORTED, tenant="acme")
    ask(gw, SUPPORTED, tenant="meds")  # same upstream, another tenant
    assert gw.upstream.state.seen[-2]["cookie"] == gw.upstream.state.seen[-1]["cookie"] == ""
