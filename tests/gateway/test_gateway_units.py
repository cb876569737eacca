"""The gateway's pieces without a server: tenant routes, policies, the relay, the CLI option."""

from __future__ import annotations

import json

import httpx
import pytest

from auditor.settings import Settings
from services.gateway import Relay, decide, public_url, tenant_route
from services.gateway.service import answer_text, request_metadata


def settings(**kw) -> Settings:
    return Settings(
        gateway_upstream_url="http://llm:8000/v1/", gateway_upstream_key="sk-main", **kw
    )


def test_tenant_route_falls_back_to_the_defaults() -> None:
    route = tenant_route(settings(), "acme")
    assert (route.policy, route.domain, route.upstream_url) == (
        "annotate",
        "auto",
        "http://llm:8000/v1",
    )
    assert route.upstream_key == "sk-main" and "sk-main" not in repr(route)


def test_a_tenant_upstream_never_gets_the_server_key() -> None:
    own = {"upstream_url": "https://other.example/v1", "policy": "block", "domain": "legal"}
    route = tenant_route(settings(gateway_tenants={"law": own}), "law")
    assert route.upstream_url == "https://other.example/v1" and route.upstream_key is None
    assert (route.policy, route.domain) == ("block", "legal")


def test_without_an_upstream_the_engine_answers() -> None:
    route = tenant_route(Settings(gateway_policy="review"), "acme")
    assert route.upstream_url is None and route.upstream_name == "engine"
    assert route.policy == "review"


@pytest.mark.parametrize(
    ("url", "shown"),
    [
        ("https://u:sk-1@llm.example/v1?key=sk-1#x", "https://llm.example/v1"),
        ("http://127.0.0.1:9000/v1", "http://127.0.0.1:9000/v1"),
    ],
)
def test_public_url_drops_what_could_hold_a_key(url: str, shown: str) -> None:
    assert public_url(url) == shown


def claim(verdict: str, text: str = "X is 5 mg.") -> dict:
    return {"text": text, "verdict": verdict}


@pytest.mark.parametrize(
    ("policy", "audit", "status"),
    [
        ("annotate", {"claims": [claim("contradicted")]}, "delivered"),
        ("block", {"claims": [claim("contradicted")]}, "blocked"),
        ("block", {"claims": [claim("supported"), claim("unverifiable")]}, "delivered"),
        (
            "block",
            {"claims": [], "citations": [{"text": "5 U.S. 1", "outcome": "contradicted"}]},
            "blocked",
        ),
        ("review", {"claims": [claim("contradicted")]}, "review"),
        ("review", {"claims": [], "needs_review": True}, "review"),
        ("review", {"claims": [claim("supported")]}, "delivered"),
    ],
    ids=[
        "annotate",
        "block",
        "block-clean",
        "block-citation",
        "review",
        "review-unchecked",
        "review-clean",
    ],
)
def test_policy_table(policy: str, audit: dict, status: str) -> None:
    assert decide(policy, audit).status == status


@pytest.mark.parametrize("policy", ["annotate", "block", "review"])
def test_no_outcome_is_larger_than_the_one_checked_before_the_audit(policy: str) -> None:
    """Chat and gateway check the metadata before the audit with ``largest_outcome`` and the
    trail stores the real outcome unchecked: it must have the same keys and no more bytes."""
    from services.gateway.policy import BLOCKED, DELIVERED, REVIEW, Decision, largest_outcome
    from trail.canonical import canonical_json

    largest = largest_outcome(policy, "http://llm:8000/v1")
    for status in (DELIVERED, BLOCKED, REVIEW):
        real = Decision(policy, status, "refused").outcome("http://llm:8000/v1")
        assert real.keys() == largest.keys()
        assert len(canonical_json(real, version=1)) <= len(canonical_json(largest, version=1))


def test_the_refusal_names_every_contradicted_claim() -> None:
    audit = {
        "claims": [
            claim("contradicted", "A is 1 mg."),
            claim("supported", "B is 2 mg."),
            claim("contradicted", "C is 3 mg."),
        ]
    }
    text = decide("block", audit).refusal
    assert '"A is 1 mg."' in text and '"C is 3 mg."' in text and "B is 2 mg." not in text
    as_json = json.loads(decide("block", audit, json_mode=True).refusal)
    assert as_json["contradicted_claims"] == ["A is 1 mg.", "C is 3 mg."]


@pytest.mark.parametrize(
    ("content", "json_object", "audited"),
    [
        ("Plain text.", False, "Plain text."),
        ('{"answer": "A.", "more": ["B.", {"c": "C."}], "n": 3}', True, "A.\nB.\nC."),
        ("not json after all", True, "not json after all"),
    ],
)
def test_answer_text(content: str, json_object: bool, audited: str) -> None:
    assert answer_text(content, json_object=json_object) == audited


def test_request_metadata_keeps_string_pairs_and_user() -> None:
    raw = {"metadata": {"ticket": "T-1", "n": 3, **{f"k{i}": "v" for i in range(30)}}, "user": "u1"}
    got = request_metadata(raw)
    assert got["user"] == "u1" and got["metadata"]["ticket"] == "T-1"
    assert "n" not in got["metadata"] and len(got["metadata"]) == 16


def test_relay_holds_back_finish_reason_and_usage() -> None:
    relay = Relay("chatcmpl-1", 0, "m")
    role = {"choices": [{"index": 0, "delta": {"role": "assistant", "content": ""}}], "id": "up"}
    assert relay.take(role) is not None
    part = relay.take(
        {"choices": [{"index": 0, "delta": {"content": "Hi"}, "finish_reason": "stop"}]}
    )
    assert json.loads(part[6:])["choices"][0]["finish_reason"] is None
    assert relay.take({"choices": [], "usage": {"total_tokens": 3}}) is None
    events = list(relay.closing({"audit_id": "a"}))
    last = json.loads(events[0][6:])
    assert last["choices"][0]["finish_reason"] == "stop" and last["kgaudit"] == {"audit_id": "a"}
    assert (
        json.loads(events[1][6:])["usage"] == {"total_tokens": 3}
        and events[2] == b"data: [DONE]\n\n"
    )
    assert relay.content == "Hi" and relay.upstream_id == "up"


