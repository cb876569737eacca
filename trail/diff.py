"""Re-audit a stored record against the current graph and rule packs, and list what changed.

The original record is never touched: the new result is returned (and, on request, appended
to the trail as a new audit whose metadata names the original, ``reaudit_of``).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING, Any

from auditor.errors import UsageError
from trail.records import result_dict

if TYPE_CHECKING:
    from trail.core import TrailCore

AuditFn = Callable[..., Any]
_SCORES = ("fer", "citation_confidence", "joint_score", "coverage")
_VERSIONS = ("kg_version", "rules_version", "auditor_version")


def _claim_key(c: Mapping[str, Any]) -> tuple[Any, ...]:
    return (c.get("start"), c.get("end"), c.get("predicate"), c.get("subject"), c.get("object"))


def _brief(c: Mapping[str, Any]) -> dict[str, Any]:
    return {
        k: c.get(k)
        for k in ("start", "end", "text", "predicate", "verdict", "hallucination_type", "rule_id")
    }


def diff_results(old: Mapping[str, Any], new: Mapping[str, Any]) -> dict[str, Any]:
    """Claim-by-claim differences between two result dicts (claims matched by span + triple)."""
    old_claims = {_claim_key(c): c for c in old.get("claims", [])}
    new_claims = {_claim_key(c): c for c in new.get("claims", [])}
    changed, unchanged = [], 0
    for k in old_claims.keys() & new_claims.keys():
        a, b = old_claims[k], new_claims[k]
        if (a.get("verdict"), a.get("hallucination_type")) == (
            b.get("verdict"),
            b.get("hallucination_type"),
        ):
            unchanged += 1
            continue
        changed.append(
            {
                **_brief(b),
                "old_verdict": a.get("verdict"),
                "old_hallucination_type": a.get("hallucination_type"),
            }
        )
    order = lambda c: (c.get("start") or 0, c.get("end") or 0)  # noqa: E731
    return {
        "versions": {k: {"old": old.get(k), "new": new.get(k)} for k in _VERSIONS},
        "scores": {k: {"old": old.get(k), "new": new.get(k)} for k in _SCORES},
        "changed": sorted(changed, key=order),
        "added": sorted(
            (_brief(new_claims[k]) for k in new_claims.keys() - old_claims.keys()), key=order
        ),
        "removed": sorted(
            (_brief(old_claims[k]) for k in old_claims.keys() - new_claims.keys()), key=order
        ),
        "unchanged": unchanged,
        "identical": not changed and old_claims.keys() == new_claims.keys(),
    }


def diff_audits(trail: TrailCore, audit_a: str, audit_b: str, *, tenant: str) -> dict[str, Any]:
    """Differences between two stored audits of one tenant (``a`` old, ``b`` new)."""
    a, b = trail.get(audit_a, tenant=tenant), trail.get(audit_b, tenant=tenant)
    if a is None or b is None:
        missing = audit_a if a is None else audit_b
        raise UsageError(f"no audit {missing!r} in tenant {tenant!r}")
    return {"old": a["id"], "new": b["id"], **diff_results(a["result"], b["result"])}


def reaudit(
    trail: TrailCore,
    audit_id: str,
    *,
    tenant: str,
    audit_fn: AuditFn | None = None,
    record: bool = False,
    requester: str | None = None,
) -> dict[str, Any]:
    """Run the stored request again (same text, domain, as-of date, citations) and diff."""
    stored = trail.get(audit_id, tenant=tenant)
    if stored is None:
        raise UsageError(f"no audit {audit_id!r} in tenant {tenant!r}")
    if audit_fn is None:
        from auditor import audit

        audit_fn = audit
    req = stored["request"] or {}
    domain = req.get("domain") or stored["domain"]
    as_of = stored["as_of"]  # the date the original audit judged at, even if it defaulted
    new = result_dict(
        audit_fn(stored["text"], domain=domain, as_of=as_of, citations=req.get("citations"))
    )
    out: dict[str, Any] = {
        "audit_id": stored["id"],
        "as_of": as_of,
        "domain": domain,
        **diff_results(stored["result"], new),
        "recorded": None,
    }
    if record:
        rec = trail.record(
            new,
            text=stored["text"],
            tenant=tenant,
            requester=requester,
            metadata={"reaudit_of": stored["id"]},
            source="reaudit",
            request={**req, "domain": domain, "as_of": as_of},
        )
        out["recorded"] = {"id": rec.id, "seq": rec.seq, "hash": rec.hash}
    out["result"] = new
    return out


__all__ = ["diff_audits", "diff_results", "reaudit"]
