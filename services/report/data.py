"""Build the compliance report (a JSON-able dict) from the audit trail.

The dict is the JSON format as is; HTML, PDF and CSV render the same dict, so every figure
appears identically in every format. Sections: ``parameters``, ``generated_at``,
``summary``, ``fer_over_time``, ``hallucination_types``, ``top_failing_rules``,
``citation_outcomes``, ``worst_audits``, ``review``, ``risk``, ``methodology``, ``versions``,
``integrity``.
"""

from __future__ import annotations

from collections import Counter, defaultdict
from datetime import UTC, date, datetime
from typing import Any

from auditor.errors import UsageError
from services.report.aggregate import Aggregate
from services.report.methodology import methodology
from services.report.review import ReviewTally, iter_with_reviews
from trail.queries import BY_CHOICES

REPORT_VERSION = 1


class NoAudits(UsageError):
    """The period (tenant, domain) has no audits: there is nothing to report."""


class UnknownTenant(UsageError):
    """The trail has no such tenant (a typo in ``--tenant``), as opposed to an empty period."""


def check_known_tenant(trail: Any, tenant: str) -> None:
    """Raise :class:`UnknownTenant`, listing the tenants there are, unless ``tenant`` exists."""
    from sqlalchemy import select

    from trail.models import Tenant

    with trail.session() as s:
        known = list(s.execute(select(Tenant.id).order_by(Tenant.id)).scalars())
    if tenant not in known:
        listed = ", ".join(known[:20]) + (", …" if len(known) > 20 else "") or "none"
        raise UnknownTenant(
            f"unknown tenant {tenant!r}: the audit trail has no such tenant "
            f"(known tenants: {listed})"
        )


DOMAIN_CHOICES = ("finance", "medical", "legal", "auto")
TOP_SOURCES = 8


def parse_day(value: str | date, what: str) -> date:
    if isinstance(value, date):
        return value
    try:
        return date.fromisoformat(value.strip())
    except ValueError:
        raise UsageError(f"{what} {value!r} is not a date YYYY-MM-DD") from None


def graph_sources(kb: Any) -> dict[str, Any]:
    """Per domain of the loaded graphs: version, size and the most used source documents."""
    per: dict[str, Counter[tuple[str, str | None]]] = defaultdict(Counter)
    for f in kb.facts:
        per[f.domain][(f.source.document, f.source.url)] += 1
    stats = kb.stats()
    domains = []
    for d in kb.domains:
        s = stats.get(d, {})
        domains.append(
            {
                "domain": d,
                "version": kb.versions.get(d),
                "facts": s.get("facts"),
                "entities": s.get("entities"),
                "sources": s.get("sources"),
                "provenance": s.get("provenance"),
                "top_sources": [
                    {"document": doc, "url": url, "facts": n}
                    for (doc, url), n in sorted(per[d].items(), key=lambda kv: (-kv[1], kv[0][0]))[
                        :TOP_SOURCES
                    ]
                ],
            }
        )
    return {"kg_version": kb.kg_version, "domains": domains}


def provenance_text(prov: dict[str, Any] | None) -> str:
    """One sentence: pinned vs unpinned source documents and the oldest one read.

    >>> provenance_text({"documents": 3, "pinned": 2, "unpinned": 1, "oldest": None})
    'Source documents: 3, pinned to a version 2, unpinned 1; no source pinned with a retrieval date.'
    """
    if not prov:
        return ""
    old = prov.get("oldest")
    oldest = (
        f"oldest source read: {old['document']} version {old['version']}, "
        f"retrieved {old['retrieved']}"
        if old
        else "no source pinned with a retrieval date"
    )
    return (
        f"Source documents: {prov['documents']}, pinned to a version {prov['pinned']}, "
        f"unpinned {prov['unpinned']}; {oldest}."
    )


