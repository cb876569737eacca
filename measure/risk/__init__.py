"""Measuring and fitting the risk model: :func:`evaluate_risk` scores audits' ``risk``
against labelled cases (``kgaudit eval``); :mod:`measure.risk.fit` rebuilds
``auditor/risk/model.json`` from :mod:`measure.risk.data`."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from auditor.risk.metrics import summary
from auditor.types import AuditResult
from measure.evaluation.cases import Case


def evaluate_risk(pairs: Iterable[tuple[Case, AuditResult]]) -> dict[str, Any]:
    """Brier, ECE and ROC AUC of the audits' ``risk`` against the cases' labels, per domain
    and overall (``kgaudit eval``); empty when the audits carry no risk."""
    by: dict[str, tuple[list[float], list[int]]] = {}
    for case, result in pairs:
        if "risk" not in result.extra:
            continue
        for d in (case.domain, "all"):
            p, y = by.setdefault(d, ([], []))
            p.append(float(result.extra["risk"]))
            y.append(int(case.hallucinated))
    return {d: summary(p, y) for d, (p, y) in sorted(by.items())}
