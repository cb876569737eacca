"""Washout intervals: a stated wait between stopping one drug and starting another against
the label's minimum (``washoutBefore`` facts, from the stopped drug to the started one).

Shorter than the label's minimum: contradicted. The label's figure: supported. Longer: not the
label's figure but not unsafe, so unverifiable. With the direction unknown ("X and Y need 14
days between them"), the interval is contradicted only when it is shorter than the minimum in
both directions and supported only when both directions give it. "No need to wait" between
two drugs the label separates is contradicted. A drug class stands for its members and a
combination product for every entry with the same ingredients ("sacubitril/valsartan" and
the label's "valsartan and sacubitril").
"""

from __future__ import annotations

import re

from auditor.extract.units import period_hours
from auditor.memo import IdentityCache
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
from knowledge_graphs.store import KnowledgeBase
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
    """Facts from ``stop`` to ``start``; a class stands for its members, and a combination
    product for every entry with the same ingredients ("sacubitril/valsartan" is the label's
    "valsartan and sacubitril")."""
    kb = ctx.kb
    starts = {x for e in expand_class(start, kb) for x in _same_combination(e, kb)}
    return [
        f
        for s0 in expand_class(stop, kb)
        for s in _same_combination(s0, kb)
        for f in kb.facts_about(s, "washoutBefore")
        if f.subject == s and f.object in starts
    ]


_INGREDIENT_SPLIT = re.compile(r"\s*(?:/|\+|,|\band\b)\s*", re.I)
_COMBOS: IdentityCache[dict[frozenset[str], list[str]]] = IdentityCache()


def _ingredients(label: str) -> frozenset[str]:
    return frozenset(p.lower() for p in _INGREDIENT_SPLIT.split(label.strip()) if p)


def _same_combination(eid: str, kb: KnowledgeBase) -> list[str]:
    """``eid`` and, for a combination product (two or more ingredients in its label), every
    drug whose label names the same ingredient set."""
    e = kb.entity(eid)
    if e is None or not eid.startswith("drug:"):
        return [eid]
    key = _ingredients(e.label)
    if len(key) < 2:
        return [eid]

    def build() -> dict[frozenset[str], list[str]]:
        out: dict[frozenset[str], list[str]] = {}
        for d in kb.entities_of_type("Drug"):
            k = _ingredients(d.label)
            if len(k) >= 2:
                out.setdefault(k, []).append(d.id)
        return out

    return sorted({eid, *_COMBOS.get((kb,), build).get(key, [])})


def _hours(f: Fact) -> float:
    return float(f.value or 0) * (period_hours(f.unit or "") or float("nan"))


def _shown(f: Fact) -> str:
    return f"{f.value:g} {f.unit}{'s' if f.value != 1 else ''}"


__all__ = ["verify_washout"]
