"""Per-configuration figures of the generation evaluation, the Pareto front, a table and a plot.

FER is pooled over the answers (contradicted / (supported + contradicted) of all claims), as is
coverage (verifiable claims / claims). An entity span is a mention the auditor's linker finds
in an answer; it is graph-valid when one of its candidate entities lies in the question's
neighbourhood (the configuration's radius; radius 1 for unconstrained runs). A value span is
a number in an answer; it is graph-valid when it occurs in a value form or an entity name of
that neighbourhood.
Throughput is decode tokens per second of decode wall time; TTFT is constraint build + prefill.

>>> pareto([{"name": "a", "fer": 0.2, "tok_s": 10, "ttft_ms": 5},
...         {"name": "b", "fer": 0.1, "tok_s": 9, "ttft_ms": 5},
...         {"name": "c", "fer": 0.3, "tok_s": 8, "ttft_ms": 6}])
['a', 'b']
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from auditor.generation.evaluate import Answer


def _share(hits: int, total: int) -> float | None:
    return hits / total if total else None


def summarise(answers: Sequence[Answer], timings: Sequence[dict[str, Any]]) -> list[dict[str, Any]]:
    """One row of figures per configuration, in the order the configurations first appear."""
    by: dict[str, list[Answer]] = defaultdict(list)
    for a in answers:
        by[a.config].append(a)
    tim: dict[str, list[dict[str, Any]]] = defaultdict(list)
    for t in timings:
        tim[t["config"]].append(t)
    rows = []
    for name, group in by.items():
        sup = sum(a.counts.get("supported", 0) for a in group)
        con = sum(a.counts.get("contradicted", 0) for a in group)
        unv = sum(a.counts.get("unverifiable", 0) for a in group)
        claims = sup + con + unv
        ents = [ok for a in group for _, ok in a.entity_spans]
        vals = [ok for a in group for _, ok in a.value_spans]
        t = tim[name]
        decode_s = sum(x["decode_s"] for x in t)
        tokens = sum(x["decode_tokens"] for x in t)
        rows.append(
            {
                "name": name,
                "answers": len(group),
                "claims": claims,
                "supported": sup,
                "contradicted": con,
                "unverifiable": unv,
                "fer": _share(con, sup + con),
                "coverage": _share(sup + con, claims),
                "entity_spans": len(ents),
                "entity_valid": _share(sum(ents), len(ents)),
                "value_spans": len(vals),
                "value_valid": _share(sum(vals), len(vals)),
                "tok_s": tokens / decode_s if decode_s > 0 else 0.0,
                # the batch's decode step (same steps whatever the answers' lengths)
                "step_ms": 1000 * decode_s / max(1, sum(x.get("decode_steps", 0) for x in t)),
                "ttft_ms": 1000 * sum(x["ttft_s"] for x in t) / max(1, len(t)),
                "build_ms_per_question": 1000
                * sum(x["build_s"] for x in t)
                / max(1, sum(x["rows"] for x in t)),
                "mask_us_per_token": 1e6 * sum(x["mask_s"] for x in t) / max(1, tokens),
                "answers_with_seeds": _share(sum(a.seeds > 0 for a in group), len(group)),
            }
        )
    return rows


def pareto(rows: Sequence[dict[str, Any]]) -> list[str]:
    """Names of the configurations no other one beats on FER (lower), throughput (higher) and
    TTFT (lower) at once; rows without a FER (nothing verifiable) are left out."""
    pts = [r for r in rows if r["fer"] is not None]

    def dominates(a: dict[str, Any], b: dict[str, Any]) -> bool:
        no_worse = (
            a["fer"] <= b["fer"] and a["tok_s"] >= b["tok_s"] and a["ttft_ms"] <= b["ttft_ms"]
        )
        better = a["fer"] < b["fer"] or a["tok_s"] > b["tok_s"] or a["ttft_ms"] < b["ttft_ms"]
        return no_worse and better

    return [r["name"] for r in pts if not any(dominates(o, r) for o in pts if o is not r)]


def _pct(x: float | None) -> str:
    return "–" if x is None else f"{100 * x:.1f}%"


def table(rows: Sequence[dict[str, Any]], front: Sequence[str], baseline: str = "base") -> str:
    """A Markdown table; FER and throughput also relative to ``baseline`` when present."""
    base = next((r for r in rows if r["name"] == baseline), None)
    head = (
        "| config | answers | claims | FER | FER vs base | coverage | entity spans graph-valid "
        "| value spans graph-valid | tok/s | tok/s vs base | ms/step | ms/step vs base | TTFT ms "
        "| Pareto |\n"
        "|---|---|---|---|---|---|---|---|---|---|---|---|---|---|"
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
            f"| {r.get('step_ms', 0.0):.2f} | {rel_step} | {r['ttft_ms']:.0f} | {'yes' if r['name'] in front else ''} |"
        )
    return "\n".join(lines)


def plot(rows: Sequence[dict[str, Any]], front: Sequence[str], path: Path) -> Path:
    """FER against throughput (marker area ~ TTFT), the Pareto configurations joined."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    pts = [r for r in rows if r["fer"] is not None]
    fig, ax = plt.subplots(figsize=(7.5, 5), dpi=120)
    top = max((r["ttft_ms"] for r in pts), default=1.0) or 1.0
    for r in pts:
        on = r["name"] in front
        ax.scatter(
            r["tok_s"],
            100 * r["fer"],
            s=40 + 400 * r["ttft_ms"] / top,
            color="tab:red" if on else "tab:gray",
            alpha=0.75,
            edgecolors="black" if r["name"].startswith("kg") else "none",
        )
        ax.annotate(
            r["name"],
            (r["tok_s"], 100 * r["fer"]),
            textcoords="offset points",
            xytext=(6, 4),
            fontsize=8,
        )
    line = sorted((r for r in pts if r["name"] in front), key=lambda r: r["tok_s"])
    if len(line) > 1:
        ax.plot([r["tok_s"] for r in line], [100 * r["fer"] for r in line], "--", color="tab:red")
    ax.set_xlabel("decode throughput (tokens/s, batch)")
    ax.set_ylabel("factual error rate of the answers (%)")
    ax.set_title("KG-constrained decoding: FER vs throughput (marker area ~ TTFT; red = Pareto)")
    ax.grid(alpha=0.3)
    fig.tight_layout()
    path.parent.mkdir(parents=True, exist_ok=True)
    fig.savefig(path)
    plt.close(fig)
    return path
