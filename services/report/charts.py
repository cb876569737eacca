"""The report's six charts as PNG bytes, drawn with matplotlib's object API (Agg canvas).

No ``pyplot``: each chart is its own ``Figure``, so charts can be drawn from several API
threads at once, and nothing needs a display. PNGs carry no timestamp metadata.
"""

from __future__ import annotations

import io
from collections.abc import Callable
from datetime import date, timedelta
from typing import Any

from services.report.fmt import label

WIDTH_IN, HEIGHT_IN, DPI = 7.0, 3.2, 110
COLORS = {"finance": "#1f77b4", "medical": "#d62728", "legal": "#2ca02c", "auto": "#7f7f7f"}


def _figure() -> tuple[Any, Any]:
    from matplotlib.figure import Figure

    fig = Figure(figsize=(WIDTH_IN, HEIGHT_IN), dpi=DPI, layout="constrained")
    return fig, fig.add_subplot()


def _png(fig: Any) -> bytes:
    from matplotlib.backends.backend_agg import FigureCanvasAgg

    FigureCanvasAgg(fig)
    buf = io.BytesIO()
    fig.savefig(buf, format="png", dpi=DPI, metadata={"Software": None})
    return buf.getvalue()


def _integer_ticks() -> Any:
    from matplotlib.ticker import MaxNLocator

    return MaxNLocator(integer=True)


def _empty(ax: Any, what: str) -> None:
    ax.text(
        0.5,
        0.5,
        f"no {what} in this period",
        ha="center",
        va="center",
        transform=ax.transAxes,
        color="#555555",
    )
    ax.set_xticks([])
    ax.set_yticks([])


def fer_over_time(report: dict[str, Any]) -> bytes:
    fig, ax = _figure()
    series: dict[str, list[tuple[date, float]]] = {}
    for p in report["fer_over_time"]:
        if p["fer"] is not None:
            series.setdefault(p["domain"], []).append(
                (date.fromisoformat(p["date"]), 100 * p["fer"])
            )
    if not series:
        _empty(ax, "verifiable claims")
    for dom, pts in sorted(series.items()):
        xs, ys = zip(*pts, strict=True)
        ax.plot(xs, ys, marker="o", markersize=3, label=dom, color=COLORS.get(dom))
    if series:
        period = report["parameters"]
        ax.set_xlim(
            date.fromisoformat(period["from"]) - timedelta(days=1),
            date.fromisoformat(period["to"]) + timedelta(days=1),
        )
        ax.set_ylabel("FER (%)")
        ax.set_ylim(0, 105)
        ax.legend(loc="upper left", fontsize=8)
        fig.autofmt_xdate()
    ax.set_title("Factual error rate per day and domain", fontsize=10)
    return _png(fig)


def trust_histogram(report: dict[str, Any]) -> bytes:
    fig, ax = _figure()
    bins = report["summary"]["trust_score"]["histogram"]
    if not report["summary"]["trust_score"]["audits_scored"]:
        _empty(ax, "scored audits")
    else:
        ax.bar(
            [100 * b["lo"] for b in bins],
            [b["audits"] for b in bins],
            width=9.0,
            align="edge",
            color="#4c72b0",
        )
        ax.set_xlabel("trust score (%)")
        ax.set_ylabel("audits")
        ax.yaxis.set_major_locator(_integer_ticks())
        ax.set_xlim(0, 100)
    ax.set_title("Trust-score distribution", fontsize=10)
    return _png(fig)


def _barh(rows: list[tuple[str, int]], title: str, xlabel: str, what: str, color: str) -> bytes:
    fig, ax = _figure()
    if not rows:
        _empty(ax, what)
    else:
        names, values = zip(*reversed(rows), strict=True)
        ax.barh(range(len(values)), values, color=color)
        ax.set_yticks(range(len(values)), names, fontsize=8)
        ax.xaxis.set_major_locator(_integer_ticks())
        ax.set_xlabel(xlabel)
    ax.set_title(title, fontsize=10)
    return _png(fig)


def hallucination_types(report: dict[str, Any]) -> bytes:
    return _barh(
        [(label(r["type"]), r["claims"]) for r in report["hallucination_types"]],
        "Hallucination types",
        "contradicted claims",
        "contradicted claims",
        "#dd8452",
    )


def top_rules(report: dict[str, Any]) -> bytes:
    return _barh(
        [(r["rule_id"], r["contradicted"]) for r in report["top_failing_rules"]],
        "Top failing rules",
        "contradicted claims",
        "failing rules",
        "#c44e52",
    )


def citation_outcomes(report: dict[str, Any]) -> bytes:
    return _barh(
        [(label(r["outcome"]), r["citations"]) for r in report["citation_outcomes"]],
        "Citation outcomes",
        "citations",
        "citations",
        "#55a868",
    )


def risk_calibration(report: dict[str, Any]) -> bytes:
    """The shipped model's held-out reliability curves (mean risk vs observed rate per bin)
    for the report's domains, with the risk thresholds in force as vertical lines."""
    fig, ax = _figure()
    risk = report.get("risk") or {}
    curves = risk.get("calibration_curves") or {}
    drawn = False
    for dom, bins in curves.items():
        pts = [(b["mean_risk"], b["observed"]) for b in bins if b.get("count")]
        if not pts:
            continue
        xs, ys = zip(*pts, strict=True)
        ax.plot(xs, ys, marker="o", markersize=3, label=f"{dom} (held-out)",
                color=COLORS.get(dom, "#000000"), linestyle="-" if dom != "all" else ":")  # fmt: skip
        drawn = True
    if not drawn:
        _empty(ax, "calibration curve (no risk model installed)")
    else:
        ax.plot([0, 1], [0, 1], color="#999999", linewidth=0.8, linestyle="--",
                label="perfect calibration")  # fmt: skip
        for p in risk.get("operating_points_in_force") or []:
            if p.get("threshold") is not None:
                ax.axvline(p["threshold"], color=COLORS.get(p["domain"], "#555555"),
                           linewidth=1.0, linestyle="-.")  # fmt: skip
                ax.annotate(f"{p['domain']} @ FPR {p['target_fpr']:.0%}", (p["threshold"], 0.02),
                            fontsize=7, rotation=90, va="bottom", ha="right")  # fmt: skip
        ax.set_xlim(0, 1)
        ax.set_ylim(0, 1.02)
        ax.set_xlabel("predicted risk")
        ax.set_ylabel("observed share hallucinated")
        ax.legend(loc="upper left", fontsize=7)
    ax.set_title("Risk calibration and operating points in force", fontsize=10)
    return _png(fig)


CHARTS: list[tuple[str, str, Callable[[dict[str, Any]], bytes]]] = [
    ("fer_over_time", "FER over time per domain", fer_over_time),
    ("trust_histogram", "Trust-score histogram", trust_histogram),
    ("hallucination_types", "Hallucination types", hallucination_types),
    ("top_failing_rules", "Top failing rules", top_rules),
    ("citation_outcomes", "Citation outcomes", citation_outcomes),
    ("risk_calibration", "Risk calibration and operating points", risk_calibration),
]


def render_charts(report: dict[str, Any]) -> list[tuple[str, str, bytes]]:
    """``(name, caption, png)`` for every chart, in report order."""
    return [(name, caption, draw(report)) for name, caption, draw in CHARTS]


__all__ = ["CHARTS", "render_charts"]
