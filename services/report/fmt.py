"""Figures, sentences and table rows of the report as people read them, used by the section
model (:mod:`services.report.sections`) that HTML and PDF both lay out; the number formats
themselves are :mod:`auditor.fmt`.

>>> pct(0.18181), pct(None), num(12345), score(0.5)
('18.2%', 'n/a', '12,345', '50.0%')
"""

from __future__ import annotations

from typing import Any

from auditor.fmt import num, pct


def score(x: float | None) -> str:
    """A trust score or coverage, shown as a percentage like in ``kgaudit audit``."""
    return pct(x)


def label(name: str | None) -> str:
    """``numeric_error`` -> ``numeric error``."""
    return "unknown" if not name else name.replace("_", " ")


RISK_HEAD = ["domain", "target FPR", "risk threshold", "held-out FPR", "held-out TPR",
             "in force: flagged / audits"]  # fmt: skip


def operating_point_rows(risk: dict) -> list[list[str]]:  # type: ignore[type-arg]
    """The shipped operating points of the report's domains, with the audits flagged at
    each one in the period (``—`` where no audit used it)."""
    used = {(p["domain"], p["target_fpr"]): p for p in risk.get("operating_points_in_force", [])}
    rows = []
    for dom, points in (risk.get("shipped_operating_points") or {}).items():
        for p in points:
            u = used.get((dom, p["target_fpr"]))
            rows.append(
                [
                    dom,
                    pct(p["target_fpr"]),
                    "evidence only" if p["threshold"] is None else f"{p['threshold']:.3f}",
                    pct(p["fpr"]),
                    pct(p["tpr"]),
                    f"{num(u['flagged'])} / {num(u['audits'])}" if u else "—",
                ]
            )
    return rows


def scope_line(params: dict[str, Any]) -> str:
    """What the report covers: ``tenant acme, domain legal, by the day each text was said``."""
    scope = f"tenant {params['tenant']}" + (
        f", domain {params['domain']}" if params.get("domain") else ""
    )
    if params.get("by") == "answered":
        scope += ", by the day each text was said"
    return scope


def by_domain_rows(by_domain: list[dict[str, Any]]) -> list[list[str]]:
    """The per-domain table: domain, audits, FER, mean trust score, coverage."""
    return [
        [
            d["domain"],
            num(d["audits"]),
            pct(d["fer"]),
            score(d["trust_score_mean"]),
            pct(d["coverage"]),
        ]
        for d in by_domain
    ]


def top_rule_rows(rules: list[dict[str, Any]]) -> list[list[str]]:
    """The top failing rules: rule, title, contradicted, claims checked, audits."""
    return [
        [x["rule_id"], x["title"] or "", num(x["contradicted"]), num(x["claims"]), num(x["audits"])]
        for x in rules
    ]


def versions_rows(seen: list[dict[str, Any]]) -> list[list[str]]:
    """The versions found in the audits: graphs, rules, auditor, audits."""
    return [
        [x["kg_version"], x["rules_version"], x["auditor_version"], num(x["audits"])] for x in seen
    ]


def time_text(seconds: float | None) -> str:
    """A duration for people: ``45 s``, ``12 min``, ``3.5 h``, ``2.0 days``.

    >>> time_text(45), time_text(720), time_text(12600), time_text(172800), time_text(None)
    ('45 s', '12 min', '3.5 h', '2.0 days', 'n/a')
    """
    if seconds is None:
        return "n/a"
    if seconds < 90:
        return f"{seconds:.0f} s"
    if seconds < 5400:
        return f"{seconds / 60:.0f} min"
    if seconds < 172800:
        return f"{seconds / 3600:.1f} h"
    return f"{seconds / 86400:.1f} days"


REVIEW_HEAD = ["needing review", "open", "confirmed", "overturned", "noted",
               "FER before / after review", "median time to review"]  # fmt: skip
_OVERTURNED = {
    ("claim", "contradicted"): "contradicted claims (now counted as supported)",
    ("claim", "supported"): "supported claims (now counted as errors)",
    ("claim", "unverifiable"): "unverifiable claims (still outside FER)",
}


def review_rows(review: dict[str, Any], fer_before: float | None) -> list[list[str]]:
    """The one row of the reviewer-adjusted figures under :data:`REVIEW_HEAD`."""
    i, t = review["items"], review["time_to_review"]
    return [
        [
            num(i["needing_review"]),
            num(i["open"]),
            num(i["confirmed"]),
            num(i["overturned"]),
            num(i["noted"]),
            f"{pct(fer_before)} / {pct(review['fer_after_review']['pooled'])}",
            f"{time_text(t['median_s'])} ({num(t['items'])} items)",
        ]
    ]


def review_line(review: dict[str, Any]) -> str:
    """What the reviewer-adjusted figures are based on, in one paragraph."""
    f, t = review["fer_after_review"], review["time_to_review"]
    over = "; ".join(
        f"{num(o['items'])} "
        + _OVERTURNED.get((o["kind"], o["verdict"]), f"{o['verdict']} {o['kind']}s")
        for o in review["overturned"]
    )
    return (
        f"{num(review['events'])} review decisions on {num(review['audits_reviewed'])} of these "
        "audits were in the trail when this report was generated. FER after review "
        f"{pct(f['pooled'])} over the same {num(f['checked'])} verifiable claims "
        f"({num(f['contradicted'])} contradicted after review, in "
        f"{num(f['audits_with_contradictions'])} audits; mean per audit {pct(f['mean'])}). "
        + (f"Overturned: {over}. " if over else "")
        + f"Median time to review {time_text(t['median_s'])} over {num(t['items'])} decided "
        "items (first confirm or overturn minus the audit's recorded time)."
    )


def open_item_text(it: dict[str, Any]) -> str:
    """One open item of the "needs review" list, without its name (shown beside it)."""
    ext = f" ({it['external_id']})" if it.get("external_id") else ""
    rule = f", rule {it['rule_id']}" if it.get("rule_id") else ""
    why = f": {it['reason']}" if it.get("reason") else ""
    notes = f" — {num(it['notes'])} notes" if it.get("notes") else ""
    return f"{it['item']} of audit {it['audit_id']}{ext}, {it['domain']}{rule}{why}{notes}"


def risk_line(risk: dict) -> str:  # type: ignore[type-arg]
    """One sentence on the period's risk figures."""
    if not risk.get("audits_with_risk"):
        return "No audit in this period carries a calibrated risk."
    return (
        f"Calibrated risk (model {risk.get('model_version') or 'n/a'}) on "
        f"{num(risk['audits_with_risk'])} audits: mean {pct(risk['mean'])}, median "
        f"{pct(risk['p50'])}, 90th percentile {pct(risk['p90'])}."
    )


__all__ = [
    "REVIEW_HEAD",
    "RISK_HEAD",
    "by_domain_rows",
    "label",
    "num",
    "open_item_text",
    "operating_point_rows",
    "pct",
    "review_line",
    "review_rows",
    "risk_line",
    "scope_line",
    "score",
    "time_text",
    "top_rule_rows",
    "versions_rows",
]
