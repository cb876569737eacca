"""Precision-first evaluation on long realistic answers and on the truth corpus.

Cases are the span-labelled answers of ``tests/realistic/<domain>/*.yaml`` (format in that
folder's README) and, optionally, JSONL files of the same shape (``../shared/data/
realistic_dev/answers.jsonl``). The truth corpus is authoritative text that must yield no
contradiction (``../shared/data/truth/*.jsonl``).

Per domain:

* **answer FPR** — fully correct answers that *fail* (any contradicted claim or citation);
* **answer recall** — answers with errors that fail;
* **precision of contradicted claims** — contradicted claims (and citations) whose span overlaps
  a labelled error span;
* **precision of supported claims** — supported claims that overlap no error span;
* **recall of checkable errors** — errors the graph can catch (``checkable: true``, or
  ``in_graph: true`` in the JSONL sets) that are overlapped by a contradicted claim or citation,
  and **localisation** — the same, as a share of the checkable errors in answers that fail;
* **supports on errors** — supported claims and verified citations whose span overlaps a
  labelled error span (goal 0: each certifies part of an error);
* **truth** — passages and contradicted claims on the truth corpus.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import yaml

from auditor.types import AuditResult

CONTRADICTING_OUTCOMES = frozenset(
    {"contradicted", "name_mismatch", "year_mismatch", "impossible", "invalid_checksum"}
)


@dataclass
class RealisticCase:
    id: str
    domain: str
    as_of: str
    text: str
    errors: list[dict[str, Any]] = field(default_factory=list)
    source: str = ""

    def spans(self) -> list[tuple[int, int, dict[str, Any]]]:
        out = []
        for e in self.errors:
            pos = self.text.find(e["span"])
            if pos < 0:
                raise ValueError(f"{self.id}: error span {e['span']!r} is not in the text")
            out.append((pos, pos + len(e["span"]), e))
        return out


def load_cases(folder: Path | None, dev_files: Iterable[Path] = ()) -> list[RealisticCase]:
    """Every case of ``folder/<domain>/*.yaml`` and of the JSONL ``dev_files``."""
    cases: list[RealisticCase] = []
    if folder is not None and folder.is_dir():
        for path in sorted(folder.glob("*/*.yaml")):
            d = yaml.safe_load(path.read_text(encoding="utf-8"))
            cases.append(
                RealisticCase(
                    str(d["id"]),
                    str(d["domain"]),
                    str(d["as_of"]),
                    d["text"],
                    d.get("errors") or [],
                    str(path),
                )
            )
    for f in dev_files:
        for line in f.read_text(encoding="utf-8").splitlines():
            if line.strip():
                d = json.loads(line)
                cases.append(
                    RealisticCase(
                        d["id"], d["domain"], d["as_of"], d["text"], d.get("errors") or [], str(f)
                    )
                )
    return cases


@dataclass
class CaseOutcome:
    case: RealisticCase
    fails: bool
    false_contradictions: list[dict[str, Any]]
    missed: list[dict[str, Any]]  # checkable errors no contradiction overlaps
    caught: int
    checkable: int
    contradictions: int
    contradictions_on_errors: int
    supported: int
    supported_on_errors: int
    supports_on_errors: list[str] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return (
            not self.false_contradictions
            and not self.missed
            and (
                self.fails == bool(self.case.errors)
                or not any(_checkable(e) for e in self.case.errors)
            )
        )


_YEAR_PAREN = re.compile(r"[^;()\n]{0,120}?\((?:[^()]{0,40}?\s)?\d{4}\)")


def _contradicted_spans(result: AuditResult, text: str = "") -> list[tuple[int, int, str]]:
    """Contradicted claims and citations; a citation's span runs to its year parenthetical
    ("556 U.S. 662, 678, 129 S. Ct. 1937, 173 L. Ed. 2d 868 (2008)": the year is all of them)."""
    out = []
    for c in result.claims:
        if c.verdict != "contradicted":
            continue
        m = _YEAR_PAREN.match(text, c.end) if text and c.predicate == "citation" else None
        out.append((c.start, m.end() if m else c.end,
                    f"{c.subject} {c.predicate} {c.object}: {c.reason}"))  # fmt: skip
    for c in result.citations:
        if c.outcome not in CONTRADICTING_OUTCOMES or c.caller_supplied:
            continue
        m = _YEAR_PAREN.match(text, c.end) if text else None
        out.append((c.start, m.end() if m else c.end, f"citation {c.text}: {c.detail}"))
    return out


