"""Brier and ROC AUC come from scikit-learn, with the figures of the former hand-written code,
and importing the auditor does not import scikit-learn (1.7 s)."""

from __future__ import annotations

import subprocess
import sys

import numpy as np
import pytest

from auditor.risk import metrics


def _old_brier(p: list[float], y: list[int]) -> float:
    pa, ya = np.asarray(p, dtype=float), np.asarray(y, dtype=float)
    return round(float(np.mean((pa - ya) ** 2)), 6)


def _pairwise_auc(p: list[float], y: list[int]) -> float:
    """P(score of a positive > score of a negative), ties half: the definition, O(n²)."""
    pos = [s for s, t in zip(p, y, strict=True) if t == 1]
    neg = [s for s, t in zip(p, y, strict=True) if t == 0]
    wins = sum(1.0 if a > b else 0.5 if a == b else 0.0 for a in pos for b in neg)
    return round(wins / (len(pos) * len(neg)), 6)


def _cases() -> list[tuple[list[float], list[int]]]:
    rng = np.random.default_rng(11)
    out = []
    for i in range(60):
        n = int(rng.integers(2, 80))
        p = rng.random(n)
        if i % 3 == 0:  # isotonic-like outputs: few levels, many ties, some on bin edges
            p = np.round(p * 5) / 5
        y = (rng.random(n) < p).astype(int)
        out.append((p.tolist(), y.tolist()))
    return out


@pytest.mark.parametrize(("p", "y"), _cases())
def test_same_figures_as_before(p: list[float], y: list[int]) -> None:
    assert metrics.brier(p, y) == _old_brier(p, y)
    if 0 < sum(y) < len(y):
        assert metrics.roc_auc(p, y) == pytest.approx(_pairwise_auc(p, y), abs=1e-6)
    else:
        assert metrics.roc_auc(p, y) is None


def test_edge_cases() -> None:
    assert np.isnan(metrics.brier([], []))
    assert metrics.roc_auc([], []) is None
    assert metrics.brier([0.1, 0.3], [0, 0]) == 0.05  # one class only is fine for Brier


def test_the_library_does_the_work(monkeypatch: pytest.MonkeyPatch) -> None:
    import sklearn.metrics

    calls = []
    real = sklearn.metrics.roc_auc_score
    monkeypatch.setattr(
        sklearn.metrics, "roc_auc_score", lambda *a, **k: calls.append(1) or real(*a, **k)
    )
    metrics.roc_auc([0.1, 0.9], [0, 1])
    assert calls


def test_importing_the_auditor_does_not_import_sklearn() -> None:
    code = "import sys, auditor.risk, auditor.stages; print('sklearn' in sys.modules)"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip() == "False"
