"""``kg_requirement``: a stated capital requirement against the Basel / US requirement facts.

The frame lists the requirement(s) the value may denote (one, or a US and a Basel reading of
the same words). A value matching one of them is supported; a mismatch is contradicted only
when the frame names exactly one requirement. "Including the conservation buffer" compares the
value with the requirement plus the buffer, which the graph holds as its own fact.
"""

from __future__ import annotations

from auditor.types import Claim
from auditor.verify.common import (
    Context,
    claim_window,
    contradict,
    label_of,
    support,
    unverifiable,
    valid_during,
    value_text,
)
from knowledge_graphs.model import Fact
from rules.schema import Rule

_WITH_BUFFER = {
    "ratio:cet1-minimum": "ratio:cet1-with-conservation-buffer",
    "ratio:tier1-minimum": "ratio:tier1-with-conservation-buffer",
    "ratio:total-capital-minimum": "ratio:total-capital-with-conservation-buffer",
}


def verify_requirement(claim: Claim, rule: Rule, ctx: Context) -> None:
    kb, q, frame = ctx.kb, claim.quantity, claim.frame
    if q is None or frame is None:
        unverifiable(claim, "no requirement frame to check")
        return
    names = [n for n in frame.slots.get("requirements", claim.subject or "").split("|") if n]
    if frame.slots.get("including") and not set(names) <= set(_WITH_BUFFER.values()):
        mapped = [_WITH_BUFFER.get(n, n if n in _WITH_BUFFER.values() else None) for n in names]
        if not all(mapped):
            unverifiable(claim, "the graph holds no combined requirement for "
                         + " / ".join(label_of(kb, n) for n in names))  # fmt: skip
            return
        names = [m for m in mapped if m]
        claim.subject, claim.subject_label = names[0], label_of(kb, names[0])
    first, last, _ = claim_window(claim, ctx.as_of)
    facts = [
        f for n in names for f in kb.facts_about(n, "minimumRatio") if valid_during(f, first, last)
    ]
    if not facts:
        unverifiable(claim, f"no requirement fact for {label_of(kb, names[0])} at {first}")
        return
    hits = [f for f in facts if _matches(f, claim)]
    if hits:
        support(claim, hits, kb, f"matches {label_of(kb, hits[0].subject)} ({value_text(hits[0])})")
        return
    if len(names) > 1:
        unverifiable(claim, "the words fit " + " and ".join(label_of(kb, n) for n in names)
                     + "; the value matches neither", facts, kb)  # fmt: skip
        return
    contradict(claim, facts, kb, f"the text says {q.text!r} but {label_of(kb, names[0])} is "
               f"{value_text(facts[0])}", rule.hallucination_type, rule)  # fmt: skip


def _matches(f: Fact, c: Claim) -> bool:
    q = c.quantity
    assert q is not None
    if f.value is None:
        return False
    lo, hi = f.value, f.value_max if f.value_max is not None else f.value

    def close(a: float, b: float) -> bool:
        return abs(a - b) <= 0.001

    if q.value_max is not None:
        return close(q.value, lo) and close(q.value_max, hi)
    return close(q.value, lo) or close(q.value, hi)


__all__ = ["verify_requirement"]
