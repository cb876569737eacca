"""Run the auditor over labelled cases and compute answer- and claim-level metrics.

An answer is *flagged* by the auditor when it has a contradicted claim or its citation
confidence is below ``CITATION_FLAG`` (a well-formed but unknown citation is `unverifiable`,
never `contradicted`, yet it should not pass unnoticed).
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

from auditor.types import AuditResult
from measure.evaluation.cases import Case, ExpectedClaim

CITATION_FLAG = 0.5


def flagged(result: AuditResult) -> bool:
    return result.counts.get("contradicted", 0) > 0 or (
        result.citation_confidence is not None and result.citation_confidence < CITATION_FLAG
    )


def sentence_verdict(result: AuditResult, case_text: str, sentence: str) -> str:
    """The auditor's verdict for one expected sentence: the worst verdict of its claims."""
    start = case_text.find(sentence)
    if start < 0:
        return "unverifiable"
    end = start + len(sentence)
    verdicts = {c.verdict for c in result.claims if c.start < end and start < c.end}
    if "contradicted" in verdicts:
        return "contradicted"
    if "supported" in verdicts:
        return "supported"
    return "unverifiable"


@dataclass
class Tally:
    tp: int = 0
    fp: int = 0
    fn: int = 0
    tn: int = 0
    claims: int = 0
    claims_right: int = 0
    fer_errors: list[float] = field(default_factory=list)
    by_kind: dict[str, list[int]] = field(default_factory=lambda: defaultdict(lambda: [0, 0]))

    def add(self, case: Case, result: AuditResult) -> list[dict[str, Any]]:
        pred, gold = flagged(result), case.hallucinated
        self.tp += pred and gold
        self.fp += pred and not gold
        self.fn += gold and not pred
        self.tn += not pred and not gold
        for k in case.kinds:
            self.by_kind[k][0] += 1
            self.by_kind[k][1] += pred
        misses = []
        for exp in case.claims:
            got = sentence_verdict(result, case.text, exp.sentence)
            self.claims += 1
            self.claims_right += got == exp.verdict
            if got != exp.verdict:
                misses.append(
                    {
                        "case": case.id,
                        "sentence": exp.sentence,
                        "expected": exp.verdict,
                        "got": got,
                        "kind": exp.kind,
                    }
                )
        true_fer = _fer(case.claims)
        if true_fer is not None and result.fer is not None:
            self.fer_errors.append(abs(true_fer - result.fer))
        return misses

    def summary(self) -> dict[str, Any]:
        p = self.tp / (self.tp + self.fp) if self.tp + self.fp else 1.0
        r = self.tp / (self.tp + self.fn) if self.tp + self.fn else 1.0
        f1 = 2 * p * r / (p + r) if p + r else 0.0
        return {
            "answers": self.tp + self.fp + self.fn + self.tn,
            "precision": round(p, 4),
            "recall": round(r, 4),
            "f1": round(f1, 4),
            "claim_accuracy": round(self.claims_right / self.claims, 4) if self.claims else None,
            "claims": self.claims,
            "fer_mae": round(sum(self.fer_errors) / len(self.fer_errors), 4)
            if self.fer_errors
            else None,
            "recall_by_kind": {k: round(v[1] / v[0], 4) for k, v in sorted(self.by_kind.items())},
            "confusion": {"tp": self.tp, "fp": self.fp, "fn": self.fn, "tn": self.tn},
        }


def _fer(claims: Sequence[ExpectedClaim]) -> float | None:
    sup = sum(c.verdict == "supported" for c in claims)
    con = sum(c.verdict == "contradicted" for c in claims)
    return con / (sup + con) if sup + con else None


def evaluate(cases: Iterable[Case], audit_fn) -> dict[str, Any]:  # type: ignore[no-untyped-def]
    """Metrics per domain (and overall) plus the list of claim-level misses."""
    tallies: dict[str, Tally] = defaultdict(Tally)
    misses: list[dict[str, Any]] = []
    for case in cases:
        result = audit_fn(case)
        misses += tallies[case.domain].add(case, result)
        tallies["all"].add(case, result)
    return {"domains": {d: t.summary() for d, t in sorted(tallies.items())}, "misses": misses}
