"""The report as one CSV in long form: ``section,metric,domain,key,value``, one figure a row.

Every number of the JSON report appears (scores as fractions, unrounded), so a spreadsheet
can pivot it; ``domain`` is empty for figures over all domains, ``key`` holds the bin,
day, type, rule, outcome or audit id the figure belongs to.

The ``claims`` section is the claims table of the worst audits (the contradicted claims the
report shows): ``key`` is ``<audit id>#<n>``, ``metric`` a column of
:data:`auditor.claim_table.COLUMNS` (text, span, verdict, rule id, evidence, source, URL,
quote), so pivoting ``key`` × ``metric`` gives one row per claim. The ``needs_review``
section lists the open items the same way (``key`` ``<audit id>#<item>``, e.g.
``…#citation:0``); ``review``, ``fer_after_review`` and ``time_to_review`` hold the
reviewer-adjusted figures.
"""

from __future__ import annotations

import csv
import io
from collections.abc import Iterator
from typing import Any

from auditor.claim_table import COLUMNS, claim_rows

HEADER = ("section", "metric", "domain", "key", "value")
Row = tuple[str, str, str, str, Any]
CLAIM_COLUMNS = tuple(c for c in COLUMNS if c not in {"audit", "claim", "domain"})
NEEDS_REVIEW_COLUMNS = ("kind", "verdict", "text", "rule_id", "reason", "external_id", "notes")


def _v(x: Any) -> Any:
    return "" if x is None else x


def rows(r: dict[str, Any]) -> list[Row]:
    return list(_rows(r))


def _rows(r: dict[str, Any]) -> Iterator[Row]:
    p, s = r["parameters"], r["summary"]
    for k in ("from", "to", "domain", "tenant"):
        yield ("report", k, "", "", _v(p[k]))
    if p.get("by", "recorded") != "recorded":  # the default row is left out: same CSV as before
        yield ("report", "by", "", "", p["by"])
    yield ("report", "generated_at", "", "", r["generated_at"])
    for k in ("audits", "claims", "audits_with_contradictions"):
        yield ("summary", k, "", "", s[k])
    for k, v in s["counts"].items():
        yield ("summary", "claims", "", k, v)
    for k in ("pooled", "mean", "p50", "p90", "p95", "max", "audits_without_verifiable_claims"):
        yield ("fer", k, "", "", _v(s["fer"][k]))
    for h in s["fer"]["histogram"]:
        yield ("fer", "histogram", "", h["bin"], h["audits"])
    for k in ("mean", "p10", "p50", "audits_scored"):
        yield ("trust_score", k, "", "", _v(s["trust_score"][k]))
    for h in s["trust_score"]["histogram"]:
        yield ("trust_score", "histogram", "", f"{h['lo']}-{h['hi']}", h["audits"])
    for k in ("pooled", "mean"):
        yield ("coverage", k, "", "", _v(s["coverage"][k]))
    for k in ("mean", "audits_with_citations"):
        yield ("citation_confidence", k, "", "", _v(s["citation_confidence"][k]))
    for d in s["by_domain"]:
        for k in ("audits", "fer", "trust_score_mean", "coverage"):
            yield ("by_domain", k, d["domain"], "", _v(d[k]))
    for pt in r["fer_over_time"]:
        yield ("fer_over_time", "fer", pt["domain"], pt["date"], _v(pt["fer"]))
        yield ("fer_over_time", "audits", pt["domain"], pt["date"], pt["audits"])
    for t in r["hallucination_types"]:
        yield ("hallucination_types", "claims", "", t["type"], t["claims"])
    for x in r["top_failing_rules"]:
        for k in ("contradicted", "claims", "audits"):
            yield ("top_failing_rules", k, "", x["rule_id"], x[k])
    for o in r["citation_outcomes"]:
        yield ("citation_outcomes", "citations", "", o["outcome"], o["citations"])
    for w in r["worst_audits"]:
        for k in ("fer", "joint_score", "external_id", "created_at"):
            yield ("worst_audits", k, w["domain"], w["id"], _v(w[k]))
        yield ("worst_audits", "contradicted", w["domain"], w["id"], w["counts"]["contradicted"])
    for w in r["worst_audits"]:  # the claims table: one key per claim shown, a column a metric
        for row in claim_rows({"id": w["id"], "domain": w["domain"], "claims": w["claims"]}):
            key = f"{w['id']}#{row['claim']}"
            for col in CLAIM_COLUMNS:
                yield ("claims", col, w["domain"], key, _v(row[col]))
    rv = r["review"]
    for k in ("events", "audits_reviewed", "risk_threshold"):
        yield ("review", k, "", "", rv[k])
    for k, v in rv["items"].items():
        yield ("review", "items", "", k, v)
    for o in rv["overturned"]:
        yield ("review", "overturned", "", f"{o['kind']}:{o['verdict']}", o["items"])
    for k, v in rv["fer_after_review"].items():
        yield ("fer_after_review", k, "", "", _v(v))
    for k, v in rv["time_to_review"].items():
        yield ("time_to_review", k, "", "", _v(v))
    for it in rv["open_items"]:  # the "needs review" list: one key per open item
        key = f"{it['audit_id']}#{it['item']}"
        for col in NEEDS_REVIEW_COLUMNS:
            yield ("needs_review", col, it["domain"] or "", key, _v(it[col]))
    risk = r.get("risk") or {}
    for k in ("audits_with_risk", "mean", "p50", "p90", "model_version"):
        yield ("risk", k, "", "", _v(risk.get(k)))
    for p in risk.get("operating_points_in_force", []):
        key = f"fpr={p['target_fpr']}"
        yield ("risk_in_force", "threshold", p["domain"], key, _v(p["threshold"]))
        yield ("risk_in_force", "audits", p["domain"], key, p["audits"])
        yield ("risk_in_force", "flagged", p["domain"], key, p["flagged"])
    for dom, points in (risk.get("shipped_operating_points") or {}).items():
        for p in points:
            key = f"fpr={p['target_fpr']}"
            for k in ("threshold", "fpr", "tpr"):
                yield ("risk_operating_points", k, dom, key, _v(p[k]))
    for v in r["versions"]["seen"]:
        key = f"{v['kg_version']} {v['rules_version']} {v['auditor_version']}"
        yield ("versions", "audits", "", key, v["audits"])
    i = r["integrity"]
    yield ("integrity", "chain_verified", "", "", i["chain_verified"])
    yield ("integrity", "records_checked", "", "", i["records_checked"])
    yield ("integrity", "head_hash", "", "", _v(i["head_hash"]))
    cp = i["latest_checkpoint"] or {}
    for k in ("seq", "created_at", "head_hash", "signature_valid"):
        yield ("integrity", f"checkpoint_{k}", "", "", _v(cp.get(k)))


def render_csv(report: dict[str, Any]) -> bytes:
    buf = io.StringIO()
    w = csv.writer(buf, lineterminator="\n")
    w.writerow(HEADER)
    w.writerows(rows(report))
    return buf.getvalue().encode("utf-8")


__all__ = ["HEADER", "render_csv", "rows"]
