"""Issue 29, validate once: the gateway refuses what the trail would refuse *before* the audit
runs, under the metadata limits the settings set for the API, and records what a raised limit
allows, end to end (the fake upstream, the kgaudit app over HTTP, the official client)."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import ExitStack
from pathlib import Path
from typing import Any

import pytest

from tests.gateway.conftest import UPSTREAM_KEY, make_gateway
from trail.canonical import canonical_json
from trail.testing import fake_result

openai = pytest.importorskip("openai")

ANSWER = "Ibuprofen is an NSAID."
# OpenAI's request metadata at its largest (16 pairs, 64-character keys, 512-character values)
# in characters JSON escapes to six bytes each: with the user and the question it passes the
# default 64 KiB of metadata.
X = "\x01"
WIDE = {f"{i:02d}" + X * 62: X * 512 for i in range(16)}
WIDE_USER = X * 256
WIDE_QUESTION = ANSWER + " " + X * 1950


class Served:
    def __init__(self, client: Any, trail: Any, calls: list[str], upstream: Any) -> None:
        self.client, self.trail, self.calls, self.upstream = client, trail, calls, upstream

    def ask(self, content: str = ANSWER, **kw: Any) -> Any:
        return self.client.chat.completions.create(
            model="echo", messages=[{"role": "user", "content": content}], **kw
        )

    def refused(self, content: str = ANSWER, **kw: Any) -> openai.APIStatusError:
        with pytest.raises(openai.APIStatusError) as info:
            self.ask(content, **kw)
        return info.value


@pytest.fixture
def serve(tmp_path: Path) -> Iterator[Callable[..., Served]]:
    """``serve(**settings)``: the gateway app under those settings in front of the fake
    upstream; its auditor counts its calls."""
    from services.api.keys import KeyStore
    from services.gateway.fake import fake_upstream, serve_in_thread

    with ExitStack() as stack:

        def start(**settings: Any) -> Served:
            calls: list[str] = []

            def audit(text: str, **kw: Any) -> Any:
                calls.append(text)
                return fake_result(text, domain="medical")

            home = tmp_path / str(len(list(tmp_path.iterdir())))
            home.mkdir()
            upstream = fake_upstream(key=UPSTREAM_KEY)
            upstream_url = stack.enter_context(serve_in_thread(upstream))
            app, trail = make_gateway(home, upstream_url, audit, **settings)
            stack.callback(trail.close)
            token = KeyStore(trail).create(tenant="acme", role="auditor")[1]
            url = stack.enter_context(serve_in_thread(app))
            client = openai.OpenAI(base_url=url, api_key=token, max_retries=0)
            return Served(client, trail, calls, upstream)

        yield start


def test_metadata_over_the_settings_limit_is_refused_before_the_audit(serve) -> None:
    gw = serve(max_metadata_bytes=4096)
    err = gw.refused(metadata={f"k{i}": "x" * 500 for i in range(16)})
    assert err.status_code == 422 and err.body["code"] == "invalid_metadata"
    assert "the limit is 4,096" in err.body["message"]
    assert gw.calls == [] and gw.trail.count() == 0  # the auditor never ran
    assert gw.ask(metadata={"ticket": "T-1"}).model_extra["kgaudit"]["audit_id"]  # small: fine
    assert gw.calls == [ANSWER] and gw.trail.count() == 1


def test_a_streamed_answer_with_invalid_metadata_ends_in_an_error_before_the_audit(serve) -> None:
    gw = serve()
    with pytest.raises(openai.APIError, match="NUL"):
        list(gw.ask(metadata={"ticket": "T\x001"}, stream=True))
    assert gw.calls == [] and gw.trail.count() == 0


@pytest.mark.parametrize(
    ("kw", "code", "says"),
    [
        ({"metadata": {"ticket": "T\x001"}}, "invalid_metadata", "metadata string contains a NUL"),
        ({"user": "al\x00ice"}, "invalid_metadata", "metadata string contains a NUL"),
        # the fake upstream answers with the question: the answer's text is refused first
        ({"content": "A\x00B " + ANSWER}, "invalid_request", "the answer contains a NUL"),
    ],
    ids=["metadata", "user", "answer"],
)
def test_what_the_trail_would_refuse_is_refused_before_the_audit(serve, kw, code, says) -> None:
    gw = serve()
    err = gw.refused(**kw)
    assert err.status_code == 422 and err.body["code"] == code and says in err.body["message"]
    assert gw.calls == [] and gw.trail.count() == 0


def test_a_raised_limit_holds_end_to_end_and_the_default_refuses_before_the_audit(serve) -> None:
    """The acceptance of issue 29 through the gateway: metadata past the default 64 KiB is
    refused before the audit under the default limit and recorded under a raised one."""
    kw = {"metadata": WIDE, "user": WIDE_USER, "content": WIDE_QUESTION}
    default = serve()
    err = default.refused(**kw)
    assert err.body["code"] == "invalid_metadata" and "the limit is 65,536" in err.body["message"]
    assert default.calls == [] and default.trail.count() == 0

    raised = serve(max_metadata_bytes=200_000)
    audit = raised.ask(**kw).model_extra["kgaudit"]
    stored = raised.trail.get(audit["audit_id"], tenant="acme")
    assert stored["metadata"]["metadata"] == WIDE and stored["metadata"]["user"] == WIDE_USER
    assert len(canonical_json(stored["metadata"], version=1)) > 65_536
    assert raised.calls == [WIDE_QUESTION] and raised.trail.verify().ok
