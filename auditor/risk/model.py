"""The fitted risk model as data: standardisation, logistic-regression coefficients, isotonic
calibration breakpoints per domain, and operating points — read from ``model.json``.

Prediction needs only numpy (no scikit-learn import, no pickles): the logistic decision value
``w·(x − μ)/σ + b`` is mapped through the domain's isotonic calibration with linear
interpolation between its breakpoints (exactly what ``IsotonicRegression.predict`` does, with
``out_of_bounds="clip"``).
"""

from __future__ import annotations

import threading
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np
import orjson

MODEL_PATH = Path(__file__).with_name("model.json")
MODEL_FORMAT = 1
RISK_DIGITS = 4  # risk is reported, and thresholds are chosen, at this precision
_CACHE: dict[Path, tuple[float, RiskModel]] = {}
_LOCK = threading.Lock()


@dataclass(frozen=True)
class OperatingPoint:
    """A per-domain threshold chosen for a target false-positive rate on the held-out split."""

    target_fpr: float
    threshold: float | None  # None: no risk threshold keeps that FPR; evidence alone flags
    fpr: float  # achieved on the held-out split (evidence flags included)
    tpr: float

    def to_dict(self) -> dict[str, Any]:
        return {"target_fpr": self.target_fpr, "threshold": self.threshold, "fpr": self.fpr,
                "tpr": self.tpr}  # fmt: skip


@dataclass(frozen=True)
class RiskModel:
    version: str
    features: tuple[str, ...]
    mean: np.ndarray
    scale: np.ndarray
    coef: np.ndarray
    intercept: float
    calibration: dict[str, tuple[np.ndarray, np.ndarray]]  # domain → (x, y) breakpoints
    operating_points: dict[str, list[OperatingPoint]]
    doc: dict[str, Any] = field(default_factory=dict)  # the whole artefact (metrics, curves)

    def decision(self, x: list[float] | np.ndarray) -> float:
        z = (np.asarray(x, dtype=np.float64) - self.mean) / self.scale
        return float(z @ self.coef + self.intercept)

    def predict(self, x: list[float] | np.ndarray, domain: str) -> float:
        """Calibrated probability that the answer holds at least one hallucination."""
        xs, ys = self.calibration.get(domain) or self.calibration["all"]
        p = float(np.clip(np.interp(self.decision(x), xs, ys), 0.0, 1.0))
        return round(p, RISK_DIGITS)

    def operating_point(self, domain: str, fpr: float) -> OperatingPoint | None:
        """The shipped point with the largest target FPR not above ``fpr``."""
        points = self.operating_points.get(domain) or self.operating_points.get("all", [])
        fitting = [p for p in points if p.target_fpr <= fpr + 1e-12]
        return max(fitting, key=lambda p: p.target_fpr) if fitting else None

    @property
    def targets(self) -> list[float]:
        return sorted({p.target_fpr for ps in self.operating_points.values() for p in ps})

    @classmethod
    def from_doc(cls, doc: dict[str, Any]) -> RiskModel:
        if doc.get("format") != MODEL_FORMAT:
            raise ValueError(f"risk model format {doc.get('format')!r} is not {MODEL_FORMAT}")
        m = doc["model"]
        return cls(
            version=str(doc["version"]),
            features=tuple(m["features"]),
            mean=np.array(m["mean"], dtype=np.float64),
            scale=np.array(m["scale"], dtype=np.float64),
            coef=np.array(m["coef"], dtype=np.float64),
            intercept=float(m["intercept"]),
            calibration={
                d: (np.array(c["x"], dtype=np.float64), np.array(c["y"], dtype=np.float64))
                for d, c in m["calibration"].items()
            },
            operating_points={
                d: [OperatingPoint(**p) for p in ps] for d, ps in doc["operating_points"].items()
            },
            doc=doc,
        )

    @classmethod
    def load(cls, path: Path = MODEL_PATH) -> RiskModel:
        return cls.from_doc(orjson.loads(path.read_bytes()))


def load_model(path: Path = MODEL_PATH) -> RiskModel | None:
    """The shipped model (re-read when the file changes); None when there is none."""
    try:
        stamp = path.stat().st_mtime
    except OSError:
        return None
    with _LOCK:
        hit = _CACHE.get(path)
        if hit is None or hit[0] != stamp:
            hit = _CACHE[path] = (stamp, RiskModel.load(path))
        return hit[1]
