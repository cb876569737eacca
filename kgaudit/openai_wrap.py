"""``wrap_openai``: audit every chat completion an ``openai`` client returns.

>>> from openai import OpenAI
>>> from kgaudit import wrap_openai
>>> llm = wrap_openai(OpenAI(), domain="medical")                      # doctest: +SKIP
>>> done = llm.chat.completions.create(model="gpt-x", messages=[...])   # doctest: +SKIP
>>> done.kgaudit.fer, done.choices[0].kgaudit.counts                    # doctest: +SKIP

The client's ``chat.completions.create`` is replaced on that client only (``OpenAI`` and
``AsyncOpenAI`` alike). Each choice's message text is audited — in-process, or through
``client`` (a :class:`~kgaudit.Client`, which also records it with the model name and the
completion id as metadata) — and the result is attached as ``choice.kgaudit``;
``completion.kgaudit`` is the first choice's. The attribute is not part of the
completion's JSON (``model_dump``). ``policy`` works as for :func:`~kgaudit.audited`:
``block`` replaces a failing message's content, ``raise`` raises
:class:`~kgaudit.errors.AuditFailed`. A choice without text (a tool call) gets ``None``.

Streamed completions (``stream=True``) are refused with a ``ValueError`` rather than passed
through unaudited. Each call is one span (OpenInference kind ``LLM`` with
``llm.model_name``, ``llm.input_messages``, ``llm.output_messages``), parent of the audits'.
"""

from __future__ import annotations

import inspect
from collections.abc import Callable, Mapping
from datetime import date
from typing import Any

from auditor import telemetry
from kgaudit.decorators import (
    BLOCKED_MESSAGE,
    AuditedText,
    apply_policy,
    arun_audit,
    check_policy,
    run_audit,
)

_MARK = "__kgaudit_wrapped__"


def _no_stream(kwargs: Mapping[str, Any]) -> None:
    if kwargs.get("stream"):
        raise ValueError(
            "wrap_openai does not audit streamed completions: call create() without "
            "stream=True, or audit the joined text with kgaudit.audited / auditor.audit"
        )


def _span(kwargs: Mapping[str, Any]) -> Any:
    messages = [m for m in kwargs.get("messages") or [] if isinstance(m, Mapping)]
    return telemetry.span(
        "kgaudit.openai.chat_completion",
        **{
            telemetry.SPAN_KIND: "LLM",
            telemetry.MODEL_NAME: kwargs.get("model"),
            **telemetry.message_attributes(
                telemetry.INPUT_MESSAGES, messages, hide=telemetry.HIDE_INPUTS
            ),
        },
    )


def _texts(completion: Any) -> list[str | None]:
    out = []
    for choice in completion.choices:
        content = getattr(choice.message, "content", None)
        out.append(content if isinstance(content, str) and content.strip() else None)
    return out


def _attach(completion: Any, sp: Any, audited: list[AuditedText | None]) -> Any:
    outputs = []
    for choice, text in zip(completion.choices, audited, strict=True):
        if text is not None:
            choice.message.content = str(text)  # unchanged unless blocked
        # not a pydantic field: kept out of the completion's JSON
        object.__setattr__(choice, "kgaudit", text.audit if text is not None else None)
        outputs.append({"role": "assistant", "content": choice.message.content})
    first = completion.choices[0].kgaudit if completion.choices else None
    object.__setattr__(completion, "kgaudit", first)
    telemetry.set_attributes(
        sp,
        {
            telemetry.MODEL_NAME: getattr(completion, "model", None),
            **telemetry.message_attributes(
                telemetry.OUTPUT_MESSAGES, outputs, hide=telemetry.HIDE_OUTPUTS
            ),
        },
    )
    return completion


def _is_async(completions: Any, create: Any) -> bool:
    """``AsyncCompletions.create`` is wrapped by openai's own decorators: look through them."""
    return inspect.iscoroutinefunction(inspect.unwrap(create)) or type(
        completions
    ).__name__.startswith("Async")


def wrap_openai(
    openai_client: Any,
    *,
    domain: str,
    policy: str = "annotate",
    client: Any = None,
    auditor: Any = None,
    as_of: str | date | None = None,
    metadata: Mapping[str, Any] | None = None,
    blocked_message: str | Callable[[Any], str] = BLOCKED_MESSAGE,
) -> Any:
    """Make ``openai_client.chat.completions.create`` audit each completion; returns the
    same client (see the module docstring)."""
    check_policy(policy)
    completions = openai_client.chat.completions
    original = completions.create
    if getattr(original, _MARK, False):
        raise ValueError("this OpenAI client is already wrapped by kgaudit")

    def opts(completion: Any) -> dict[str, Any]:
        meta = {**(metadata or {}), "model": completion.model, "completion_id": completion.id}
        return {
            "domain": domain,
            "as_of": as_of,
            "metadata": meta if client is not None else None,
            "auditor": auditor,
        }

    def policy_for(text: str | None, result: Any) -> AuditedText | None:
        if text is None:
            return None
        return apply_policy(text, result, policy, domain=domain, blocked_message=blocked_message)

    if _is_async(completions, original):

        async def acreate(*args: Any, **kwargs: Any) -> Any:
            _no_stream(kwargs)
            with _span(kwargs) as sp:
                completion = await original(*args, **kwargs)
                done = []
                for text in _texts(completion):
                    result = (
                        await arun_audit(text, client=client, **opts(completion))
                        if text is not None
                        else None
                    )
                    done.append(policy_for(text, result))
                return _attach(completion, sp, done)

        wrapped: Any = acreate
    else:

        def create(*args: Any, **kwargs: Any) -> Any:
            _no_stream(kwargs)
            with _span(kwargs) as sp:
                completion = original(*args, **kwargs)
                done = [
                    policy_for(t, run_audit(t, client=client, **opts(completion)))
                    if t is not None
                    else None
                    for t in _texts(completion)
                ]
                return _attach(completion, sp, done)

        wrapped = create
    setattr(wrapped, _MARK, True)
    completions.create = wrapped
    return openai_client


__all__ = ["wrap_openai"]