@pytest.mark.parametrize(
    "url", ["ftp://llm/v1", "llm:8000", "http://user:sk-1@llm/v1", "http://llm/v1?key=sk-1"]
)
def test_serve_refuses_a_bad_upstream(url: str, capsys) -> None:
    from services.cli.main import main

    assert main(["serve", "--upstream", url]) == 2
    err = capsys.readouterr().err
    assert "--upstream" in err and "sk-1" not in err


def test_serve_upstream_reaches_the_settings(monkeypatch, tmp_path) -> None:
    import uvicorn

    from auditor.settings import get_settings
    from services.cli.main import main

    seen = {}
    monkeypatch.setattr(uvicorn, "run", lambda *a, **kw: seen.update(get_settings().model_dump()))
    monkeypatch.setenv("KGAUDIT_GATEWAY_UPSTREAM_URL", "unset")  # restored after the test
    monkeypatch.setenv("KGAUDIT_DATABASE_URL", f"sqlite:///{tmp_path / 'trail.db'}")
    get_settings.cache_clear()
    try:
        assert main(["serve", "--upstream", "http://llm:8000/v1"]) == 0
        assert seen["gateway_upstream_url"] == "http://llm:8000/v1"
    finally:
        get_settings.cache_clear()


class _Pieces(httpx.AsyncByteStream):
    def __init__(self, pieces: list[bytes]) -> None:
        self.pieces = pieces

    async def __aiter__(self):
        for p in self.pieces:
            yield p


def _stream_of(pieces: list[bytes]) -> list[list[dict]]:
    """What Upstream.stream yields for a response body arriving in these network reads."""
    import anyio

    from services.gateway.config import TenantRoute
    from services.gateway.upstream import Upstream

    def handler(request: httpx.Request) -> httpx.Response:
        return httpx.Response(200, stream=_Pieces(pieces))

    async def main() -> list[list[dict]]:
        route = TenantRoute("annotate", "auto", 1.0, upstream_url="http://up/v1")
        async with httpx.AsyncClient(transport=httpx.MockTransport(handler)) as client:
            return [b async for b in await Upstream(client, route, 1.0).stream({})]

    return anyio.run(main)


def _event(content: str, reason: str | None = None) -> bytes:
    choice = {"index": 0, "delta": {"content": content}, "finish_reason": reason}
    return f"data: {json.dumps({'choices': [choice]})}\r\n\r\n".encode()


def test_stream_events_split_across_reads_are_reassembled() -> None:
    body = _event("The ") + _event("answer.") + _event("", "stop") + b"data: [DONE]\n\n"
    whole = _stream_of([body])
    assert len(whole) == 1 and len(whole[0]) == 3  # one read, one relayed write
    split = _stream_of([body[i : i + 7] for i in range(0, len(body), 7)])
    chunks = [c for batch in split for c in batch]
    assert [c["choices"][0]["delta"]["content"] for c in chunks] == ["The ", "answer.", ""]


@pytest.mark.parametrize(
    ("body", "says"),
    [
        (_event("Half an answer"), "ended before the answer did"),
        (b"data: {oops\n\n", "not JSON"),
        (b'data: {"error": {"message": "overloaded"}}\n\n', "overloaded"),
    ],
    ids=["cut", "not-json", "error-event"],
)
def test_a_broken_stream_is_a_502(body: bytes, says: str) -> None:
    from services.gateway.upstream import UpstreamError

    with pytest.raises(UpstreamError, match=says) as info:
        _stream_of([body])
    assert info.value.status == 502


def test_a_stream_may_end_without_done_after_its_finish_reason() -> None:
    chunks = _stream_of([_event("Done.", "stop")])
    assert chunks[0][0]["choices"][0]["finish_reason"] == "stop"


@pytest.mark.parametrize("url", ["x:1", "ftp://h/v1", "https://u:sk-9@h/v1", "https://h/v1?k=sk-9"])
def test_settings_refuse_a_bad_upstream_without_echoing_it(url: str) -> None:
    from pydantic import ValidationError

    for kw in ({"gateway_upstream_url": url}, {"gateway_tenants": {"t": {"upstream_url": url}}}):
        with pytest.raises(ValidationError) as info:
            Settings(**kw)
        assert "sk-9" not in str(info.value)


def test_fake_upstream_answer_delay_and_bench_cpu_reading() -> None:
    import os
    import sys
    import time

    from starlette.testclient import TestClient

    from measure.bench.gateway import cpu_seconds
    from services.gateway.fake import fake_upstream

    body = {"model": "echo", "messages": [{"role": "user", "content": "Hi."}]}
    for delay, at_least in ((0.0, 0.0), (0.3, 0.3)):
        with TestClient(fake_upstream(answer_delay_s=delay)) as client:
            t0 = time.monotonic()
            r = client.post("/v1/chat/completions", json=body)
            assert r.json()["choices"][0]["message"]["content"] == "Hi."
            assert time.monotonic() - t0 >= at_least
    if sys.platform.startswith("linux"):
        before = cpu_seconds(os.getpid())
        t0 = time.process_time()
        while time.process_time() - t0 < 0.05:
            pass
        assert before is not None and cpu_seconds(os.getpid()) > before
    assert cpu_seconds(2**22 + 12345) is None  # no such process
