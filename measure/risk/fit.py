"""Fit the calibrated risk model on the generated benchmark and save ``model.json``.

Logistic regression on the standardised audit features (:mod:`auditor.risk.features`), then
isotonic calibration per domain on out-of-fold decision values (5-fold, on the training
split), all with scikit-learn; the answers of :mod:`measure.risk.data` are split 60/40 into
training and held-out, stratified by domain, view and label, with a fixed seed. Metrics,
reliability curves and operating points (per-domain thresholds for target false-positive
rates) come from the held-out split, computed with the model *as saved* (rounded), so what
ships is what was measured. ``kgaudit eval --fit`` runs :func:`fit_and_save`.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

import numpy as np
import orjson

from auditor.risk.features import DOMAINS, FEATURES, contradicted, features
from auditor.risk.metrics import reliability_table, summary
from auditor.risk.model import MODEL_FORMAT, MODEL_PATH, OperatingPoint, RiskModel
from measure.risk.data import VIEWS, Row, build_rows

TARGET_FPRS = (0.01, 0.05, 0.10)
HELD_OUT = 0.4
C = 1.0  # inverse L2 regularisation strength of the logistic regression


def fit_and_save(
    auditor: Any,
    *,
    seed: int = 7,
    per_domain: int = 300,
    path: Path = MODEL_PATH,
    fuzzy: bool = True,
    progress: Callable[[str], None] | None = None,
) -> dict[str, Any]:
    """Recalibrate fuzzy linking (unless ``fuzzy=False``), fit the risk model, save both;
    returns the report :func:`describe` prints."""
    report: dict[str, Any] = {}
    if fuzzy:
        from measure.evaluation.fuzzy_linking import calibrate_and_save

        if progress:
            progress("fuzzy-linking calibration")
        fz = calibrate_and_save(auditor, seed=seed, per_domain=max(1000, per_domain))
        keep = ("version", "tau", "margin", "seed", "test_seed", "per_domain")
        report["fuzzy"] = {k: fz[k] for k in keep} | {
            "test": {d: fz["test"][d] for d in (*DOMAINS, "all") if d in fz["test"]}
        }
    rows = build_rows(auditor, seed=seed, per_domain=per_domain, progress=progress)
    doc = fit(rows, seed=seed)
    doc["fitted_on"] |= {
        "per_domain": per_domain,
        "kg_version": auditor.kb.kg_version,
        "rules_version": auditor.rules.version,
    }
    path.write_bytes(orjson.dumps(doc, option=orjson.OPT_INDENT_2 | orjson.OPT_SORT_KEYS) + b"\n")
    keep = ("version", "metrics", "operating_points", "fitted_on")
    return report | {"model": str(path)} | {k: doc[k] for k in keep}


def fit(rows: Sequence[Row], *, seed: int) -> dict[str, Any]:
    """The model document (see :class:`auditor.risk.model.RiskModel`) fitted on ``rows``."""
    from sklearn.isotonic import IsotonicRegression
    from sklearn.linear_model import LogisticRegression
    from sklearn.model_selection import StratifiedKFold, cross_val_predict

    x = np.array([features(r.result) for r in rows], dtype=np.float64)
    y = np.array([r.label for r in rows], dtype=int)
    dom = np.array([r.case.domain for r in rows])
    held = split(rows, seed)
    train = ~held
    mean = x[train].mean(axis=0)
    scale = x[train].std(axis=0)
    scale[scale == 0] = 1.0
    z = (x - mean) / scale
    lr = LogisticRegression(C=C, max_iter=5000)
    folds = StratifiedKFold(5, shuffle=True, random_state=seed)
    oof = cross_val_predict(lr, z[train], y[train], cv=folds, method="decision_function")
    lr.fit(z[train], y[train])
    calibration = {}
    for d in (*DOMAINS, "all"):
        sel = np.ones(int(train.sum()), bool) if d == "all" else dom[train] == d
        if sel.sum() < 2:
            continue
        iso = IsotonicRegression(out_of_bounds="clip", y_min=0.0, y_max=1.0)
        iso.fit(oof[sel], y[train][sel])
        calibration[d] = {"x": _r(iso.X_thresholds_), "y": _r(iso.y_thresholds_)}
    model = {
        "features": list(FEATURES),
        "mean": _r(mean),
        "scale": _r(scale),
        "coef": _r(lr.coef_[0]),
        "intercept": round(float(lr.intercept_[0]), 8),
        "calibration": calibration,
        "estimator": f"LogisticRegression(C={C}) + IsotonicRegression per domain",
    }
    doc: dict[str, Any] = {"format": MODEL_FORMAT, "version": "", "model": model}
    doc["operating_points"] = {}
    doc["fitted_on"] = {"seed": seed, "views": list(VIEWS), "held_out": HELD_OUT}
    rm = RiskModel.from_doc(doc)
    risk = np.array([rm.predict(x[i], dom[i]) for i in range(len(rows))])
    evidence = np.array([contradicted(r.result) for r in rows])
    view = np.array([r.view for r in rows])
    metrics: dict[str, Any] = {}
    curves: dict[str, Any] = {}
    for d in (*DOMAINS, "all"):
        sel = held & ((dom == d) if d != "all" else True)
        if not sel.any():
            continue
        metrics[d] = summary(risk[sel], y[sel]) | {
            "evidence_only": _rates(evidence[sel], y[sel]),
            "by_view": {v: summary(risk[sel & (view == v)], y[sel & (view == v)]) for v in VIEWS},
        }
        curves[d] = reliability_table(risk[sel], y[sel])
        points = operating_points(risk[sel], y[sel], evidence[sel])
        doc["operating_points"][d] = [p.to_dict() for p in points]
    digest = hashlib.sha256(
        orjson.dumps([model, doc["operating_points"]], option=orjson.OPT_SORT_KEYS)
    )
    doc["version"] = "risk-" + digest.hexdigest()[:12]
    return doc | {"metrics": metrics, "calibration_curves": curves}


def split(rows: Sequence[Row], seed: int) -> np.ndarray:
    """Held-out mask: ``HELD_OUT`` of each (domain, view, label) group, drawn with ``seed``."""
    rng = np.random.RandomState(seed)
    held = np.zeros(len(rows), bool)
    groups: dict[tuple[str, str, int], list[int]] = {}
    for i, r in enumerate(rows):
        groups.setdefault((r.case.domain, r.view, r.label), []).append(i)
    for key in sorted(groups):
        idx = np.array(groups[key])
        held[rng.permutation(idx)[: round(HELD_OUT * len(idx))]] = True
    return held


def operating_points(
    risk: np.ndarray, y: np.ndarray, evidence: np.ndarray, targets: Sequence[float] = TARGET_FPRS
) -> list[OperatingPoint]:
    """For each target FPR, the lowest risk threshold whose flags (risk ≥ threshold, or
    evidence of a hallucination) keep the false-positive rate at or below it."""
    out = []
    for target in targets:
        chosen: float | None = None
        for t in sorted(set(risk.tolist())):
            if _rates(evidence | (risk >= t), y)["fpr"] <= target:
                chosen = t
                break
        flags = evidence | (risk >= chosen) if chosen is not None else evidence
        r = _rates(flags, y)
        out.append(OperatingPoint(target, chosen, r["fpr"], r["tpr"]))
    return out


def _rates(flags: np.ndarray, y: np.ndarray) -> dict[str, float]:
    neg, pos = y == 0, y == 1
    fpr = float(flags[neg].mean()) if neg.any() else 0.0
    tpr = float(flags[pos].mean()) if pos.any() else 0.0
    return {"fpr": round(fpr, 4), "tpr": round(tpr, 4)}


def _r(a: np.ndarray) -> list[float]:
    return [round(float(v), 8) for v in a]


def metrics_table(metrics: dict[str, Any], title: str) -> str:
    """Brier / ECE / AUC per domain as a text table."""
    lines = [
        f"\n{title}",
        f"{'domain':<9}{'answers':>8}{'halluc.':>8}{'brier':>8}{'ECE':>8}{'AUC':>8}",
    ]
    for d, m in metrics.items():
        auc = f"{m['roc_auc']:.3f}" if m["roc_auc"] is not None else "n/a"
        lines.append(
            f"{d:<9}{m['answers']:>8}{m['hallucinated']:>8}{m['brier']:>8.4f}{m['ece']:>8.4f}{auc:>8}"
        )
    return "\n".join(lines)


def describe(report: dict[str, Any]) -> str:
    """The fit report as text: fuzzy linking, held-out risk metrics, operating points."""
    lines = []
    if "fuzzy" in report:
        fz = report["fuzzy"]
        lines += [f"\nfuzzy linking {fz['version']} (calibrated on seed {fz['seed']}, "
                  f"measured on seed {fz['test_seed']}, {fz['per_domain']} variants per domain)",
                  f"{'domain':<9}{'mentions':>9}{'prec':>8}{'recall':>8}{'tau':>7}{'margin':>8}"]  # fmt: skip
        for d, m in fz["test"].items():
            tau, margin = fz["tau"].get(d, ""), fz["margin"].get(d, "")
            lines.append(
                f"{d:<9}{m['mentions']:>9}{m['precision']:>8.3f}{m['recall']:>8.3f}"
                f"{tau!s:>7}{margin!s:>8}"
            )
    lines.append(
        metrics_table(report["metrics"], f"risk model {report['version']} (held-out split; "
                      f"{report['model']})")
    )  # fmt: skip
    lines.append("operating points (flag = risk ≥ threshold, or a contradiction):")
    for d, points in report["operating_points"].items():
        cells = [
            f"{p['target_fpr']:.0%}: "
            + (f"≥{p['threshold']:.3f}" if p["threshold"] is not None else "evidence only")
            + f" (fpr {p['fpr']:.3f}, tpr {p['tpr']:.3f})"
            for p in points
        ]
        lines.append(f"  {d:<8} " + "; ".join(cells))
    return "\n".join(lines)
