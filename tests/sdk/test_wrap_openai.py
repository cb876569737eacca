"""``wrap_openai`` with the official ``openai`` client against a fake server over HTTP."""

from __future__ import annotations

import asyncio
from collections.abc import Iterator

import pytest

from kgaudit import AuditFailed, Client, wrap_openai

from .conftest import AS_OF, MEDICAL_BAD, MEDICAL_OK, serve, stop
from .fake_openai import fake_openai_app

openai = pytest.importorskip("openai")
pytestmark = pytest.mark.slow
MESSAGES = [{"role": "user", "content": "How much ibuprofen can I take?"}]


@pytest.fixture(scope="module")
def fake() -> Iterator[tuple[str, list[str]]]:
    replies = [MEDICAL_BAD]
    app = fake_openai_app(replies)
    served = serve(app)
    yield f"{served.url}/v1", replies
    stop(served)


def _llm(url: str):
    return openai.OpenAI(base_url=url, api_key="sk-test", max_retries=0)


def test_each_choice_is_audited_and_attached(fake, real_auditor) -> None:
    url, replies = fake
    replies[:] = [MEDICAL_BAD, MEDICAL_OK, ""]
    llm = wrap_openai(_llm(url), domain="medical", as_of=AS_OF, auditor=real_auditor)
    done = llm.chat.completions.create(model="gpt-test", messages=MESSAGES, n=3)
    assert done.kgaudit.fer == 1.0
    assert [c.kgaudit.fer if c.kgaudit else None for c in done.choices] == [1.0, 0.0, None]
    assert done.choices[0].message.content == MEDICAL_BAD  # annotate leaves it
    assert "kgaudit" not in done.model_dump_json()


def test_block_replaces_the_content(fake, real_auditor) -> None:
    url, replies = fake
    replies[:] = [MEDICAL_BAD]
    llm = wrap_openai(
        _llm(url), domain="medical", policy="block", as_of=AS_OF, auditor=real_auditor
    )
    done = llm.chat.completions.create(model="gpt-test", messages=MESSAGES)
    assert "withheld by kgaudit" in done.choices[0].message.content
    assert done.kgaudit.counts["contradicted"] == 1


def test_raise_and_stream_refused_and_double_wrap(fake, real_auditor) -> None:
    url, replies = fake
    replies[:] = [MEDICAL_BAD]
    llm = wrap_openai(
        _llm(url), domain="medical", policy="raise", as_of=AS_OF, auditor=real_auditor
    )
    with pytest.raises(AuditFailed, match="MED-DOSE-MAX"):
        llm.chat.completions.create(model="gpt-test", messages=MESSAGES)
    with pytest.raises(ValueError, match="streamed"):
        llm.chat.completions.create(model="gpt-test", messages=MESSAGES, stream=True)
    with pytest.raises(ValueError, match="already wrapped"):
        wrap_openai(llm, domain="medical")


def test_async_openai_through_the_kgaudit_server(fake, api_server) -> None:
    url, replies = fake
    replies[:] = [MEDICAL_OK]

    async def run():
        llm = wrap_openai(
            openai.AsyncOpenAI(base_url=url, api_key="sk-test", max_retries=0),
            domain="medical",
            as_of=AS_OF,
            client=Client(api_server.url, api_server.key),
            metadata={"app": "chat"},
        )
        return await llm.chat.completions.create(model="gpt-test", messages=MESSAGES)

    done = asyncio.run(run())
    assert done.kgaudit.fer == 0.0
    with Client(api_server.url, api_server.key) as kg:
        meta = kg.get_audit(done.kgaudit.id).record["metadata"]
    assert meta == {"app": "chat", "model": "gpt-test", "completion_id": done.id}
