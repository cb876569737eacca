"""Calibrated hallucination risk and operating points.

``risk`` ∈ [0, 1] is the calibrated probability that an answer holds at least one
hallucination, computed from the audit's own findings (:mod:`auditor.risk.features`) by the
model shipped in ``auditor/risk/model.json`` (:mod:`measure.risk.fit` rebuilds it). Every audit
records ``risk`` and ``risk_model_version``. Risk only ranks and calibrates: it never changes
a verdict, and :func:`apply_operating_point` always flags an answer with a contradicted claim
(or a contradicted citation), whatever the threshold.

>>> from auditor import audit                                   # doctest: +SKIP
>>> r = apply_operating_point(audit(text, domain="medical"), 0.05)  # doctest: +SKIP
>>> {k: r.to_dict()[k] for k in ("risk", "flagged", "flag_threshold", "flag_fpr")}  # doctest: +SKIP
{'risk': 0.93, 'flagged': True, 'flag_threshold': 0.41, 'flag_fpr': 0.05}

For reports: :func:`calibration_curve` gives the shipped held-out reliability curve of a
domain, :func:`reliability_table` computes one from any (risk, label) pairs, and
:func:`operating_point` the threshold in force for a domain and target FPR.
"""

from __future__ import annotations

from typing import Any

from auditor.errors import UsageError
from auditor.risk.features import FEATURES, contradicted, features
from auditor.risk.metrics import reliability_table
from auditor.risk.model import MODEL_PATH, OperatingPoint, RiskModel, load_model
from auditor.types import AuditResult


def annotate_risk(result: AuditResult, model: RiskModel | None = None) -> AuditResult:
    """Add ``risk`` and ``risk_model_version`` to ``result.extra`` (nothing without a model,
    or with a model fitted on other features than :data:`FEATURES`: refit it with
    ``kgaudit eval --fit``)."""
    model = model or load_model()
    if model is not None and tuple(model.features) == FEATURES:
        result.extra["risk"] = model.predict(features(result), result.domain)
        result.extra["risk_model_version"] = model.version
    return result


def operating_point(domain: str, fpr: float, model: RiskModel | None = None) -> OperatingPoint:
    """The shipped operating point for ``domain`` with the largest target FPR ≤ ``fpr``."""
    model = model or load_model()
    if model is None:
        raise UsageError(f"no calibrated risk model is installed ({MODEL_PATH} is missing)")
    if not 0.0 < fpr < 1.0:
        raise UsageError(f"the target false-positive rate must be between 0 and 1, not {fpr}")
    point = model.operating_point(domain, fpr)
    if point is None:
        shipped = ", ".join(f"{t:g}" for t in model.targets)
        raise UsageError(
            f"no operating point at a false-positive rate of {fpr:g} or less; the model "
            f"ships {shipped}"
        )
    return point


def apply_operating_point(
    result: AuditResult, fpr: float, model: RiskModel | None = None
) -> AuditResult:
    """Flag ``result`` at the domain's threshold for target FPR ``fpr``: adds ``flagged``,
    ``flag_threshold`` (None when evidence alone flags at that FPR) and ``flag_fpr`` (the
    target of the point used). A contradiction always flags."""
    model = model or load_model()
    point = operating_point(result.domain, fpr, model)
    if "risk" not in result.extra:
        annotate_risk(result, model)
    risk = float(result.extra["risk"])
    above = point.threshold is not None and risk >= point.threshold
    result.extra["flagged"] = bool(contradicted(result) or above)
    result.extra["flag_threshold"] = point.threshold
    result.extra["flag_fpr"] = point.target_fpr
    return result


def calibration_curve(domain: str = "all", model: RiskModel | None = None) -> list[dict[str, Any]]:
    """The shipped model's held-out reliability curve for ``domain`` (``all``: pooled): bins
    with ``lo``, ``hi``, ``count``, ``mean_risk``, ``observed`` (None in empty bins)."""
    model = model or load_model()
    if model is None:
        return []
    curves = model.doc.get("calibration_curves", {})
    return list(curves.get(domain) or curves.get("all") or [])


__all__ = [
    "OperatingPoint",
    "RiskModel",
    "annotate_risk",
    "apply_operating_point",
    "calibration_curve",
    "features",
    "load_model",
    "operating_point",
    "reliability_table",
]
