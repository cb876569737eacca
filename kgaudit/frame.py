"""Audit results as pandas DataFrames, one row per claim (the ``pandas`` extra).

>>> from kgaudit import results_to_frame
>>> df = results_to_frame([audit(t, domain="medical") for t in answers])   # doctest: +SKIP
>>> df[df.verdict == "contradicted"][["audit", "text", "rule_id", "source"]]  # doctest: +SKIP

Columns (:data:`COLUMNS`): audit, claim, text, start, end, span, domain, subject, predicate,
object, verdict, reason, rule_id, severity, hallucination_type, evidence, source, url, quote.
``AuditResult.to_frame()`` and ``AuditRecord.to_frame()`` give the same for one result.
"""

from __future__ import annotations

from auditor.claim_table import COLUMNS, claim_rows, results_to_frame

__all__ = ["COLUMNS", "claim_rows", "results_to_frame"]
