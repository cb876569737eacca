"""One pass over the stored audits of a period: every figure the compliance report shows.

:class:`Aggregate` is fed the full audit dicts of ``Trail.iter_audits`` (oldest first) and
keeps only counters, the per-audit scores (for quantiles) and the ``worst`` audits, so a
report over a long period streams instead of holding every audit.
"""

from __future__ import annotations

import heapq
from collections import Counter, defaultdict
from dataclasses import dataclass, field
from typing import Any

from auditor.types import VERDICTS
from services.batch.summary import FER_BINS, quantile

TRUST_BINS = 10
MAX_CLAIMS_SHOWN = 8


def _fer_bin(fer: float) -> str:
    if fer == 0.0:
        return FER_BINS[0][0]
    return next(name for name, lo, hi in FER_BINS[1:] if lo < fer <= hi or hi == 1.0)


def _mean(values: list[float]) -> float | None:
    return sum(values) / len(values) if values else None


def _ratio(num: int, den: int) -> float | None:
    return num / den if den else None


def _evidence(ev: dict[str, Any]) -> dict[str, Any]:
    src = ev.get("source") or {}
    cite = ev.get("citation") or {}
    return {
        "role": ev.get("role"),
        "statement": ev.get("statement") or ev.get("detail"),
        "document": src.get("document") or cite.get("text"),
        "section": src.get("section"),
        "url": src.get("url") or cite.get("url"),
        "quote": ev.get("quote"),
    }


def worst_entry(audit: dict[str, Any]) -> dict[str, Any]:
    """What the report shows of one audit: scores and its contradicted claims with evidence."""
    res = audit["result"]
    bad = [c for c in res.get("claims", []) if c.get("verdict") == "contradicted"]
    return {
        "id": audit["id"],
        "external_id": audit.get("external_id"),
        "created_at": audit["created_at"],
        "answered_at": audit.get("answered_at"),
        "domain": audit["domain"],
        "as_of": audit["as_of"],
        "fer": audit.get("fer"),
        "joint_score": audit.get("joint_score"),
        "counts": audit["counts"],
        "context": (audit.get("metadata") or {}).get("context"),
        "claims": [
            {
                "text": c.get("text"),
                "start": c.get("start"),
                "end": c.get("end"),
                "verdict": c.get("verdict"),
                "reason": c.get("reason"),
                "rule_id": c.get("rule_id"),
                "hallucination_type": c.get("hallucination_type"),
                "evidence": [_evidence(e) for e in c.get("evidence") or []],
            }
            for c in bad[:MAX_CLAIMS_SHOWN]
        ],
        "claims_not_shown": max(0, len(bad) - MAX_CLAIMS_SHOWN),
    }


