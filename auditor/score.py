"""Stage 3 — scores: FER, coverage, citation confidence and the joint trust score.

* ``fer = contradicted / (supported + contradicted)``; ``None`` when nothing was verifiable.
* ``coverage = (supported + contradicted) / claims``; ``None`` when there are no claims.
* ``citation_confidence``: the mean of the per-citation scores (see
  :mod:`auditor.verify.citations`), halved for every citation that is contradicted
  (impossible, wrong case, wrong year, failed checksum) and multiplied by 0.75 for every
  citation that could not be found, so one bad citation pulls the score towards 0 however
  many good ones surround it; ``None`` when the text cites nothing.
* ``joint_score = (1 − fer) × citation_confidence``; when one factor is ``None`` the other
  alone is used; ``None`` when both are.

>>> round(citation_confidence([1.0, 1.0, 0.0], contradicted=1), 4)
0.3333
>>> round(citation_confidence([1.0, 0.25], contradicted=0, not_found=1), 4)
0.4688
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence

from auditor.types import CitationCheck, Claim


def citation_confidence(
    scores: Sequence[float], *, contradicted: int, not_found: int = 0
) -> float | None:
    if not scores:
        return None
    return (sum(scores) / len(scores)) * (0.5**contradicted) * (0.75**not_found)


def score(claims: Sequence[Claim], citations: Sequence[CitationCheck]) -> dict[str, object]:
    counts = Counter(c.verdict for c in claims)
    sup, con, unv = counts["supported"], counts["contradicted"], counts["unverifiable"]
    fer = con / (sup + con) if sup + con else None
    coverage = (sup + con) / len(claims) if claims else None
    from auditor.verify.citations import CONTRADICTING

    cc = citation_confidence(
        [c.score for c in citations],
        contradicted=sum(1 for c in citations if c.outcome in CONTRADICTING),
        not_found=sum(1 for c in citations if c.outcome == "not_found"),
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


def _r(x: float | None) -> float | None:
    return None if x is None else round(x, 6)
