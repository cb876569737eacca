"""Calibration and ranking metrics of probabilities against 0/1 labels.

Brier score and ROC AUC are scikit-learn's (``brier_score_loss``, ``roc_auc_score``), imported
on first use: ``import sklearn.metrics`` costs 1.7 s and this module is imported by every
audit (``auditor.stages`` → ``auditor.risk``), which only needs the metrics in ``kgaudit
eval --fit``. The reliability table stays hand-written (see :func:`reliability_table`).

>>> brier([0.9, 0.2], [1, 0])
0.025
>>> roc_auc([0.1, 0.4, 0.35, 0.8], [0, 0, 1, 1])
0.75
>>> expected_calibration_error([0.2, 0.2, 0.8, 0.8], [0, 1, 1, 1], bins=2)
0.25
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np


def brier(p: Sequence[float], y: Sequence[int]) -> float:
    """Mean squared difference between probability and outcome (0 is perfect)."""
    if len(p) == 0:
        return float("nan")
    from sklearn.metrics import brier_score_loss

    return round(
        float(brier_score_loss(np.asarray(y, dtype=int), np.asarray(p, dtype=float), pos_label=1)),
        6,
    )


def roc_auc(p: Sequence[float], y: Sequence[int]) -> float | None:
    """Area under the ROC curve (ties count half); None when only one class is present."""
    ya = np.asarray(y, dtype=int)
    if len(ya) == 0 or ya.min() == ya.max():
        return None
    from sklearn.metrics import roc_auc_score

    return round(float(roc_auc_score(ya, np.asarray(p, dtype=float))), 6)


def reliability_table(
    p: Sequence[float], y: Sequence[int], *, bins: int = 10
) -> list[dict[str, Any]]:
    """Equal-width bins of predicted probability: mean prediction, observed rate, count.

    Not ``sklearn.calibration.calibration_curve``: it drops empty bins, returns no counts
    (the ECE weights and the report's table need them) and puts a prediction lying on an
    edge in the lower bin (0.2 in [0.1, 0.2]), where this table puts it in [0.2, 0.3). The
    shipped model's isotonic risk levels lie on decile edges often: 10 of the 36 levels of
    ``model.json``'s ``all`` curve (measured 2026-12-04), so the figures would change.
    """
    pa, ya = np.asarray(p, dtype=float), np.asarray(y, dtype=float)
    idx = np.minimum((pa * bins).astype(int), bins - 1)
    out = []
    for b in range(bins):
        sel = idx == b
        n = int(sel.sum())
        out.append(
            {
                "lo": round(b / bins, 4),
                "hi": round((b + 1) / bins, 4),
                "count": n,
                "mean_risk": round(float(pa[sel].mean()), 6) if n else None,
                "observed": round(float(ya[sel].mean()), 6) if n else None,
            }
        )
    return out


def expected_calibration_error(p: Sequence[float], y: Sequence[int], *, bins: int = 10) -> float:
    """Σ_bins (n_b / n) · |mean prediction − observed rate| over equal-width bins."""
    table = reliability_table(p, y, bins=bins)
    n = sum(b["count"] for b in table)
    if n == 0:
        return float("nan")
    err = sum(b["count"] * abs(b["mean_risk"] - b["observed"]) for b in table if b["count"])
    return float(round(err / n, 6))


def summary(p: Sequence[float], y: Sequence[int]) -> dict[str, Any]:
    """Brier, ECE (10 bins), ROC AUC, and the counts behind them."""
    return {
        "answers": len(p),
        "hallucinated": int(np.sum(np.asarray(y, dtype=int))),
        "brier": brier(p, y),
        "ece": expected_calibration_error(p, y),
        "roc_auc": roc_auc(p, y),
    }
