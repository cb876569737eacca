"""Washout intervals: a stated wait between stopping one drug and starting another against
the label's minimum (``washoutBefore`` facts, from the stopped drug to the started one).

Shorter than the label's minimum: contradicted. The label's figure: supported. Longer: not the
label's figure but not unsafe, so unverifiable. With the direction unknown ("X and Y need 14
days between them"), the interval is contradicted only when it is shorter than the minimum in
both directions and supported only when both directions give it. "No need to wait" between
two drugs the label separates is contradicted.
"""

from __future__ import annotations

from auditor.extract.units import period_hours
from auditor.types import Claim
from auditor.verify.common import (
    Context,
    contradict,
    expand_class,
    label_of,
    support,
    unverifiable,
)
from knowledge_graphs.model import Fact
from rules.schema import Rule


def verify_washout(claim: Claim, rule: Rule, ctx: Context) -> None:
    kb = ctx.kb
    a, b = claim.subject or "", claim.object or ""
    stated = claim.qualifiers.get("interval", "")
    hours = float(claim.qualifiers.get("interval_hours", "nan"))
    known = claim.qualifiers.get("direction") != "unknown"
    fwd = _washouts(a, b, ctx)
    back = [] if known else _washouts(b, a, ctx)
    pair = f"{label_of(kb, a)} and {label_of(kb, b)}"
    if known and not fwd:
        unverifiable(
            claim, f"the graph has no labelled washout from {label_of(kb, a)} to {label_of(kb, b)}"
        )
        return
    if not known and not (fwd and back):
        unverifiable(
            claim,
            "the text does not say which drug is stopped first, and the graph has a labelled "
            f"washout for only one direction between {pair}" if fwd or back
            else f"the graph has no labelled washout between {pair}",
        )  # fmt: skip
        return
    facts = fwd + back
    needs = sorted({_hours(f) for f in facts})
    if claim.negated:
        contradict(
            claim, facts, kb, f"the text says no wait is needed, but the label requires "
            f"{_shown(facts[0])} between {pair}", "negation_flip", rule,
        )  # fmt: skip
        return
    if hours < needs[0] - 1e-9:
        contradict(
            claim,
            facts,
            kb,
            f"the text says {stated}, but the label's minimum is {_shown(facts[0])}"
            + ("" if known else " (in either order)"),
            rule.hallucination_type,
            rule,
        )
    elif len(needs) == 1 and abs(hours - needs[0]) < 1e-9:
        support(claim, facts, kb, f"{stated} is the label's minimum")
    else:
        unverifiable(
            claim,
            f"{stated} is longer than the label's minimum of {_shown(facts[0])}"
            if hours > needs[-1]
            else f"the label's minimum depends on which drug is stopped first ({stated} stated)",
            facts,
            kb,
        )


def _washouts(stop: str, start: str, ctx: Context) -> list[Fact]:
    """Facts from ``stop`` to ``start``; a class stands for its members."""
    starts = set(expand_class(start, ctx.kb))
    return [
        f
        for s in expand_class(stop, ctx.kb)
        for f in ctx.kb.facts_about(s, "washoutBefore")
        if f.object in starts
    ]


def _hours(f: Fact) -> float:
    return float(f.value or 0) * (period_hours(f.unit or "") or float("nan"))


def _shown(f: Fact) -> str:
    return f"{f.value:g} {f.unit}{'s' if f.value != 1 else ''}"


__all__ = ["verify_washout"]
