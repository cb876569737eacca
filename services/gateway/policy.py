"""Gateway policies: what happens to an answer once it is audited.

* ``annotate`` (default): deliver the answer with the audit attached.
* ``block``: an answer with a contradicted claim is replaced by a refusal that names the
  contradicted claims (status ``blocked``); the trail keeps the upstream's answer.
* ``review``: deliver, and when the answer failed the audit or needs review, mark the
  recorded audit for review (status ``review``, ``metadata.gateway.review`` in the trail).
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

DELIVERED, BLOCKED, REVIEW = "delivered", "blocked", "review"


@dataclass(frozen=True)
class Decision:
    """The policy's outcome: ``status`` and, when blocked, the refusal that replaces the text."""

    policy: str
    status: str
    refusal: str | None = None

    def summary(self) -> dict[str, Any]:
        return {"policy": self.policy, "status": self.status}

    def outcome(self, upstream: str) -> dict[str, Any]:
        """``metadata.gateway`` of the recorded audit: the policy, the status, who answered
        (``engine`` or the upstream's address) and whether the audit is marked for review."""
        return {**self.summary(), "upstream": upstream, "review": self.status == REVIEW}


def largest_outcome(policy: str, upstream: str) -> dict[str, Any]:
    """The :meth:`Decision.outcome` of the longest JSON under ``policy``: ``delivered`` is the
    longest status and ``false`` the longer boolean, the keys are the same. Metadata checked
    with it before the audit is within the limits with whatever decision the audit brings."""
    return Decision(policy, DELIVERED).outcome(upstream)


def contradicted(audit: dict[str, Any]) -> list[dict[str, Any]]:
    """The contradicted claims and citations of an audit (``AuditResult.to_dict()``)."""
    claims = [c for c in audit.get("claims", []) if c.get("verdict") == "contradicted"]
    cites = [c for c in audit.get("citations", []) or [] if c.get("outcome") == "contradicted"]
    return claims + cites


def refusal_text(found: list[dict[str, Any]], *, json_mode: bool) -> str:
    """The refusal naming each contradicted claim (a JSON object in JSON mode)."""
    names = [str(c.get("text", "")).strip() for c in found]
    if json_mode:
        return json.dumps(
            {"refusal": "the answer was withheld by the audit", "contradicted_claims": names},
            ensure_ascii=False,
        )
    listed = "; ".join(f'"{n}"' for n in names)
    plural = "claim contradicts" if len(names) == 1 else "claims contradict"
    return (
        f"The answer was withheld: its audit found that the following {plural} the "
        f"curated knowledge: {listed}."
    )


def decide(policy: str, audit: Any, *, json_mode: bool = False) -> Decision:
    """Apply ``policy`` to an audited answer (an ``AuditResult`` or its ``to_dict()``)."""
    audit = audit.to_dict() if hasattr(audit, "to_dict") else dict(audit)
    found = contradicted(audit)
    if policy == "block" and found:
        return Decision(policy, BLOCKED, refusal_text(found, json_mode=json_mode))
    if policy == "review" and (found or audit.get("needs_review")):
        return Decision(policy, REVIEW)
    return Decision(policy, DELIVERED)
