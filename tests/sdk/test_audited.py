"""``@audited``: the three policies, in-process and through the REST client, sync and async."""

from __future__ import annotations

import asyncio

import pytest

from kgaudit import AuditedText, AuditFailed, Client, audited

from .conftest import AS_OF, MEDICAL_BAD, MEDICAL_OK


def _answer(text: str):
    def fn() -> str:
        return text

    return fn


@pytest.mark.parametrize(
    ("policy", "text", "blocked", "fer"),
    [
        ("annotate", MEDICAL_BAD, False, 1.0),
        ("annotate", MEDICAL_OK, False, 0.0),
        ("block", MEDICAL_BAD, True, 1.0),
        ("block", MEDICAL_OK, False, 0.0),
        ("raise", MEDICAL_OK, False, 0.0),
    ],
    ids=["annotate-bad", "annotate-ok", "block-bad", "block-ok", "raise-ok"],
)
def test_policies(real_auditor, policy, text, blocked, fer) -> None:
    fn = audited(domain="medical", policy=policy, as_of=AS_OF, auditor=real_auditor)(_answer(text))
    out = fn()
    assert isinstance(out, AuditedText) and out.audit.fer == fer
    assert out.blocked is blocked and out.original == text
    assert (str(out) == text) is not blocked
    if blocked:
        assert "withheld by kgaudit" in out and "1 contradicted" in out


def test_raise_lists_the_contradiction(real_auditor) -> None:
    fn = audited(domain="medical", policy="raise", as_of=AS_OF, auditor=real_auditor)(
        _answer(MEDICAL_BAD)
    )
    with pytest.raises(AuditFailed) as info:
        fn()
    msg = str(info.value)
    assert "MED-DOSE-MAX" in msg and "1,200 mg per day" in msg
    assert info.value.text == MEDICAL_BAD and info.value.result.fer == 1.0


def test_default_auditor_and_wraps() -> None:
    @audited(domain="medical", as_of=AS_OF)
    def answer(q: str) -> str:
        """Docstring kept."""
        return MEDICAL_OK

    assert answer.__doc__ == "Docstring kept." and answer("q").audit.counts["supported"] == 1


def test_async_function_in_process(real_auditor) -> None:
    @audited(domain="medical", policy="block", as_of=AS_OF, auditor=real_auditor)
    async def answer() -> str:
        return MEDICAL_BAD

    out = asyncio.run(answer())
    assert out.blocked and out.audit.fer == 1.0


def test_non_text_and_bad_policy() -> None:
    with pytest.raises(ValueError, match="unknown policy"):
        audited(domain="medical", policy="warn")  # type: ignore[arg-type]
    fn = audited(domain="medical")(lambda: 3)
    with pytest.raises(TypeError, match="return a str"):
        fn()


@pytest.mark.slow
def test_through_the_rest_client(api_server) -> None:
    with Client(api_server.url, api_server.key) as kg:
        fn = audited(domain="medical", client=kg, as_of=AS_OF, metadata={"app": "t"})(
            _answer(MEDICAL_BAD)
        )
        out = fn()
        assert out.audit.fer == 1.0
        assert kg.get_audit(out.audit.id).record["metadata"] == {"app": "t"}
