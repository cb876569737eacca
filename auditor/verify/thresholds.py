"""``kg_threshold``: a stated reporting threshold against the obligation's, comparator included.

When the clause names the institution ("money services businesses at $2,000") the obligation
is that institution's variant (the graph holds SARs for banks, MSBs, casinos and broker-dealers
separately); when no variant exists for it, the claim is unverifiable. A stated comparator must
agree with the rule's: a CTR is required for *more than* $10,000, so "$10,000 or more" is
wrong even though the number is right.
"""

from __future__ import annotations

import re

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
from knowledge_graphs.store import KnowledgeBase
from rules.schema import Rule

_WORDS = {">": "more than", ">=": "at least"}


def verify_threshold(claim: Claim, rule: Rule, ctx: Context) -> None:
    kb, q, frame = ctx.kb, claim.quantity, claim.frame
    if q is None or frame is None or claim.subject is None:
        unverifiable(claim, "no threshold frame to check")
        return
    subject = claim.subject
    institution = frame.slots.get("institution")
    mention = claim.qualifiers.get("mention", "")
    if (
        institution
        and _has_variants(kb, subject)
        and institution not in label_of(kb, subject).lower()
        and not _names_institution(mention)
    ):
        variant = _variant(kb, subject, institution)
        if variant is None:
            unverifiable(claim, f"the graph has no {label_of(kb, subject)} threshold for "
                         f"{institution}s")  # fmt: skip
            return
        subject = variant
        claim.subject, claim.subject_label = variant, label_of(kb, variant)
    first, last, _ = claim_window(claim, ctx.as_of)
    facts = [
        f for f in kb.facts_about(subject, "reportingThreshold") if valid_during(f, first, last)
    ]
    if not facts:
        unverifiable(claim, f"no threshold of {label_of(kb, subject)} valid at {first}")
        return
    if all(f.unit != q.unit for f in facts):
        same = [f for f in facts if _amount(f, q.value, q.value_max)]
        if same:  # "more than €10,000" for a US rule set in dollars
            contradict(claim, same, kb, f"the threshold is {value_text(same[0])}, in "
                       f"{same[0].unit}, not {q.unit}", "unit_error", rule)  # fmt: skip
        else:
            unverifiable(claim, f"the threshold is set in {facts[0].unit}; the text gives {q.unit}")
        return
    facts = [f for f in facts if f.unit == q.unit]
    hits = [f for f in facts if _amount(f, q.value, q.value_max)]
    if claim.negated:
        if hits:
            contradict(claim, hits, kb, f"the text denies {q.text}, but that is the threshold",
                       "negation_flip", rule)  # fmt: skip
        else:
            support(claim, facts, kb, f"the text denies {q.text}; the threshold is "
                    f"{value_text(facts[0])}")  # fmt: skip
        return
    stated = frame.slots.get("comparator")
    if hits:
        fact_cmp = hits[0].qualifiers.get("comparator")
        amount = value_text(hits[0]).split(" [")[0]
        if stated == ">=" and fact_cmp == ">":
            # "a CTR for $10,000 or more": the rule applies to more than $10,000 only
            contradict(claim, hits, kb, f"the threshold is more than {amount}, not {amount} or "
                       "more", "wrong_relation", rule)  # fmt: skip
            return
        if stated == ">" and fact_cmp == ">=":
            unverifiable(claim, f"the rule applies at {amount} and above; 'more than' leaves the "
                         "amount itself out", hits, kb)  # fmt: skip
            return
        support(claim, hits, kb, f"matches {label_of(kb, subject)} ({value_text(hits[0])})")
        return
    floors = [
        f
        for f in facts
        if q.value_max is not None
        and f.value is not None
        and f.value_max is None
        and abs(q.value - f.value) < 0.5
        and f.qualifiers.get("comparator") in {">", ">="}
    ]
    if floors:
        # "from $3,000 to $10,000 inclusive": the range starts at the threshold; the graph
        # records a floor only, so the upper end is neither confirmed nor refuted
        unverifiable(claim, f"the range starts at {label_of(kb, subject)}'s threshold "
                     f"({value_text(floors[0])}); the graph records no upper bound", floors, kb)  # fmt: skip
        return
    contradict(claim, facts, kb, f"the text says {q.text!r} but {label_of(kb, subject)} is "
               f"{value_text(facts[0])}", rule.hallucination_type, rule)  # fmt: skip


def _amount(f: Fact, value: float, value_max: float | None) -> bool:
    if f.value is None:
        return False
    if value_max is not None:
        return abs(value - f.value) < 0.5 and abs(value_max - (f.value_max or f.value)) < 0.5
    return abs(value - f.value) < 0.5 or (
        f.value_max is not None and abs(value - f.value_max) < 0.5
    )


def _names_institution(mention: str) -> bool:
    """The name itself picks the variant ("MSB SAR clearance records", "casino CTR")."""
    return bool(
        re.search(r"\b(?:MSBs?|money\s+services?|casinos?|broker|dealer|bank)\b", mention, re.I)
    )


def _has_variants(kb: KnowledgeBase, subject: str) -> bool:
    stem = label_of(kb, subject).lower().split(" by ")[0]
    return sum(e.label.lower().startswith(stem + " by ")
               for e in kb.entities_of_type("ReportingObligation")) > 1  # fmt: skip


def _variant(kb: KnowledgeBase, subject: str, institution: str) -> str | None:
    """The same report for another institution ("SAR by banks" → "SAR by money services")."""
    stem = label_of(kb, subject).lower().split(" by ")[0]
    for e in kb.entities_of_type("ReportingObligation"):
        label = e.label.lower()
        if label.startswith(stem) and institution in label:
            return e.id
    return None


__all__ = ["verify_threshold"]
