"""Markdown tables and plots of the generation evaluation's figures (``report.summarise``)."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any

from auditor.fmt import pct
from measure.generation.grading import OUTCOMES


def _pct(x: float | None) -> str:
    return pct(x, none="–")


def _rel(r: dict[str, Any], base: dict[str, Any] | None, key: str, fmt: str) -> str:
    if base is None or not base.get(key) or r.get(key) is None:
        return "–"
    return format(100 * (r[key] / base[key] - 1), fmt) + "%"


def answer_table(
    rows: Sequence[dict[str, Any]], front: Sequence[str], baseline: str = "base"
) -> str:
    """Answer-level figures per configuration (accuracy also relative to ``baseline``)."""
    base = next((r for r in rows if r["name"] == baseline), None)
    lines = [
        "| config | answers | answer accuracy | accuracy vs base | wrong | non-answers "
        "| off-target | failed answers | claim FER | fluency (ppl) | tok/s | ms/step "
        "| ms/step vs base | step vs base (median of batches) | TTFT ms | Pareto |",
        "|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|",
    ]
    for r in rows:
        times = "–"
        if base is not None and base["accuracy"] and r["accuracy"] is not None:
            times = f"{r['accuracy'] / base['accuracy']:.1f}x"
        ppl = "–" if r["perplexity"] is None else f"{r['perplexity']:.2f}"
        lines.append(
            f"| {r['name']} | {r['answers']} | {_pct(r['accuracy'])} | {times} "
            f"| {_pct(r['wrong'])} | {_pct(r['non_answer'])} | {_pct(r['off_target'])} "
            f"| {_pct(r['failed_answers'])} | {_pct(r['fer'])} | {ppl} | {r['tok_s']:.1f} "
            f"| {r.get('step_ms', 0.0):.2f} | {_rel(r, base, 'step_ms', '+.1f')} "
            f"| {_median_step(r)} "
            f"| {r['ttft_ms']:.0f} | {'yes' if r['name'] in front else ''} |"
        )
    return "\n".join(lines)


def _median_step(r: dict[str, Any]) -> str:
    m = r.get("step_vs_base_median")
    return "–" if m is None else f"{100 * m:+.1f}%"


def domain_table(rows: Sequence[dict[str, Any]]) -> str:
    """Answer-level figures per configuration and domain."""
    lines = [
        "| config | domain | answers | answer accuracy | wrong | non-answers | off-target "
        "| fluency (ppl) |",
        "|---|---|---|---|---|---|---|---|",
    ]
    for r in rows:
        for d, f in sorted(r["domains"].items()):
            ppl = "–" if f["perplexity"] is None else f"{f['perplexity']:.2f}"
            lines.append(
                f"| {r['name']} | {d} | {f['answers']} | {_pct(f['accuracy'])} "
                f"| {_pct(f['wrong'])} | {_pct(f['non_answer'])} | {_pct(f['off_target'])} "
                f"| {ppl} |"
            )
    return "\n".join(lines)


def table(rows: Sequence[dict[str, Any]], baseline: str = "base") -> str:
    """Claims, spans and speed per configuration; FER and throughput also relative to
    ``baseline`` when present."""
    base = next((r for r in rows if r["name"] == baseline), None)
    head = (
        "| config | answers | claims | FER | FER vs base | coverage | entity spans graph-valid "
        "| value spans graph-valid | tok/s | tok/s vs base | ms/step | ms/step vs base | TTFT ms "
        "|\n"
        "|---|---|---|---|---|---|---|---|---|---|---|---|---|"
    )
    lines = [head]
    for r in rows:
        rel_fer = rel_tok = "–"
        if base is not None and base["fer"] and r["fer"] is not None:
            rel_fer = f"{100 * (r['fer'] / base['fer'] - 1):+.0f}%"
        rel_step = "–"
        if base is not None and base["tok_s"]:
            rel_tok = f"{100 * (r['tok_s'] / base['tok_s'] - 1):+.1f}%"
        if base is not None and base.get("step_ms"):
            rel_step = f"{100 * (r['step_ms'] / base['step_ms'] - 1):+.1f}%"
        lines.append(
            f"| {r['name']} | {r['answers']} | {r['claims']} | {_pct(r['fer'])} | {rel_fer} "
            f"| {_pct(r['coverage'])} | {_pct(r['entity_valid'])} of {r['entity_spans']} "
            f"| {_pct(r['value_valid'])} of {r['value_spans']} | {r['tok_s']:.1f} | {rel_tok} "
            f"| {r.get('step_ms', 0.0):.2f} | {rel_step} | {r['ttft_ms']:.0f} |"
        )
    return "\n".join(lines)


def plot(rows: Sequence[dict[str, Any]], front: Sequence[str], path: Path) -> Path:
    """Answer accuracy against throughput (marker area ~ TTFT), the Pareto configurations
    joined."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    pts = [r for r in rows if r["accuracy"] is not None]
    fig, ax = plt.subplots(figsize=(7.5, 5), dpi=120)
    top = max((r["ttft_ms"] for r in pts), default=1.0) or 1.0
    for r in pts:
        ax.scatter(
            r["tok_s"],
            100 * r["accuracy"],
            s=40 + 400 * r["ttft_ms"] / top,
            color="tab:red" if r["name"] in front else "tab:gray",
            alpha=0.75,
            edgecolors="black" if r["name"] != "base" else "none",
        )
        ax.annotate(
            r["name"],
            (r["tok_s"], 100 * r["accuracy"]),
            textcoords="offset points",
            xytext=(6, 4),
            fontsize=8,
        )
    line = sorted((r for r in pts if r["name"] in front), key=lambda r: r["tok_s"])
    if len(line) > 1:
        ax.plot(
            [r["tok_s"] for r in line], [100 * r["accuracy"] for r in line], "--", color="tab:red"
        )
    ax.set_xlabel("decode throughput (tokens/s, batch)")
    ax.set_ylabel("answer accuracy (%)")
    ax.set_title("Answer accuracy vs throughput (marker area ~ TTFT; red = Pareto)")
    ax.grid(alpha=0.3)
    return _save(fig, path)


_COLOURS = {
    "correct": "tab:green",
    "wrong": "tab:red",
    "non_answer": "tab:gray",
    "off_target": "tab:orange",
}


def plot_outcomes(rows: Sequence[dict[str, Any]], path: Path) -> Path:
    """One horizontal bar per configuration: its answers split by outcome."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots(figsize=(7.5, 0.5 * len(rows) + 1.5), dpi=120)
    names = [r["name"] for r in rows][::-1]
    left = [0.0] * len(names)
    for o in OUTCOMES:
        vals = [100 * (r[o if o != "correct" else "accuracy"] or 0.0) for r in rows][::-1]
        ax.barh(names, vals, left=left, color=_COLOURS[o], label=o.replace("_", "-"))
        left = [a + b for a, b in zip(left, vals, strict=True)]
    ax.set_xlim(0, 100)
    ax.set_xlabel("share of answers (%)")
    ax.set_title("What each configuration's answers are")
    ax.legend(loc="lower right", fontsize=8)
    return _save(fig, path)


def _save(fig: Any, path: Path) -> Path:
    import matplotlib.pyplot as plt

    fig.tight_layout()
    path.parent.mkdir(parents=True, exist_ok=True)
    fig.savefig(path)
    plt.close(fig)
    return path
