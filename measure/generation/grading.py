"""Answer-level grading of a generated answer against the fact its question asks for.

The grade reads only the public audit result (``audit(...).to_dict()["claims"]``: subject,
predicate, object, verdict), so it does not depend on how the auditor finds claims. One
outcome per answer, checked in this order:

* ``wrong`` — a claim is contradicted, or a claim is about another subject (a claim whose
  subject the auditor could not resolve does not count as another subject);
* ``correct`` — a supported claim about the asked subject and predicate;
* ``non_answer`` — no claim about the asked subject (an empty answer, "I don't know", text
  with no checkable claim);
* ``off_target`` — claims about the subject, none contradicted, but none supported for the
  asked predicate (unverifiable, or about another of its relations).

A claim is about the subject when its subject is the asked one, or, for a symmetric relation
(``interactsWith``), when its object is.

>>> c = lambda s, p, o, v: {"subject": s, "predicate": p, "object": o, "verdict": v}
>>> grade([c("drug:a", "maxDose", "1 mg", "supported")], "drug:a", "maxDose")
'correct'
>>> grade([c("drug:a", "maxDose", "1 mg", "supported"), c("drug:b", "maxDose", "2 mg",
...        "unverifiable")], "drug:a", "maxDose")
'wrong'
>>> grade([c("drug:b", "interactsWith", "drug:a", "supported")], "drug:a", "interactsWith")
'correct'
>>> grade([], "drug:a", "maxDose"), grade([c("drug:a", "indicatedFor", "x", "supported")],
...       "drug:a", "maxDose")
('non_answer', 'off_target')
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

OUTCOMES = ("correct", "wrong", "non_answer", "off_target")
SYMMETRIC = frozenset({"interactsWith"})


def about(claim: Mapping[str, Any], subject: str) -> bool:
    """Whether ``claim`` is about ``subject`` (either end of a symmetric relation)."""
    if claim.get("subject") == subject:
        return True
    return claim.get("predicate") in SYMMETRIC and claim.get("object") == subject


def grade(claims: Iterable[Mapping[str, Any]], subject: str, predicate: str) -> str:
    """The outcome of an answer with ``claims`` to a question about (subject, predicate)."""
    claims = list(claims)
    for c in claims:
        if c.get("verdict") == "contradicted":
            return "wrong"
        if c.get("subject") is not None and not about(c, subject):
            return "wrong"
    mine = [c for c in claims if about(c, subject)]
    if any(c.get("predicate") == predicate and c.get("verdict") == "supported" for c in mine):
        return "correct"
    return "off_target" if mine else "non_answer"


def rates(outcomes: Iterable[str]) -> dict[str, float | None]:
    """Share of each outcome among all answers (None when there are none).

    >>> rates(["correct", "wrong", "correct", "non_answer"])["correct"]
    0.5
    """
    got = list(outcomes)
    n = len(got)
    return {o: (got.count(o) / n if n else None) for o in OUTCOMES}
