"""Figures and tables shared by every rendered format of the report (HTML, PDF); the
number formats themselves are :mod:`auditor.fmt`.

>>> pct(0.18181), pct(None), num(12345), score(0.5)
('18.2%', 'n/a', '12,345', '50.0%')
"""

from __future__ import annotations

from auditor.fmt import num, pct


def score(x: float | None) -> str:
    """A trust score or coverage, shown as a percentage like in ``kgaudit audit``."""
    return pct(x)


def label(name: str | None) -> str:
    """``numeric_error`` -> ``numeric error``."""
    return "unknown" if not name else name.replace("_", " ")


RISK_HEAD = ["domain", "target FPR", "risk threshold", "held-out FPR", "held-out TPR",
             "in force: flagged / audits"]  # fmt: skip


def operating_point_rows(risk: dict) -> list[list[str]]:  # type: ignore[type-arg]
    """The shipped operating points of the report's domains, with the audits flagged at
    each one in the period (``—`` where no audit used it)."""
    used = {(p["domain"], p["target_fpr"]): p for p in risk.get("operating_points_in_force", [])}
    rows = []
    for dom, points in (risk.get("shipped_operating_points") or {}).items():
        for p in points:
            u = used.get((dom, p["target_fpr"]))
            rows.append(
                [
                    dom,
                    pct(p["target_fpr"]),
                    "evidence only" if p["threshold"] is None else f"{p['threshold']:.3f}",
                    pct(p["fpr"]),
                    pct(p["tpr"]),
                    f"{num(u['flagged'])} / {num(u['audits'])}" if u else "—",
                ]
            )
    return rows


def risk_line(risk: dict) -> str:  # type: ignore[type-arg]
    """One sentence on the period's risk figures."""
    if not risk.get("audits_with_risk"):
        return "No audit in this period carries a calibrated risk."
    return (
        f"Calibrated risk (model {risk.get('model_version') or 'n/a'}) on "
        f"{num(risk['audits_with_risk'])} audits: mean {pct(risk['mean'])}, median "
        f"{pct(risk['p50'])}, 90th percentile {pct(risk['p90'])}."
    )


__all__ = ["RISK_HEAD", "label", "num", "operating_point_rows", "pct", "risk_line", "score"]
