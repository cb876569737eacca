"""What an audit means for the caller: failed or not, and the contradictions in words.

An answer **fails** when any claim or citation is contradicted (DESIGN.md); unverifiable
claims never fail it (they are coverage). :func:`describe_contradictions` is the readable
list :func:`kgaudit.testing.assert_audit` and ``policy="raise"`` show.
"""

from __future__ import annotations

from typing import Any

from auditor.claim_table import claim_row, result_dict

MAX_LISTED = 20


def contradicted_claims(result: Any) -> list[dict[str, Any]]:
    """The contradicted claims of ``result`` (claim dicts)."""
    return [
        c for c in result_dict(result).get("claims") or [] if c.get("verdict") == "contradicted"
    ]


def contradicted_citations(result: Any) -> list[dict[str, Any]]:
    return [
        c for c in result_dict(result).get("citations") or [] if c.get("outcome") == "contradicted"
    ]


def failed(result: Any) -> bool:
    """True when a claim or a citation of ``result`` is contradicted."""
    return bool(contradicted_claims(result) or contradicted_citations(result))


def _fmt_fer(fer: float | None) -> str:
    return "n/a (nothing verifiable)" if fer is None else f"{fer:.1%}"


def summary(result: Any) -> str:
    """One line: FER and the claim counts."""
    r = result_dict(result)
    counts = r.get("counts") or {}
    return (
        f"FER {_fmt_fer(r.get('fer'))}: {counts.get('contradicted', 0)} contradicted, "
        f"{counts.get('supported', 0)} supported, {counts.get('unverifiable', 0)} unverifiable"
    )


def describe_contradictions(result: Any) -> str:
    """Each contradicted claim with its span, rule, reason and evidence (source, quote),
    then each contradicted citation; at most :data:`MAX_LISTED` of each."""
    lines: list[str] = []
    bad = contradicted_claims(result)
    for n, c in enumerate(bad[:MAX_LISTED], 1):
        row = claim_row(c)
        lines.append(f"{n}. {row['text']!r} (chars {row['span']}, rule {row['rule_id'] or '-'})")
        if row["reason"]:
            lines.append(f"   why: {row['reason']}")
        if row["evidence"]:
            lines.append(f"   evidence: {row['evidence']}")
        if row["source"]:
            lines.append(f"   source: {row['source']}" + (f" <{row['url']}>" if row["url"] else ""))
        if row["quote"]:
            lines.append(f"   quote: {row['quote']}")
    if len(bad) > MAX_LISTED:
        lines.append(f"... and {len(bad) - MAX_LISTED} more contradicted claims")
    cites = contradicted_citations(result)
    for c in cites[:MAX_LISTED]:
        lines.append(
            f"- citation {c.get('text')!r} (chars {c.get('start')}-{c.get('end')}): "
            f"{c.get('reason') or 'contradicted'}: {c.get('detail') or ''}".rstrip(": ")
        )
    if len(cites) > MAX_LISTED:
        lines.append(f"... and {len(cites) - MAX_LISTED} more contradicted citations")
    return "\n".join(lines)


__all__ = [
    "contradicted_citations",
    "contradicted_claims",
    "describe_contradictions",
    "failed",
    "summary",
]
