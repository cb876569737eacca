"""Dispensing status: a stated federal controlled-substance schedule against the DEA
schedules (``controlledSchedule`` facts, dated where the schedule changed) and a stated
over-the-counter status against drugs every US product of which is prescription-only
(``prescriptionStatus``).

Only what the graph states is used: a drug with no schedule fact is not thereby "not
controlled", and a drug with no ``rx-only`` fact is not thereby sold over the counter.
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
)
from rules.schema import Rule


def verify_schedule(claim: Claim, rule: Rule, ctx: Context) -> None:
    kb = ctx.kb
    drug = label_of(kb, claim.subject)
    facts = kb.facts_about(claim.subject or "", "controlledSchedule")
    if not facts:
        unverifiable(claim, f"the graph has no federal schedule for {drug}")
        return
    first, last, _ = claim_window(claim, ctx.as_of)
    current = [f for f in facts if valid_during(f, first, last)]
    if not current:
        unverifiable(claim, f"the graph has no federal schedule for {drug} at {first}", facts, kb)
        return
    stated = claim.object or ""
    said = "not controlled" if stated == "not controlled" else f"Schedule {stated}"
    hits = [f for f in current if f.literal == stated]
    if claim.negated:
        if hits:
            contradict(claim, hits, kb, f"the text says {drug} is not {said}, but it is",
                       "negation_flip", rule)  # fmt: skip
        else:
            support(claim, current, kb, f"{drug} is {_shown(current[0].literal)}, not {said}")
        return
    if hits:
        support(claim, hits, kb, f"{drug} is {said} (federal)")
        return
    other = [f for f in facts if f.literal == stated and f not in current]
    earlier = [f for f in other if f.valid_to is not None and f.valid_to <= first]
    later = [f for f in other if f.valid_from is not None and f.valid_from > last]
    htype = (
        "outdated_fact"
        if earlier
        else "wrong_date"
        if later
        else ("negation_flip" if stated == "not controlled" else rule.hallucination_type)
    )
    contradict(
        claim,
        current + (earlier or later)[:1],
        kb,
        f"the text says {said}, but at {first} {drug} is {_shown(current[0].literal)}"
        + (f" (it was {said} until {earlier[0].valid_to})" if earlier else "")
        + (f" (it is {said} from {later[0].valid_from})" if later and not earlier else ""),
        htype,
        rule,
    )


def verify_rx_status(claim: Claim, rule: Rule, ctx: Context) -> None:
    kb = ctx.kb
    drug = label_of(kb, claim.subject)
    facts = [
        f
        for f in kb.facts_about(claim.subject or "", "prescriptionStatus")
        if f.literal == "rx-only"
    ]
    if not facts:
        unverifiable(claim, f"the graph does not say whether {drug} is sold without a prescription")
        return
    says_otc = (claim.object == "otc") != claim.negated
    if says_otc:
        contradict(
            claim,
            facts,
            kb,
            f"the text says {drug} is sold without a prescription, but every US product of "
            f"{drug} is prescription-only",
            rule.hallucination_type,
            rule,
        )
    else:
        support(claim, facts, kb, f"every US product of {drug} is prescription-only")


def _shown(literal: str | None) -> str:
    return "not federally controlled" if literal == "not controlled" else f"Schedule {literal}"


__all__ = ["verify_rx_status", "verify_schedule"]
