"""The features of an audit that the risk model reads — the audit's own findings only.

Counts of claims per verdict, of contradicted claims per hallucination type and per rule
severity, of unverifiable claims per severity; coverage, FER and citation confidence (with
an indicator when they are undefined); citation outcomes; fuzzy links (how many claims rest
on one, the weakest similarity, and how many of those were contradicted); the domain.

>>> FEATURES[:4]
('claims', 'supported', 'contradicted', 'unverifiable')
"""

from __future__ import annotations

from auditor.types import VERDICTS, AuditResult
from rules.schema import HALLUCINATION_TYPES

DOMAINS = ("finance", "medical", "legal")
SEVERITIES = ("critical", "high", "medium", "low")
CITATION_OUTCOMES = (  # outcome:reason of a citation check (auditor/verify/citations.py)
    "verified",
    "unverified:valid_format",
    "unverified:not_in_index",
    "unverified:other",
    "contradicted:misattributed",
    "contradicted:nonexistent",
    "contradicted:wrong_year",
    "contradicted:impossible_date",
    "contradicted:invalid_checksum",
    "contradicted:other",
)
FEATURES: tuple[str, ...] = (
    "claims",
    *VERDICTS,
    "coverage",
    "fer",
    "fer_undefined",
    "citation_confidence",
    "no_citations",
    *(f"type:{t}" for t in HALLUCINATION_TYPES),
    *(f"contradicted:{s}" for s in SEVERITIES),
    *(f"unverifiable:{s}" for s in SEVERITIES),
    *(f"citation:{o}" for o in CITATION_OUTCOMES),
    "citations_other",
    "fuzzy_claims",
    "fuzzy_min_score",
    "fuzzy_contradicted",
    "context_subjects",
    *(f"domain:{d}" for d in DOMAINS),
)


def features(result: AuditResult) -> list[float]:
    """The feature vector of ``result`` in :data:`FEATURES` order."""
    f: dict[str, float] = dict.fromkeys(FEATURES, 0.0)
    claims = result.claims
    f["claims"] = len(claims)
    for v in VERDICTS:
        f[v] = result.counts.get(v, 0)
    f["coverage"] = result.coverage if result.coverage is not None else 0.0
    f["fer"] = result.fer if result.fer is not None else 0.0
    f["fer_undefined"] = float(result.fer is None)
    cc = result.citation_confidence
    f["citation_confidence"] = cc if cc is not None else 1.0
    f["no_citations"] = float(cc is None)
    for t, n in result.hallucination_types.items():
        if f"type:{t}" in f:
            f[f"type:{t}"] = n
    fuzzy_scores = []
    for c in claims:
        sev = c.severity if c.severity in SEVERITIES else "medium"
        if c.verdict in ("contradicted", "unverifiable"):
            f[f"{c.verdict}:{sev}"] += 1
        if c.fuzzy_score is not None:
            fuzzy_scores.append(c.fuzzy_score)
            f["fuzzy_contradicted"] += c.verdict == "contradicted"
        if c.qualifiers.get("subject_from_context") == "true":
            f["context_subjects"] += 1
    f["fuzzy_claims"] = len(fuzzy_scores)
    f["fuzzy_min_score"] = min(fuzzy_scores) if fuzzy_scores else 1.0
    for chk in result.citations:
        if chk.resolved_to is not None:
            continue  # a back-reference shares its antecedent's outcome: counted once
        key = (
            "citation:verified"
            if chk.outcome == "verified"
            else (f"citation:{chk.outcome}:{chk.reason}")
        )
        if key not in f:
            key = f"citation:{chk.outcome}:other"
        if key in f:
            f[key] += 1
        else:
            f["citations_other"] += 1
    for d in result.domains or [result.domain]:
        if f"domain:{d}" in f:
            f[f"domain:{d}"] = 1.0
    return [float(f[name]) for name in FEATURES]


def contradicted(result: AuditResult) -> bool:
    """Evidence of a hallucination: a contradicted claim or a contradicted citation."""
    return result.counts.get("contradicted", 0) > 0 or any(
        c.outcome == "contradicted" for c in result.citations
    )
