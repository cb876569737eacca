"""Stage 3 — scores: FER, coverage, citation confidence and the joint trust score.

* ``fer = contradicted / (supported + contradicted)``; ``None`` when nothing was verifiable.
* ``coverage = (supported + contradicted) / claims``; ``None`` when there are no claims.
* ``citation_confidence``: the mean of the per-citation scores — verified 1.0, unverified
  0.6, contradicted 0 (see :mod:`auditor.verify.citations`) — halved for every contradicted
  citation, so one bad citation pulls the score below 0.5 however many good ones surround
  it; ``None`` when the text cites nothing. Unverified citations ("could not be checked")
  score 0.6, above the 0.5 flag line, so they alone never flag an answer: they make it
  *need review*. Short forms, Id., supra and parallel citations resolved to an earlier
  citation (``resolved_to``) share its verdict and are not counted again.
* ``joint_score = (1 − fer) × citation_confidence``; when one factor is ``None`` the other
  alone is used; ``None`` when both are.

>>> round(citation_confidence([1.0, 1.0, 0.0], contradicted=1), 4)
0.3333
>>> round(citation_confidence([1.0, 0.6, 0.6], contradicted=0), 4)
0.7333
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from typing import TypedDict

from auditor.types import CitationCheck, Claim


def citation_confidence(scores: Sequence[float], *, contradicted: int) -> float | None:
    if not scores:
        return None
    return (sum(scores) / len(scores)) * (0.5**contradicted)


class Scores(TypedDict):
    """What :func:`score` returns."""

    fer: float | None
    coverage: float | None
    citation_confidence: float | None
    joint_score: float | None
    counts: dict[str, int]
    hallucination_types: dict[str, int]


def score(claims: Sequence[Claim], citations: Sequence[CitationCheck]) -> Scores:
    counts = Counter(c.verdict for c in claims)
    sup, con, unv = counts["supported"], counts["contradicted"], counts["unverifiable"]
    fer = con / (sup + con) if sup + con else None
    coverage = (sup + con) / len(claims) if claims else None
    counted = [c for c in citations if c.resolved_to is None]
    cc = citation_confidence(
        [c.score for c in counted],
        contradicted=sum(1 for c in counted if c.outcome == "contradicted"),
    )
    if fer is None and cc is None:
        joint = None
    elif fer is None:
        joint = cc
    elif cc is None:
        joint = 1.0 - fer
    else:
        joint = (1.0 - fer) * cc
    types = Counter(
        c.hallucination_type for c in claims if c.verdict == "contradicted" and c.hallucination_type
    )
    return {
        "fer": _r(fer),
        "coverage": _r(coverage),
        "citation_confidence": _r(cc),
        "joint_score": _r(joint),
        "counts": {"supported": sup, "contradicted": con, "unverifiable": unv},
        "hallucination_types": dict(types),
    }


def citation_counts(citations: Sequence[CitationCheck]) -> dict[str, int]:
    """Citations per outcome (every check, resolved ones included)."""
    got = Counter(c.outcome for c in citations)
    return {o: got[o] for o in ("verified", "contradicted", "unverified")}


def _r(x: float | None) -> float | None:
    return None if x is None else round(x, 6)
