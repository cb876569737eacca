"""Operating points: thresholds per domain and target FPR; a contradiction always flags."""

from __future__ import annotations

from datetime import date

import numpy as np
import pytest

from auditor.errors import UsageError
from auditor.risk import apply_operating_point, calibration_curve, operating_point
from auditor.risk.model import OperatingPoint, RiskModel, load_model
from auditor.types import AuditResult, Claim
from measure.risk.fit import operating_points


def _model(threshold: float | None) -> RiskModel:
    model = load_model()
    assert model is not None, "auditor/risk/model.json must ship with the code"
    points = [OperatingPoint(t, threshold, 0.0, 0.0) for t in (0.01, 0.05, 0.1)]
    return RiskModel(**{**model.__dict__, "operating_points": {"all": points}})


def _result(verdict: str, domain: str = "medical") -> AuditResult:
    claim = Claim("x", 0, 1, domain, "R", "s", "S", "p", "o", verdict=verdict)  # type: ignore[arg-type]
    counts = {"supported": 0, "contradicted": 0, "unverifiable": 0} | {verdict: 1}
    return AuditResult(domain, date(2025, 1, 1), [claim], [], None, None, None, 1.0, counts, {},
                       "kg", "rules", "auditor", [domain])  # fmt: skip


@pytest.mark.parametrize("threshold", [None, 1.0, 0.5])
@pytest.mark.parametrize("fpr", [0.01, 0.05, 0.1, 0.5])
def test_a_contradicted_answer_is_always_flagged(threshold: float | None, fpr: float) -> None:
    r = apply_operating_point(_result("contradicted"), fpr, _model(threshold))
    assert r.to_dict()["flagged"] is True


def test_flags_follow_the_threshold_without_evidence() -> None:
    model = _model(0.5)
    r = _result("supported")
    r.extra["risk"] = 0.49
    assert apply_operating_point(r, 0.05, model).extra["flagged"] is False
    r.extra["risk"] = 0.5
    assert apply_operating_point(r, 0.05, model).extra["flagged"] is True
    assert _model(None).operating_point("medical", 0.05).threshold is None


def test_the_largest_shipped_target_not_above_the_request_is_used() -> None:
    r = apply_operating_point(_result("supported"), 0.07)
    d = r.to_dict()
    assert d["flag_fpr"] == 0.05
    assert {"risk", "risk_model_version", "flagged", "flag_threshold"} <= d.keys()
    assert operating_point("legal", 0.2).target_fpr == 0.1


@pytest.mark.parametrize("fpr", [0.001, 0.0, 1.0, 1.5])
def test_unusable_target_rates_are_usage_errors(fpr: float) -> None:
    with pytest.raises(UsageError, match="false-positive rate"):
        operating_point("medical", fpr)


def test_operating_points_keep_the_fpr_when_a_threshold_is_chosen() -> None:
    rng = np.random.default_rng(0)
    y = rng.integers(0, 2, 400)
    risk = np.clip(0.5 * y + rng.uniform(0, 0.6, 400), 0, 1)
    evidence = (y == 1) & (rng.uniform(size=400) < 0.5)
    points = operating_points(risk, y, evidence, (0.01, 0.05, 0.1))
    for p in points:
        assert p.threshold is not None and p.fpr <= p.target_fpr
    assert points[0].threshold >= points[1].threshold >= points[2].threshold  # type: ignore[operator]
    assert points[0].tpr <= points[1].tpr <= points[2].tpr


def test_shipped_model_has_points_and_curves_for_every_domain() -> None:
    model = load_model()
    assert model is not None and model.version.startswith("risk-")
    for d in ("finance", "medical", "legal", "all"):
        assert [p.target_fpr for p in model.operating_points[d]] == [0.01, 0.05, 0.1]
        curve = calibration_curve(d)
        assert len(curve) == 10 and sum(b["count"] for b in curve) > 0


def test_without_a_risk_model_audits_carry_no_risk_and_flagging_is_a_usage_error(
    tmp_path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """An installation without ``auditor/risk/model.json``: every branch that reads the model
    says so instead of inventing a risk."""
    import auditor.risk
    from auditor.risk import annotate_risk

    assert load_model(tmp_path / "model.json") is None  # a missing file is "no model"
    monkeypatch.setattr(auditor.risk, "load_model", lambda *a, **k: None)
    r = annotate_risk(_result("supported"))
    assert "risk" not in r.extra and "risk_model_version" not in r.extra
    assert calibration_curve("medical") == []
    with pytest.raises(UsageError, match="no calibrated risk model is installed"):
        operating_point("medical", 0.05)
    with pytest.raises(UsageError, match="no calibrated risk model is installed"):
        apply_operating_point(_result("contradicted"), 0.05)