def rule_packs(ruleset: Any) -> dict[str, Any]:
    return {
        "rules_version": ruleset.version,
        "packs": [
            {
                "pack": p.pack,
                "domain": p.domain,
                "version": p.version,
                "rules": [
                    {
                        "id": r.id,
                        "title": r.title,
                        "citation": r.citation.text,
                        "url": r.citation.url,
                    }
                    for r in p.rules
                ],
            }
            for p in ruleset.packs
        ],
    }


def integrity(trail: Any, key: bytes | None, tenant: str | None = None) -> dict[str, Any]:
    """The chain check and the latest signed checkpoint, with a one-paragraph statement
    (for a ``tenant``'s report, other tenants' audit ids are withheld)."""
    report = trail.verify(key=key)
    shown = dict(report.first_broken) if report.first_broken else None
    if (
        shown
        and shown.get("audit_id")
        and tenant is not None
        and trail.get(shown["audit_id"], tenant=tenant) is None
    ):
        shown["audit_id"] = None
    cps = trail.checkpoints()
    latest = None
    if cps:
        cp = cps[-1]
        valid = trail.verify_checkpoint(cp, key) if key is not None else None
        latest = {
            k: cp.get(k) for k in ("seq", "created_at", "head_hash", "key_id", "alg", "signature")
        }
        latest["signature_valid"] = valid
    if report.ok and getattr(report, "from_seq", 0):
        text = (
            f"The audit trail was verified when this report was generated: every signed "
            f"checkpoint matches the chain, and the {report.checked:,} records after the newest "
            f"one (seq {report.from_seq:,}) were recomputed, every record and link intact; head "
            f"hash {report.head_hash}."
        )
    elif report.ok:
        text = (
            f"The audit trail's hash chain was recomputed when this report was generated: "
            f"{report.checked:,} records, every record and link intact; head hash "
            f"{report.head_hash}."
        )
    else:
        broken = report.first_broken or {}
        text = (
            f"THE AUDIT TRAIL FAILED VERIFICATION: first problem at seq "
            f"{broken.get('seq')}: {broken.get('reason')}."
        )
    if latest is None:
        text += " No signed checkpoint has been recorded."
    else:
        state = {True: "valid", False: "INVALID", None: "not checked (no key configured)"}
        text += (
            f" Latest signed checkpoint: seq {latest['seq']} at {latest['created_at']} "
            f"(key {latest['key_id']}), head {latest['head_hash']}; signature "
            f"{state[latest['signature_valid']]}."
        )
    return {
        "chain_verified": report.ok,
        "records_checked": report.checked,
        "verified_from_seq": getattr(report, "from_seq", 0),
        "head_hash": report.head_hash,
        "first_broken": shown,
        "latest_checkpoint": latest,
        "statement": text,
    }


def risk_section(agg: Aggregate, domains: list[str]) -> dict[str, Any]:
    """Calibrated risk in the period, the operating points in force, and the shipped model's
    held-out calibration curves and operating points for the report's domains."""
    from auditor.risk import load_model

    out = agg.risk()
    model = load_model()
    out["model_version"] = model.version if model is not None else None
    curves = (model.doc.get("calibration_curves") or {}) if model is not None else {}
    shown = [d for d in (*domains, "all") if d in curves]
    out["calibration_curves"] = {d: curves[d] for d in dict.fromkeys(shown)}
    out["shipped_operating_points"] = (
        {
            d: [p.to_dict() for p in model.operating_points[d]]
            for d in dict.fromkeys((*domains, "all"))
            if d in model.operating_points
        }
        if model is not None
        else {}
    )
    if out["operating_points_in_force"]:
        points = "; ".join(
            f"{p['domain']}: target FPR {p['target_fpr']:.0%}, "
            + (
                f"risk ≥ {p['threshold']:.3f}"
                if p["threshold"] is not None
                else "evidence only (no risk threshold meets the target)"
            )
            + f" — {p['flagged']} of {p['audits']} audits flagged"
            for p in out["operating_points_in_force"]
        )
        text = f"Operating points in force in this period: {points}."
    else:
        text = (
            "No audit in this period was flagged at an operating point (run the batch or "
            "audit with --flag-at-fpr to apply one); the shipped points are listed below."
        )
    out["statement"] = (
        text + " An answer with a contradicted claim or citation is always flagged: risk "
        "ranks and calibrates, it never overrides evidence."
    )
    return out


