"""Brier, ECE, ROC AUC and reliability tables against scikit-learn and by hand."""

from __future__ import annotations

import numpy as np
import pytest
from sklearn.metrics import brier_score_loss, roc_auc_score

from auditor.risk.metrics import (
    brier,
    expected_calibration_error,
    reliability_table,
    roc_auc,
    summary,
)


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_brier_and_auc_agree_with_scikit_learn(seed: int) -> None:
    rng = np.random.default_rng(seed)
    y = rng.integers(0, 2, 200)
    p = np.clip(0.6 * y + rng.normal(0.2, 0.25, 200), 0, 1).round(2)  # with ties
    assert brier(p, y) == pytest.approx(brier_score_loss(y, p), abs=1e-6)
    assert roc_auc(p, y) == pytest.approx(roc_auc_score(y, p), abs=1e-6)


@pytest.mark.parametrize(
    ("p", "y", "ece"),
    [
        ([0.2, 0.2, 0.8, 0.8], [0, 1, 1, 1], 0.25),
        ([0.05, 0.95], [0, 1], 0.05),
        ([0.5] * 4, [0, 1, 0, 1], 0.0),
    ],
    ids=["two-bins", "confident-right", "perfectly-calibrated"],
)
def test_expected_calibration_error(p: list[float], y: list[int], ece: float) -> None:
    assert expected_calibration_error(p, y, bins=2 if len(p) == 4 and p[0] != 0.5 else 10) == (
        pytest.approx(ece)
    )


def test_reliability_table_counts_every_answer_once() -> None:
    table = reliability_table([0.0, 0.15, 0.99, 1.0], [0, 0, 1, 1])
    assert sum(b["count"] for b in table) == 4
    assert table[-1] == {"lo": 0.9, "hi": 1.0, "count": 2, "mean_risk": 0.995, "observed": 1.0}
    assert table[5]["mean_risk"] is None


def test_auc_is_undefined_with_one_class() -> None:
    assert roc_auc([0.1, 0.9], [1, 1]) is None
    assert summary([0.1, 0.9], [1, 1])["roc_auc"] is None
