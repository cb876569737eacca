"""``@audited``: audit what a function returns, and annotate, block or raise on it.

>>> from kgaudit import audited
>>> @audited(domain="medical", policy="block")
... def answer(question: str) -> str:
...     return "Adults may take up to 8,000 mg of acetaminophen a day."
>>> out = answer("max dose?")                                        # doctest: +SKIP
>>> out.blocked, out.audit.fer, out.original[:20]                    # doctest: +SKIP
(True, 1.0, 'Adults may take up t')

The text is audited in-process by :func:`auditor.get_auditor` (or the ``auditor`` given),
or through a :class:`~kgaudit.Client` / :class:`~kgaudit.AsyncClient` (then it is also
recorded in the server's trail, with ``metadata``). Policies, applied when the audit
**fails** (a claim or citation contradicted; unverifiable claims never fail it):

* ``annotate`` (default) — return the text unchanged;
* ``block`` — return ``blocked_message`` instead (``original`` keeps the text);
* ``raise`` — raise :class:`~kgaudit.errors.AuditFailed` listing the contradictions.

The return value is always an :class:`AuditedText`: a ``str`` with ``audit`` (the result),
``original`` and ``blocked``. ``async def`` functions are supported; the in-process audit
then runs in a worker thread.
"""

from __future__ import annotations

import asyncio
import functools
import inspect
from collections.abc import Callable, Mapping
from datetime import date
from typing import Any, Literal, TypeVar

from kgaudit.errors import AuditFailed
from kgaudit.outcome import describe_contradictions, failed, summary

Policy = Literal["annotate", "block", "raise"]
POLICIES = ("annotate", "block", "raise")
BLOCKED_MESSAGE = (
    "[withheld by kgaudit: this answer contradicts the {domain} knowledge graph "
    "({contradicted} contradicted statement(s))]"
)
F = TypeVar("F", bound=Callable[..., Any])


class AuditedText(str):
    """A text with its audit: ``audit`` (``AuditResult`` or ``AuditRecord``), ``original``
    (the text that was audited) and ``blocked`` (True when ``policy="block"`` replaced it)."""

    audit: Any
    original: str
    blocked: bool

    def __new__(cls, text: str, *, audit: Any, original: str, blocked: bool) -> AuditedText:
        out = super().__new__(cls, text)
        out.audit, out.original, out.blocked = audit, original, blocked
        return out


def check_policy(policy: str) -> None:
    if policy not in POLICIES:
        raise ValueError(f"unknown policy {policy!r}; expected one of {', '.join(POLICIES)}")


def run_audit(
    text: str,
    *,
    domain: str,
    as_of: str | date | None = None,
    citations: list[str] | None = None,
    metadata: Mapping[str, Any] | None = None,
    client: Any = None,
    auditor: Any = None,
) -> Any:
    """Audit ``text`` through ``client`` (a :class:`~kgaudit.Client`), else in-process."""
    if client is not None:
        return client.audit(
            text, domain=domain, as_of=as_of, citations=citations, metadata=metadata
        )
    if auditor is None:
        from auditor import get_auditor

        auditor = get_auditor()
    return auditor.audit(text, domain=domain, as_of=as_of, citations=citations)


async def arun_audit(text: str, *, client: Any = None, **kwargs: Any) -> Any:
    """:func:`run_audit` for async code: an :class:`~kgaudit.AsyncClient` is awaited, any
    other audit runs in a worker thread."""
    if client is not None and inspect.iscoroutinefunction(client.audit):
        kwargs.pop("auditor", None)
        return await client.audit(text, **kwargs)
    return await asyncio.to_thread(functools.partial(run_audit, text, client=client, **kwargs))


def apply_policy(
    text: str,
    result: Any,
    policy: str,
    *,
    domain: str,
    blocked_message: str | Callable[[Any], str] = BLOCKED_MESSAGE,
) -> AuditedText:
    """The text to hand back under ``policy`` (raises :class:`AuditFailed` for ``raise``)."""
    if not failed(result):
        return AuditedText(text, audit=result, original=text, blocked=False)
    if policy == "raise":
        raise AuditFailed(
            f"the text contradicts the {domain} knowledge graph ({summary(result)}):\n"
            + describe_contradictions(result),
            result=result,
            text=text,
        )
    if policy == "block":
        if callable(blocked_message):
            message = blocked_message(result)
        else:
            n = sum(1 for c in _claims(result) if c.get("verdict") == "contradicted")
            message = blocked_message.format(domain=domain, contradicted=n)
        return AuditedText(message, audit=result, original=text, blocked=True)
    return AuditedText(text, audit=result, original=text, blocked=False)


def _claims(result: Any) -> list[dict[str, Any]]:
    from auditor.claim_table import result_dict

    return list(result_dict(result).get("claims") or [])


def _text(value: Any, fn: Callable[..., Any]) -> str:
    if not isinstance(value, str):
        raise TypeError(
            f"@audited expects {fn.__qualname__} to return a str, not {type(value).__name__}"
        )
    return value


def audited(
    *,
    domain: str,
    policy: Policy = "annotate",
    client: Any = None,
    auditor: Any = None,
    as_of: str | date | None = None,
    citations: list[str] | None = None,
    metadata: Mapping[str, Any] | None = None,
    blocked_message: str | Callable[[Any], str] = BLOCKED_MESSAGE,
) -> Callable[[F], F]:
    """Decorate a function returning text so that each return value is audited (see the
    module docstring for the policies)."""
    check_policy(policy)
    opts: dict[str, Any] = {
        "domain": domain,
        "as_of": as_of,
        "citations": citations,
        "metadata": metadata,
        "auditor": auditor,
    }

    def decorate(fn: F) -> F:
        if inspect.iscoroutinefunction(fn):

            @functools.wraps(fn)
            async def awrapper(*args: Any, **kwargs: Any) -> AuditedText:
                text = _text(await fn(*args, **kwargs), fn)
                result = await arun_audit(text, client=client, **opts)
                return apply_policy(
                    text, result, policy, domain=domain, blocked_message=blocked_message
                )

            return awrapper  # type: ignore[return-value]

        @functools.wraps(fn)
        def wrapper(*args: Any, **kwargs: Any) -> AuditedText:
            text = _text(fn(*args, **kwargs), fn)
            result = run_audit(text, client=client, **opts)
            return apply_policy(
                text, result, policy, domain=domain, blocked_message=blocked_message
            )

        return wrapper  # type: ignore[return-value]

    return decorate


__all__ = [
    "BLOCKED_MESSAGE",
    "POLICIES",
    "AuditedText",
    "Policy",
    "apply_policy",
    "arun_audit",
    "audited",
    "check_policy",
    "run_audit",
]
