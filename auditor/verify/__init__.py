"""Stage 2 — verification: each claim gets a verdict, evidence and a reason.

``verify_claims`` dispatches on the rule's ``check.type``; every verifier is deterministic
and reads only the knowledge base and the claim.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable

from auditor.types import Claim
from auditor.verify.capital import verify_requirement
from auditor.verify.common import Context, label_of, unverifiable
from auditor.verify.dispensing import verify_rx_status, verify_schedule
from auditor.verify.dose import verify_dose
from auditor.verify.literal import verify_frequency, verify_literal
from auditor.verify.quantity import verify_quantity
from auditor.verify.rates import verify_effective, verify_rate
from auditor.verify.relation import verify_relation, verify_status
from auditor.verify.temporal import verify_date
from auditor.verify.thresholds import verify_threshold
from auditor.verify.washout import verify_washout
from rules.schema import Rule

Verifier = Callable[[Claim, Rule, Context], None]

VERIFIERS: dict[str, Verifier] = {
    "kg_quantity": verify_quantity,
    "kg_dose": verify_dose,
    "kg_policy_rate": verify_rate,
    "kg_rate_effective": verify_effective,
    "kg_requirement": verify_requirement,
    "kg_threshold": verify_threshold,
    "kg_relation": verify_relation,
    "kg_status": verify_status,
    "kg_date": verify_date,
    "kg_literal": verify_literal,
    "kg_frequency": verify_frequency,
    "kg_washout": verify_washout,
    "kg_schedule": verify_schedule,
    "kg_rx_status": verify_rx_status,
}


def verify_claims(claims: Iterable[Claim], rules: dict[str, Rule], ctx: Context) -> None:
    """Set ``verdict``, ``reason``, ``evidence`` and ``hallucination_type`` on each claim."""
    for claim in claims:
        rule = rules.get(claim.rule_id or "")
        if rule is None:
            if not claim.reason:
                unverifiable(claim, "no rule covers this kind of statement")
            continue
        verifier = VERIFIERS.get(rule.check.type)
        if verifier is None:
            continue  # citation / identifier / brand claims are verified where they are built
        blocked = claim.frame.blocked() if claim.frame is not None else None
        if blocked:
            unverifiable(claim, blocked)  # an incomplete frame or not an assertion
            continue
        verifier(claim, rule, ctx)
        if claim.fuzzy_score is not None:
            _unknown_name(claim, ctx)
        if claim.qualifiers.get("framing") == "reported" and claim.verdict != "unverifiable":
            seen = [e if not isinstance(e, dict) else {**e, "role": "context"}
                    for e in claim.evidence]  # fmt: skip
            unverifiable(
                claim,
                "the text reports or refutes this statement rather than asserting it "
                f"(the graph would have it {claim.verdict})",
            )
            claim.evidence = seen


def _unknown_name(claim: Claim, ctx: Context) -> None:
    """A name reached only by approximate matching ("pramipril", "acetaminophin") is not a
    known name: its claim is never supported or contradicted through the entity it resembles."""
    name = claim.qualifiers.get("mention") or claim.subject_label or "?"
    meant = label_of(ctx.kb, claim.subject)
    would = claim.verdict
    seen = [e if not isinstance(e, dict) else {**e, "role": "context"} for e in claim.evidence]
    reading = (f"read as {meant}, the claim would be {would}" if would != "unverifiable"
               else f"read as {meant}: {claim.reason}")  # fmt: skip
    unverifiable(claim, f"unknown name {name!r} (did you mean {meant}?); {reading}")
    claim.evidence = seen
    claim.qualifiers["unknown_name"] = name


__all__ = ["VERIFIERS", "Context", "verify_claims"]
