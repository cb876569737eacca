"""Plain-text rendering of an audit for people: each claim, its verdict, evidence and source."""

from __future__ import annotations

import textwrap

from auditor.fmt import pct
from auditor.types import AuditResult

_MARK = {
    "supported": "✔ SUPPORTED",
    "contradicted": "✘ CONTRADICTED",
    "unverifiable": "? UNVERIFIABLE",
}


def render_text(result: AuditResult, *, width: int = 100) -> str:
    d = result.to_dict()
    lines = [
        f"kgaudit — domain {', '.join(d['domains'])}, as of {d['as_of']}",
        f"claims: {len(d['claims'])}  supported {d['counts']['supported']}  "
        f"contradicted {d['counts']['contradicted']}  unverifiable {d['counts']['unverifiable']}",
        f"factual error rate: {pct(d['fer'])}   coverage: {pct(d['coverage'])}   "
        f"citation confidence: {pct(d['citation_confidence'])}   trust score: {pct(d['joint_score'])}",
    ]
    if d["citations"]:
        n = d["citation_counts"]
        lines.append(
            f"citations: {n['verified']} verified, {n['contradicted']} failed, "
            f"{n['unverified']} could not be checked"
            + ("  (needs review)" if d["needs_review"] and not n["contradicted"] else "")
        )
    if "risk" in d:
        flag = "  FLAGGED" if d.get("flagged") else ""
        lines.append(f"hallucination risk: {pct(d['risk'])}{flag}")
    lines.append("")
    for i, c in enumerate(d["claims"], 1):
        lines.append(
            f"[{i}] {_MARK[c['verdict']]}  ({c['rule_id'] or 'no rule'}"
            f"{', ' + c['hallucination_type'] if c['hallucination_type'] else ''})"
        )
        lines += textwrap.wrap(
            f"“{c['text']}”", width, initial_indent="    ", subsequent_indent="     "
        )
        obj = c["object_label"] or c["object"]
        lines.append(f"    claim: {c['subject_label'] or c['subject']} — {c['predicate']} — {obj}")
        if c["reason"]:
            lines += textwrap.wrap(
                f"why: {c['reason']}", width, initial_indent="    ", subsequent_indent="         "
            )
        for ev in c["evidence"][:3]:
            if ev.get("role") == "rule":
                lines.append(f"    rule {ev['rule']}: {ev['citation']['text']}")
                continue
            stmt = ev.get("statement") or ev.get("name", "")
            src = ev.get("source") or {}
            where = ", ".join(x for x in (src.get("document"), src.get("section")) if x)
            lines.append(f"    {ev['role']}: {stmt}")
            if where:
                lines.append(
                    f"      source: {where}" + (f" <{src['url']}>" if src.get("url") else "")
                )
        lines.append("")
    if d["citations"]:
        lines.append("citations:")
        for c in d["citations"]:
            who = " (supplied by caller)" if c["caller_supplied"] else ""
            status = f"{c['outcome']} ({c['reason']})" if c.get("reason") else c["outcome"]
            lines.append(f"  {status:<30} {c['text']}{who} — {c['detail']}")
    lines.append(f"\nkg {d['kg_version']} · rules {d['rules_version']} · {d['auditor_version']}")
    return "\n".join(lines)
