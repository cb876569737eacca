"""Per-configuration figures of the generation evaluation, the Pareto front, tables and plots.

Answer-level figures (``measure.generation.grading``) count every answer, with or without a
claim: answer accuracy (a supported claim about the asked subject and predicate), wrong
answers (a contradicted claim, or a claim about another subject), non-answers (no claim about
the asked subject), off-target (claims about the subject, none of them a supported answer).
*Failed answers* is the share of all answers the audit fails (one contradicted claim or more);
*fluency* is the perplexity of the answers under the unconstrained model
(``measure.generation.fluency``). The same figures are given per domain.

Claim-level FER is pooled over the answers (contradicted / (supported + contradicted) of all claims), as is
coverage (verifiable claims / claims). An entity span is a mention the auditor's linker finds
in an answer; it is graph-valid when one of its candidate entities lies in the question's
neighbourhood (the configuration's radius; radius 1 for unconstrained runs). A value span is
a number in an answer; it is graph-valid when it occurs in a value form or an entity name of
that neighbourhood.
Throughput is decode tokens per second of decode wall time; TTFT is constraint build + prefill.

Tables and plots are in :mod:`measure.generation.report_views`.

>>> pareto([{"name": "a", "accuracy": 0.2, "tok_s": 10, "ttft_ms": 5},
...         {"name": "b", "accuracy": 0.9, "tok_s": 9, "ttft_ms": 5},
...         {"name": "c", "accuracy": 0.1, "tok_s": 8, "ttft_ms": 6}])
['a', 'b']
"""

from __future__ import annotations

import statistics
from collections import defaultdict
from collections.abc import Sequence
from typing import Any

from measure.generation.evaluate import CONFIGS, Answer
from measure.generation.fluency import perplexity
from measure.generation.grading import OUTCOMES, rates


def _share(hits: int, total: int) -> float | None:
    return hits / total if total else None


def answer_figures(group: Sequence[Answer]) -> dict[str, Any]:
    """Answer-level figures of a group of answers (all of them count)."""
    share = rates(a.outcome for a in group)
    failed = sum(a.counts.get("contradicted", 0) > 0 for a in group)
    return {
        "answers": len(group),
        "accuracy": share["correct"],
        "wrong": share["wrong"],
        "non_answer": share["non_answer"],
        "off_target": share["off_target"],
        "outcomes": {o: sum(a.outcome == o for a in group) for o in OUTCOMES},
        "failed_answers": _share(failed, len(group)),
        "perplexity": perplexity((a.nll, a.answer_tokens) for a in group),
    }


def summarise(answers: Sequence[Answer], timings: Sequence[dict[str, Any]]) -> list[dict[str, Any]]:
    """One row of figures per configuration, in the order the configurations first appear;
    ``domains`` holds the answer-level figures per domain."""
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
        domains: dict[str, list[Answer]] = defaultdict(list)
        for a in group:
            domains[a.question.domain].append(a)
        rows.append(
            {
                "name": name,
                "constrained": name in CONFIGS and CONFIGS[name].constrained,
                **answer_figures(group),
                "domains": {d: answer_figures(g) for d, g in domains.items()},
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
    base = [_step(x) for x in tim.get("base", [])]
    for row in rows:  # robust to a machine whose speed drifts: each batch against base's
        mine = [_step(x) for x in tim[row["name"]]]
        ratios = [m / b for m, b in zip(mine, base, strict=False) if m and b]
        row["step_vs_base_median"] = statistics.median(ratios) - 1 if ratios else None
    return rows


def _step(t: dict[str, Any]) -> float | None:
    """One batch's decode step (s), or None when it took no decode step."""
    return t["decode_s"] / t["decode_steps"] if t.get("decode_steps") else None


def pareto(rows: Sequence[dict[str, Any]]) -> list[str]:
    """Names of the configurations no other one beats on answer accuracy (higher), throughput
    (higher) and TTFT (lower) at once; rows without answers are left out."""
    pts = [r for r in rows if r["accuracy"] is not None]

    def dominates(a: dict[str, Any], b: dict[str, Any]) -> bool:
        no_worse = (
            a["accuracy"] >= b["accuracy"]
            and a["tok_s"] >= b["tok_s"]
            and a["ttft_ms"] <= b["ttft_ms"]
        )
        better = (
            a["accuracy"] > b["accuracy"] or a["tok_s"] > b["tok_s"] or a["ttft_ms"] < b["ttft_ms"]
        )
        return no_worse and better

    return [r["name"] for r in pts if not any(dominates(o, r) for o in pts if o is not r)]
