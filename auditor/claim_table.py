"""Audit results as a claims table: one row per claim, with its verdict, rule and evidence.

>>> rows = claim_rows({"claims": [{"text": "x", "start": 0, "end": 1, "verdict": "supported",
...                                "evidence": []}]})
>>> rows[0]["verdict"], rows[0]["span"]
('supported', '0-1')

The rows are built from the public ``AuditResult.to_dict()`` shape (or a stored audit, which
holds it under ``result``), so results from the library, the REST API, a batch results file
and the trail all give the same table. :func:`to_frame` makes a pandas DataFrame of them
(the ``pandas`` extra); the CSV report writes the same columns for the claims it shows.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

COLUMNS: tuple[str, ...] = (
    "audit",
    "claim",
    "text",
    "start",
    "end",
    "span",
    "domain",
    "subject",
    "predicate",
    "object",
    "verdict",
    "reason",
    "rule_id",
    "severity",
    "hallucination_type",
    "evidence",
    "source",
    "url",
    "quote",
)


def result_dict(result: Any) -> dict[str, Any]:
    """The ``to_dict()`` form of ``result``: an ``AuditResult``, anything with ``to_dict()``,
    a text carrying its ``audit``, a result dict, or a stored audit (``{"id", "result"}``)."""
    if isinstance(result, str) and hasattr(result, "audit"):  # kgaudit's AuditedText
        result = result.audit
    if hasattr(result, "to_dict"):
        result = result.to_dict()
    if not isinstance(result, Mapping):
        raise TypeError(f"expected an audit result, not {type(result).__name__}")
    inner = result.get("result")
    if isinstance(inner, Mapping) and "claims" in inner:
        return {**inner, "id": result.get("id")}
    return dict(result)


def _facts(evidence: Iterable[Mapping[str, Any]]) -> list[Mapping[str, Any]]:
    """The evidence items that are graph facts or citations (not the rule that was applied)."""
    return [e for e in evidence if e.get("role") != "rule"]


def _join(values: Iterable[Any]) -> str:
    seen: list[str] = []
    for v in values:
        if v and str(v) not in seen:
            seen.append(str(v))
    return " | ".join(seen)


def _source(ev: Mapping[str, Any]) -> str:
    src = ev.get("source") or ev  # nested (a result's evidence) or flat (the report's)
    doc = src.get("document") or (ev.get("citation") or {}).get("text")
    if doc and src.get("section"):
        return f"{doc}, {src['section']}"
    return doc or ""


def _url(ev: Mapping[str, Any]) -> str | None:
    return (ev.get("source") or ev).get("url") or (ev.get("citation") or {}).get("url")


def claim_row(claim: Mapping[str, Any], *, audit: Any = None, index: int = 0) -> dict[str, Any]:
    """One claim dict (``Claim.to_dict()``) as a table row (keys: :data:`COLUMNS`)."""
    facts = _facts(claim.get("evidence") or [])
    start, end = claim.get("start"), claim.get("end")
    return {
        "audit": audit,
        "claim": index,
        "text": claim.get("text"),
        "start": start,
        "end": end,
        "span": f"{start}-{end}",
        "domain": claim.get("domain"),
        "subject": claim.get("subject_label") or claim.get("subject"),
        "predicate": claim.get("predicate"),
        "object": claim.get("object_label") or claim.get("object"),
        "verdict": claim.get("verdict"),
        "reason": claim.get("reason"),
        "rule_id": claim.get("rule_id"),
        "severity": claim.get("severity"),
        "hallucination_type": claim.get("hallucination_type"),
        "evidence": _join(e.get("statement") or e.get("detail") for e in facts),
        "source": _join(_source(e) for e in facts),
        "url": _join(_url(e) for e in facts),
        "quote": _join(e.get("quote") for e in facts),
    }


def claim_rows(result: Any, *, audit: Any = None) -> list[dict[str, Any]]:
    """Every claim of one result as a row; ``audit`` labels the rows (default: the stored
    audit's id, if any)."""
    r = result_dict(result)
    label = audit if audit is not None else r.get("id")
    domain = r.get("domain")
    return [
        claim_row({"domain": domain, **c}, audit=label, index=i)
        for i, c in enumerate(r.get("claims") or [])
    ]


def to_frame(rows: list[dict[str, Any]]) -> Any:
    """A pandas DataFrame of claim rows, with the :data:`COLUMNS` in order."""
    try:
        import pandas as pd
    except ImportError:
        raise ImportError(
            "a claims DataFrame needs pandas: pip install 'kgaudit[pandas]'"
        ) from None
    return pd.DataFrame(rows, columns=list(COLUMNS))


def results_to_frame(results: Iterable[Any]) -> Any:
    """One row per claim over several results; ``audit`` is the stored id or the position."""
    rows: list[dict[str, Any]] = []
    for i, result in enumerate(results):
        r = result_dict(result)
        rows += claim_rows(r, audit=r.get("id") if r.get("id") is not None else i)
    return to_frame(rows)


__all__ = ["COLUMNS", "claim_row", "claim_rows", "result_dict", "results_to_frame", "to_frame"]
