"""Calibration and ranking metrics of probabilities against 0/1 labels (numpy only).

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
    pa, ya = np.asarray(p, dtype=float), np.asarray(y, dtype=float)
    return round(float(np.mean((pa - ya) ** 2)), 6) if len(pa) else float("nan")


def roc_auc(p: Sequence[float], y: Sequence[int]) -> float | None:
    """Area under the ROC curve (ties count half); None when only one class is present."""
    pa, ya = np.asarray(p, dtype=float), np.asarray(y, dtype=int)
    pos, neg = pa[ya == 1], pa[ya == 0]
    if len(pos) == 0 or len(neg) == 0:
        return None
    order = np.argsort(np.concatenate([pos, neg]), kind="mergesort")
    allv = np.concatenate([pos, neg])[order]
    ranks = np.empty(len(allv))
    i = 0
    while i < len(allv):  # average ranks over ties
        j = i
        while j + 1 < len(allv) and allv[j + 1] == allv[i]:
            j += 1
        ranks[i : j + 1] = (i + j) / 2 + 1
        i = j + 1
    r = np.empty(len(allv))
    r[order] = ranks
    u = r[: len(pos)].sum() - len(pos) * (len(pos) + 1) / 2
    return round(float(u / (len(pos) * len(neg))), 6)


def reliability_table(
    p: Sequence[float], y: Sequence[int], *, bins: int = 10
) -> list[dict[str, Any]]:
    """Equal-width bins of predicted probability: mean prediction, observed rate, count."""
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
    return round(err / n, 6)


def summary(p: Sequence[float], y: Sequence[int]) -> dict[str, Any]:
    """Brier, ECE (10 bins), ROC AUC, and the counts behind them."""
    return {
        "answers": len(p),
        "hallucinated": int(np.sum(np.asarray(y, dtype=int))),
        "brier": brier(p, y),
        "ece": expected_calibration_error(p, y),
        "roc_auc": roc_auc(p, y),
    }