def build_report(
    trail: Any,
    *,
    start: str | date,
    end: str | date,
    domain: str | None = None,
    tenant: str = "default",
    worst: int = 10,
    kb: Any = None,
    rules: Any = None,
    key: bytes | None = None,
    now: datetime | None = None,
    by: str = "recorded",
    review_risk_threshold: float = 0.5,
) -> dict[str, Any]:
    """The report over audits recorded from ``start`` through ``end`` (inclusive, UTC).

    ``by="answered"`` takes the period (and the FER-over-time days) by when each text was
    said, its ``metadata.answered_at``; an audit without one counts on the day it was
    recorded.

    ``review`` holds the reviewer-adjusted figures (:mod:`services.report.review`) from every
    review decision on these audits; ``review_risk_threshold`` (the setting of the same name)
    says which unverifiable claims need a reviewer.

    ``kb``/``rules`` (the loaded graphs and rule packs) add rule titles, graph sources and
    rule-pack citations; ``key`` (the checkpoint key) lets the integrity statement check
    the latest checkpoint's signature. Raises :class:`NoAudits` when no audit matches, and
    :class:`UnknownTenant` when the trail has no tenant ``tenant`` at all.
    """
    first, last = parse_day(start, "--from"), parse_day(end, "--to")
    if last < first:
        raise UsageError(f"--to {last} is before --from {first}")
    if domain is not None and domain not in DOMAIN_CHOICES:
        raise UsageError(f"unknown domain {domain!r}; expected one of {', '.join(DOMAIN_CHOICES)}")
    if not 0 <= worst <= 100:
        raise UsageError("--worst must be between 0 and 100")
    if by not in BY_CHOICES:
        raise UsageError(f"--by {by!r} is invalid; expected one of {', '.join(BY_CHOICES)}")
    agg = Aggregate(worst_n=worst, by=by)
    reviewed = ReviewTally(risk_threshold=review_risk_threshold)
    audits = trail.iter_audits(tenant=tenant, start=first, end=last, domain=domain, by=by)
    for audit, decisions in iter_with_reviews(trail, audits, tenant=tenant):
        agg.add(audit)
        reviewed.add(audit, decisions)
    if agg.audits == 0:
        check_known_tenant(trail, tenant)
        scope = f"tenant {tenant!r}" + (f", domain {domain}" if domain else "")
        raise NoAudits(f"no audits were {by} from {first} to {last} ({scope}); nothing to report")
    generated = (now or datetime.now(UTC)).astimezone(UTC)
    return {
        "report_version": REPORT_VERSION,
        "title": "kgaudit compliance report",
        "parameters": {
            "from": first.isoformat(),
            "to": last.isoformat(),
            "domain": domain,
            "tenant": tenant,
            "by": by,
        },
        "generated_at": generated.strftime("%Y-%m-%dT%H:%M:%SZ"),
        "summary": agg.summary(),
        "fer_over_time": agg.fer_over_time(),
        "hallucination_types": agg.hallucination_types(),
        "top_failing_rules": agg.top_rules(rules),
        "citation_outcomes": agg.citation_outcomes(),
        "worst_audits": agg.worst(),
        "review": reviewed.section(),
        "risk": risk_section(agg, sorted(agg.domains)),
        "methodology": methodology(),
        "versions": {
            "seen": agg.versions_seen(),
            "graphs": graph_sources(kb) if kb is not None else None,
            "rule_packs": rule_packs(rules) if rules is not None else None,
        },
        "integrity": integrity(trail, key, tenant),
    }


__all__ = [
    "DOMAIN_CHOICES",
    "REPORT_VERSION",
    "NoAudits",
    "UnknownTenant",
    "build_report",
    "check_known_tenant",
    "graph_sources",
    "integrity",
    "parse_day",
    "risk_section",
    "rule_packs",
]
