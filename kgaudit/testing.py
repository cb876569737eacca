"""``assert_audit``: a pytest-friendly gate on an answer's audit (e.g. a prompt change in CI).

>>> from kgaudit.testing import assert_audit
>>> assert_audit("Adults should not take more than 4,000 mg of acetaminophen a day.",
...              domain="medical")                                     # doctest: +SKIP

It fails with an ``AssertionError`` whose message lists every contradicted claim with its
span, rule, reason, evidence, source and the source's own sentence, so a failing CI log says
what the model got wrong and against what. See docs/sdk.md.
"""

from __future__ import annotations

from collections.abc import Mapping
from datetime import date
from typing import Any

from auditor.claim_table import result_dict
from kgaudit.decorators import run_audit
from kgaudit.outcome import contradicted_citations, describe_contradictions, summary


def assert_audit(
    answer: Any,
    domain: str = "medical",
    max_fer: float = 0.0,
    *,
    as_of: str | date | None = None,
    citations: list[str] | None = None,
    min_supported: int = 0,
    allow_contradicted_citations: bool = False,
    client: Any = None,
    auditor: Any = None,
    metadata: Mapping[str, Any] | None = None,
) -> Any:
    """Audit ``answer`` and fail unless its FER is at most ``max_fer``; returns the result.

    ``answer`` is a text (audited in-process, or through ``client``) or an audit already
    made (``AuditResult``, ``AuditRecord``, an ``AuditedText`` or a result dict). A FER of
    ``None`` (nothing verifiable) passes the FER gate; ``min_supported`` asks for at least
    that many supported claims, so an answer the graph cannot check does not pass silently.
    A contradicted citation fails unless ``allow_contradicted_citations``.
    """
    __tracebackhide__ = True
    if not 0.0 <= max_fer <= 1.0:
        raise ValueError("max_fer is a fraction between 0.0 and 1.0")
    if isinstance(answer, str) and hasattr(answer, "audit"):
        result = answer.audit  # an AuditedText from @audited
    elif isinstance(answer, str):
        result = run_audit(
            answer,
            domain=domain,
            as_of=as_of,
            citations=citations,
            metadata=metadata,
            client=client,
            auditor=auditor,
        )
    else:
        result = answer
    r = result_dict(result)
    problems = []
    fer = r.get("fer")
    if fer is not None and fer > max_fer:
        problems.append(f"FER {fer:.1%} is above the allowed {max_fer:.1%}")
    if not allow_contradicted_citations and contradicted_citations(r):
        problems.append("a citation is contradicted")
    supported = (r.get("counts") or {}).get("supported", 0)
    if supported < min_supported:
        problems.append(f"{supported} supported claim(s), fewer than the {min_supported} required")
    if problems:
        detail = describe_contradictions(r)
        raise AssertionError(
            f"kgaudit: the answer fails the {r.get('domain', domain)} audit: "
            + "; ".join(problems)
            + f" ({summary(r)})"
            + (f"\ncontradicted:\n{detail}" if detail else "")
        )
    return result


__all__ = ["assert_audit"]