def judge(case: RealisticCase, result: AuditResult) -> CaseOutcome:
    spans = case.spans()

    def on_error(a: int, b: int) -> bool:
        return any(a < e and s < b for s, e, _ in spans)

    contra = _contradicted_spans(result, case.text)
    false = [{"text": case.text[a:b][:200], "why": why} for a, b, why in contra
             if not on_error(a, b)]  # fmt: skip
    checkable = [(s, e, err) for s, e, err in spans if _checkable(err)]
    missed = [err for s, e, err in checkable if not any(a < e and s < b for a, b, _ in contra)]
    sup = [c for c in result.claims if c.verdict == "supported"]
    on_errors = [f"{c.subject} {c.predicate} {c.object}" for c in sup if on_error(c.start, c.end)]
    on_errors += [
        f"citation {c.text}"
        for c in result.citations
        if c.outcome == "verified" and not c.caller_supplied and on_error(c.start, c.end)
    ]
    return CaseOutcome(
        case,
        fails=bool(contra),
        false_contradictions=false,
        missed=missed,
        caught=len(checkable) - len(missed),
        checkable=len(checkable),
        contradictions=len(contra),
        contradictions_on_errors=len(contra) - len(false),
        supported=len(sup),
        supported_on_errors=sum(on_error(c.start, c.end) for c in sup),
        supports_on_errors=on_errors,
    )


def _checkable(err: dict[str, Any]) -> bool:
    """The graph can catch the error: ``checkable`` (YAML cases) or ``in_graph`` (JSONL)."""
    return bool(err.get("checkable", err.get("in_graph", True)))


def summarise(outcomes: list[CaseOutcome]) -> dict[str, Any]:
    def ratio(a: int, b: int) -> float | None:
        return round(a / b, 4) if b else None

    clean = [o for o in outcomes if not o.case.errors]
    wrong = [o for o in outcomes if o.case.errors]
    contra = sum(o.contradictions for o in outcomes)
    contra_ok = sum(o.contradictions_on_errors for o in outcomes)
    sup = sum(o.supported for o in outcomes)
    sup_bad = sum(o.supported_on_errors for o in outcomes)
    checkable = sum(o.checkable for o in outcomes)
    caught = sum(o.caught for o in outcomes)
    in_failing = sum(o.checkable for o in wrong if o.fails)
    return {
        "answers": len(outcomes),
        "clean": len(clean),
        "answer_fpr": ratio(sum(o.fails for o in clean), len(clean)),
        "answer_recall": ratio(sum(o.fails for o in wrong), len(wrong)),
        "contradicted_claims": contra,
        "contradicted_precision": ratio(contra_ok, contra),
        "supported_claims": sup,
        "supported_precision": ratio(sup - sup_bad, sup),
        "supports_on_errors": sum(len(o.supports_on_errors) for o in outcomes),
        "checkable_errors": checkable,
        "checkable_recall": ratio(caught, checkable),
        "localisation": ratio(caught, in_failing),
    }


def truth_outcomes(
    files: Iterable[Path], audit: Callable[[str, str, str], AuditResult]
) -> dict[str, dict[str, Any]]:
    """Contradictions on authoritative passages, per domain (each passage at its own date)."""
    out: dict[str, dict[str, Any]] = {}
    for f in files:
        for line in f.read_text(encoding="utf-8").splitlines():
            if not line.strip():
                continue
            d = json.loads(line)
            res = audit(d["text"], d["domain"], d["as_of"])
            contra = _contradicted_spans(res)
            row = out.setdefault(d["domain"], {"passages": 0, "passages_with_contradictions": 0,
                                               "contradictions": 0, "examples": []})  # fmt: skip
            row["passages"] += 1
            row["contradictions"] += len(contra)
            if contra:
                row["passages_with_contradictions"] += 1
                row["examples"].append({"id": d["id"], "why": contra[0][2][:240]})
    return out


__all__ = [
    "CaseOutcome",
    "RealisticCase",
    "judge",
    "load_cases",
    "summarise",
    "truth_outcomes",
]
