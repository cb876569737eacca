"""Golden realistic cases: one YAML file per case (``tests/golden/<domain>/*.yaml``).

Each case holds the answer text, the date it is judged at, the verdict a correct auditor must
give for each checkable statement (identified by a substring of its sentence), the expected
outcome of its citations, and whether the answer as a whole contains a hallucination. Cases
the auditor is known to get wrong are listed in ``known_failures.yaml`` next to them, with
the reason, so the suite stays green while the gap stays visible.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import yaml

from auditor.errors import DataError
from auditor.types import AuditResult
from measure.evaluation.cases import Case, ExpectedClaim
from measure.evaluation.metrics import flagged, sentence_verdict


@dataclass
class GoldenCase:
    path: Path
    domain: str
    as_of: str
    text: str
    expect: list[dict[str, Any]]
    citations: list[dict[str, Any]] = field(default_factory=list)
    hallucinated: bool = False
    description: str = ""

    @property
    def id(self) -> str:
        return f"{self.domain}/{self.path.stem}"

    def as_case(self) -> Case:
        claims = [
            ExpectedClaim(
                _sentence_of(self.text, e["match"]),
                e["verdict"],
                e.get("type"),
                e["verdict"] == "contradicted",
            )
            for e in self.expect
        ]
        return Case(self.id, self.domain, self.as_of, self.text, claims)


def _sentence_of(text: str, match: str) -> str:
    """The sentence (by the auditor's own segmentation) that contains ``match``."""
    from auditor.extract.segment import split_sentences

    pos = text.find(match)
    for s in split_sentences(text):
        if s.start <= pos < s.end:
            return s.text
    return match


def load_golden(root: Path) -> list[GoldenCase]:
    cases = []
    for path in sorted(root.glob("*/*.yaml")):
        if path.name == "known_failures.yaml":
            continue
        try:
            doc = yaml.safe_load(path.read_text(encoding="utf-8"))
            cases.append(
                GoldenCase(
                    path=path,
                    domain=doc["domain"],
                    as_of=str(doc["as_of"]),
                    text=doc["text"],
                    expect=doc.get("expect") or [],
                    citations=doc.get("citations") or [],
                    hallucinated=bool(doc.get("hallucinated")),
                    description=doc.get("description", ""),
                )
            )
        except (KeyError, TypeError, yaml.YAMLError) as exc:
            raise DataError(f"malformed golden case ({exc})", location=str(path)) from exc
    return cases


def load_known_failures(root: Path) -> dict[str, str]:
    """``"<domain>/<file stem>#<match>"`` (or a whole case id) → reason."""
    path = root / "known_failures.yaml"
    if not path.exists():
        return {}
    doc = yaml.safe_load(path.read_text(encoding="utf-8")) or {}
    return {str(k): str(v) for k, v in (doc.get("known_failures") or {}).items()}


def check_case(case: GoldenCase, result: AuditResult) -> list[str]:
    """Differences between the auditor's result and the case's expectations (empty: all good)."""
    problems = []
    for e in case.expect:
        sentence = _sentence_of(case.text, e["match"])
        got = sentence_verdict(result, case.text, sentence)
        if got != e["verdict"]:
            problems.append(f"{case.id}#{e['match']}: expected {e['verdict']}, got {got}")
    for c in case.citations:
        found = [chk for chk in result.citations if c["match"] in chk.text]
        got = (found[0].outcome, found[0].reason) if found else ("missing", "")
        want = (c["outcome"], c.get("reason", got[1]))
        if got != want:
            problems.append(
                f"{case.id}#{c['match']}: citation expected {'/'.join(want)}, got {'/'.join(got)}"
            )
    if flagged(result) != case.hallucinated:
        problems.append(
            f"{case.id}: answer expected hallucinated={case.hallucinated}, "
            f"auditor flagged={flagged(result)}"
        )
    return problems