@dataclass
class Aggregate:
    worst_n: int = 10
    by: str = "recorded"  # which day an audit counts on: "recorded", or "answered" (said)
    audits: int = 0
    counts: Counter[str] = field(default_factory=Counter)
    fers: list[float] = field(default_factory=list)
    joints: list[float] = field(default_factory=list)
    coverages: list[float] = field(default_factory=list)
    cites: list[float] = field(default_factory=list)
    with_contradictions: int = 0
    failed_citations: int = 0  # audits with a contradicted citation
    needs_review: int = 0  # audits with an uncheckable citation and nothing contradicted
    domains: dict[str, Counter[str]] = field(default_factory=lambda: defaultdict(Counter))
    domain_joints: dict[str, list[float]] = field(default_factory=lambda: defaultdict(list))
    days: dict[tuple[str, str], Counter[str]] = field(default_factory=lambda: defaultdict(Counter))
    types: Counter[str] = field(default_factory=Counter)
    rules: dict[str, Counter[str]] = field(default_factory=lambda: defaultdict(Counter))
    outcomes: Counter[str] = field(default_factory=Counter)
    versions: Counter[tuple[str, str, str]] = field(default_factory=Counter)
    risks: list[float] = field(default_factory=list)
    risk_versions: Counter[str] = field(default_factory=Counter)
    # (domain, flag_fpr, flag_threshold) -> audits, flagged: the operating points in force
    flags: dict[tuple[str, float, float | None], Counter[str]] = field(
        default_factory=lambda: defaultdict(Counter)
    )
    _worst: list[tuple[tuple[float, int, float, int], dict[str, Any]]] = field(default_factory=list)

    def add(self, audit: dict[str, Any]) -> None:
        res = audit["result"]
        c = audit["counts"]
        con, sup = int(c["contradicted"]), int(c["supported"])
        self.audits += 1
        self.counts.update({k: int(v) for k, v in c.items()})
        dom = audit["domain"]
        self.domains[dom].update(
            audits=1, contradicted=con, checked=con + sup, claims=sum(int(v) for v in c.values())
        )
        when = audit.get("answered_at") if self.by == "answered" else None
        day = self.days[((when or audit["created_at"])[:10], dom)]
        day.update(audits=1, contradicted=con, checked=con + sup)
        for key, values in (
            ("fer", self.fers),
            ("joint_score", self.joints),
            ("coverage", self.coverages),
            ("citation_confidence", self.cites),
        ):
            if audit.get(key) is not None:
                values.append(float(audit[key]))
        if audit.get("joint_score") is not None:
            self.domain_joints[dom].append(float(audit["joint_score"]))
        self.with_contradictions += con > 0
        self.types.update({k: int(v) for k, v in (res.get("hallucination_types") or {}).items()})
        touched = set()
        for cl in res.get("claims", []):
            rid = cl.get("rule_id")
            if rid:
                self.rules[rid].update(claims=1, contradicted=cl.get("verdict") == "contradicted")
                if cl.get("verdict") == "contradicted" and rid not in touched:
                    touched.add(rid)
                    self.rules[rid]["audits"] += 1
        cites = res.get("citations", [])
        self.outcomes.update(ch.get("outcome") or "unknown" for ch in cites)
        bad_cite = any(ch.get("outcome") == "contradicted" for ch in cites)
        self.failed_citations += bad_cite
        self.needs_review += (
            not bad_cite and con == 0 and any(ch.get("outcome") == "unverified" for ch in cites)
        )
        self.versions[(audit["kg_version"], audit["rules_version"], audit["auditor_version"])] += 1
        if res.get("risk") is not None:
            self.risks.append(float(res["risk"]))
            self.risk_versions[str(res.get("risk_model_version") or "unknown")] += 1
        if res.get("flag_fpr") is not None:
            point = (res.get("domain") or dom, float(res["flag_fpr"]), res.get("flag_threshold"))
            self.flags[point].update(audits=1, flagged=bool(res.get("flagged")))
        if con:
            key = (
                audit["fer"] if audit.get("fer") is not None else 0.0,
                con,
                -(audit["joint_score"] if audit.get("joint_score") is not None else 1.0),
                -self.audits,
            )
            item = (key, worst_entry(audit))
            if len(self._worst) < self.worst_n:
                heapq.heappush(self._worst, item)
            elif key > self._worst[0][0]:
                heapq.heapreplace(self._worst, item)

    # -- report sections -------------------------------------------------------------------

    def summary(self) -> dict[str, Any]:
        fers, joints = sorted(self.fers), sorted(self.joints)
        checked = self.counts["supported"] + self.counts["contradicted"]
        claims = checked + self.counts["unverifiable"]
        fer_hist = Counter(_fer_bin(f) for f in fers)
        width = 1.0 / TRUST_BINS
        trust_hist = Counter(min(int(j / width), TRUST_BINS - 1) for j in joints)
        return {
            "audits": self.audits,
            "claims": claims,
            "counts": {k: self.counts[k] for k in VERDICTS},
            "audits_with_contradictions": self.with_contradictions,
            "fer": {
                "pooled": _ratio(self.counts["contradicted"], checked),
                "mean": _mean(fers),
                "p50": quantile(fers, 0.5),
                "p90": quantile(fers, 0.9),
                "p95": quantile(fers, 0.95),
                "max": fers[-1] if fers else None,
                "audits_without_verifiable_claims": self.audits - len(fers),
                "histogram": [{"bin": name, "audits": fer_hist[name]} for name, _, _ in FER_BINS],
            },
            "trust_score": {
                "mean": _mean(joints),
                "p10": quantile(joints, 0.1),
                "p50": quantile(joints, 0.5),
                "audits_scored": len(joints),
                "histogram": [
                    {
                        "lo": round(i * width, 2),
                        "hi": round((i + 1) * width, 2),
                        "audits": trust_hist[i],
                    }
                    for i in range(TRUST_BINS)
                ],
            },
            "coverage": {"pooled": _ratio(checked, claims), "mean": _mean(self.coverages)},
            "citation_confidence": {
                "mean": _mean(self.cites),
                "audits_with_citations": len(self.cites),
            },
            "citations": {
                "verified": self.outcomes["verified"],
                "contradicted": self.outcomes["contradicted"],
                "could_not_be_checked": self.outcomes["unverified"],
                "audits_failed_on_citations": self.failed_citations,
                "audits_needing_review": self.needs_review,
            },
            "by_domain": [
                {
                    "domain": d,
                    "audits": v["audits"],
                    "fer": _ratio(v["contradicted"], v["checked"]),
                    "trust_score_mean": _mean(self.domain_joints[d]),
                    "coverage": _ratio(v["checked"], v["claims"]),
                }
                for d, v in sorted(self.domains.items())
            ],
        }

    def fer_over_time(self) -> list[dict[str, Any]]:
        return [
            {
                "date": day,
                "domain": dom,
                "audits": v["audits"],
                "fer": _ratio(v["contradicted"], v["checked"]),
            }
            for (day, dom), v in sorted(self.days.items())
        ]

    def hallucination_types(self) -> list[dict[str, Any]]:
        return [
            {"type": t, "claims": n}
            for t, n in sorted(self.types.items(), key=lambda kv: (-kv[1], kv[0]))
        ]

    def top_rules(self, ruleset: Any = None, n: int = 10) -> list[dict[str, Any]]:
        ranked = sorted(
            ((rid, v) for rid, v in self.rules.items() if v["contradicted"]),
            key=lambda kv: (-kv[1]["contradicted"], kv[0]),
        )[:n]
        out = []
        for rid, v in ranked:
            rule = ruleset.rule(rid) if ruleset is not None else None
            out.append(
                {
                    "rule_id": rid,
                    "title": rule.title if rule else None,
                    "citation": rule.citation.text if rule else None,
                    "url": rule.citation.url if rule else None,
                    "contradicted": v["contradicted"],
                    "claims": v["claims"],
                    "audits": v["audits"],
                }
            )
        return out

    def citation_outcomes(self) -> list[dict[str, Any]]:
        return [
            {"outcome": o, "citations": n}
            for o, n in sorted(self.outcomes.items(), key=lambda kv: (-kv[1], kv[0]))
        ]

    def versions_seen(self) -> list[dict[str, Any]]:
        return [
            {"kg_version": k, "rules_version": r, "auditor_version": a, "audits": n}
            for (k, r, a), n in sorted(self.versions.items(), key=lambda kv: -kv[1])
        ]

    def risk(self) -> dict[str, Any]:
        """Risk figures of the period and the operating points the audits were flagged at."""
        risks = sorted(self.risks)
        return {
            "audits_with_risk": len(risks),
            "mean": _mean(risks),
            "p50": quantile(risks, 0.5),
            "p90": quantile(risks, 0.9),
            "model_versions": [
                {"version": v, "audits": n}
                for v, n in sorted(self.risk_versions.items(), key=lambda kv: (-kv[1], kv[0]))
            ],
            "operating_points_in_force": [
                {
                    "domain": d,
                    "target_fpr": fpr,
                    "threshold": thr,
                    "audits": v["audits"],
                    "flagged": v["flagged"],
                }
                for (d, fpr, thr), v in sorted(
                    self.flags.items(), key=lambda kv: (kv[0][0], kv[0][1])
                )
            ],
        }

    def worst(self) -> list[dict[str, Any]]:
        return [entry for _, entry in sorted(self._worst, key=lambda kv: kv[0], reverse=True)]


__all__ = ["Aggregate", "worst_entry"]
