"""The real-phrasing corpus: sentences written by others, with hand-labelled in-graph claims.

Records live in ``tests/corpus/real/<domain>.jsonl`` (format in that folder's README): each is
one verbatim sentence or short passage with its URL and retrieval date, and ``claims``: the
statements it makes that the graph could decide, each with its exact ``span``, the graph
``relation``, ``in_graph`` and a ``label`` checked by hand against the graph fact's own source.

Each record is audited on its own text (domain from the record, as of its ``as_of`` or, when
the text is undated, its retrieval date). A labelled claim takes the verdict of the audit
claims (and citations) of the same relation whose spans overlap its span; when several do,
an item of a value relation (dose, rate,
threshold, ratio, washout, citation) must carry one of the span's numbers, and otherwise the
items naming most of the label's subject and value words are kept. Per domain:

* **false alarms** — contradicted claims or citations that no ``false``-labelled claim
  explains (goal 0: the text is correct where it is not labelled false);
* **coverage** — share of in-graph labelled claims that get supported or contradicted
  (goal ≥ 0.85); the rest are listed as **missed** with what the audit said;
* **agreement** — share of the decided in-graph claims whose verdict matches the label
  (supported ↔ true, contradicted ↔ false); **wrong supports** — supported claims labelled
  false (goal 0: each certifies an error), and **supports on false spans** — supported items of
  any relation that carry a false-labelled span's numbers (an error certified under another
  relation).
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from auditor.types import AuditResult
from measure.evaluation.realistic import CONTRADICTING_OUTCOMES

RECORD_KEYS = frozenset({"id", "text", "url", "retrieved", "domain", "claims", "as_of"})
CLAIM_KEYS = frozenset(
    {"span", "relation", "subject", "value", "in_graph", "label", "checked_against"}
)
LABELS = frozenset({"true", "false", "unknown"})
DOMAINS = frozenset({"finance", "medical", "legal"})
MAX_TEXT = 400
_NUMBER = re.compile(r"\d+(?:[.,]\d+)*")
CITED_RELATIONS = frozenset({"statuteSubject", "officialIdentifier"})
ENTITY_RELATIONS = frozenset({"fatfListed", "interactsWith", "currency"})
VALUE_RELATIONS = frozenset(
    {"maxDose", "policyRate", "reportingThreshold", "minimumRatio", "washoutBefore", "citation"}
)


def schema_problems(rec: dict[str, Any]) -> list[str]:
    """Every way ``rec`` breaks the corpus format, as short sentences (empty when valid)."""
    rid = rec.get("id", "?")
    out = [f"{rid}: missing key {k!r}" for k in sorted(RECORD_KEYS - {"as_of"}) if k not in rec]
    out += [f"{rid}: unknown key {k!r}" for k in sorted(set(rec) - RECORD_KEYS)]
    text = rec.get("text") or ""
    if not isinstance(text, str) or not text.strip() or len(text) > MAX_TEXT:
        out.append(f"{rid}: text must be a non-empty string of at most {MAX_TEXT} characters")
    if not str(rec.get("url", "")).startswith(("http://", "https://")):
        out.append(f"{rid}: url must be an http(s) address")
    if not re.fullmatch(r"\d{4}-\d{2}-\d{2}", str(rec.get("retrieved", ""))):
        out.append(f"{rid}: retrieved must be an ISO date")
    if rec.get("domain") not in DOMAINS:
        out.append(f"{rid}: domain must be one of {sorted(DOMAINS)}")
    claims = rec.get("claims")
    if not isinstance(claims, list):
        return [*out, f"{rid}: claims must be a list"]
    for i, c in enumerate(claims):
        where = f"{rid} claim {i}"
        out += [f"{where}: missing key {k!r}" for k in sorted(CLAIM_KEYS - set(c))]
        out += [f"{where}: unknown key {k!r}" for k in sorted(set(c) - CLAIM_KEYS)]
        if c.get("span") not in text:
            out.append(f"{where}: span {c.get('span')!r} is not a substring of the text")
        if c.get("label") not in LABELS:
            out.append(f"{where}: label must be one of {sorted(LABELS)}")
        if not isinstance(c.get("in_graph"), bool):
            out.append(f"{where}: in_graph must be true or false")
    return out


def load_records(folder: Path, domains: Iterable[str] = DOMAINS) -> list[dict[str, Any]]:
    """The records of ``folder/<domain>.jsonl`` for the wanted domains, in file order."""
    out: list[dict[str, Any]] = []
    for d in sorted(domains):
        path = folder / f"{d}.jsonl"
        if path.is_file():
            out += [json.loads(x) for x in path.read_text(encoding="utf-8").splitlines() if x]
    return out


@dataclass
class _Item:
    """One audit verdict: a claim, or a citation no claim already covers."""

    predicate: str
    start: int
    end: int
    verdict: str
    what: str


def _items(result: AuditResult) -> list[_Item]:
    out = [
        _Item(c.predicate, c.start, c.end, c.verdict,
              f"{c.subject} {c.predicate} {c.object}: {c.reason}")
        for c in result.claims
    ]  # fmt: skip
    spans = {(c.start, c.end) for c in result.claims}
    for c in result.citations:
        if c.caller_supplied or (c.start, c.end) in spans:
            continue
        verdict = "contradicted" if c.outcome in CONTRADICTING_OUTCOMES else (
            "supported" if c.outcome == "verified" else "unverifiable")  # fmt: skip
        out.append(_Item("citation", c.start, c.end, verdict, f"citation {c.text}: {c.detail}"))
    return out


def _numbers(s: str) -> set[float]:
    out = set()
    for m in _NUMBER.findall(s):
        try:
            out.add(float(m.replace(",", "")))
        except ValueError:
            continue
    return out


def _head(item: _Item) -> str:
    """The item's subject, predicate and object, without the reason."""
    return item.what.split(": ", 1)[0]


def _affinity(claim: dict[str, Any], item: _Item) -> int:
    """How many of the label's subject and value words the audit item names."""
    head = _head(item).lower()
    score = 0
    for key in ("subject", "value"):
        words = [w for w in re.split(r"[^a-z0-9]+", str(claim.get(key, "")).lower()) if len(w) > 1]
        score += sum(w in head for w in words)
    return score


def _matching(claim: dict[str, Any], start: int, items: list[_Item]) -> list[_Item]:
    """Audit items of the label's relation over its span. For a value relation whose span
    carries a number, an item must carry one of those numbers in its claim (or, failing that,
    in its reason: a washout's days sit there);
    otherwise, among several items (or any item of a relation between named entities), those
    naming most of the label's subject and value words."""
    end = start + len(claim["span"])
    rel = claim["relation"]
    cands = [
        it for it in items
        if it.start < end and start < it.end
        and (it.predicate == rel or (rel in CITED_RELATIONS and it.predicate == "citation"))
    ]  # fmt: skip
    nums = _numbers(claim["span"])
    if rel in VALUE_RELATIONS and nums:
        by_head = [it for it in cands if nums & _numbers(_head(it))]
        return by_head or [it for it in cands if nums & _numbers(it.what)]
    if len(cands) > 1 or (cands and rel in ENTITY_RELATIONS):
        best = max(_affinity(claim, it) for it in cands)
        cands = [it for it in cands if best > 0 and _affinity(claim, it) == best]
    return cands


def _supports_on(claim: dict[str, Any], start: int, items: list[_Item]) -> list[_Item]:
    """Supported items of any relation over a false-labelled span that carry its numbers
    (or, when the span has none, that it covers): each certifies the error."""
    end = start + len(claim["span"])
    nums = _numbers(claim["span"])
    return [
        it for it in items
        if it.verdict == "supported" and it.start < end and start < it.end
        and (nums & _numbers(_head(it)) if nums else start <= it.start and it.end <= end)
    ]  # fmt: skip


@dataclass
class RecordOutcome:
    """One record's audit read against its labels: each claim's verdict (``none`` when no
    audit item of its relation covers it), the unexplained contradictions and the supports
    that certify a false-labelled span."""

    record: dict[str, Any]
    verdicts: list[tuple[dict[str, Any], str, list[str]]]  # (claim, verdict, what)
    false_alarms: list[str] = field(default_factory=list)
    supports_on_false: list[str] = field(default_factory=list)  # any relation


def judge(rec: dict[str, Any], result: AuditResult) -> RecordOutcome:
    """Each labelled claim's verdict and the record's unexplained contradictions."""
    items = _items(result)
    explained: set[int] = set()
    verdicts = []
    supports: list[str] = []
    for c in rec["claims"]:
        start = rec["text"].find(c["span"])
        got = _matching(c, start, items)
        kinds = {it.verdict for it in got}
        verdict = next((v for v in ("contradicted", "supported", "unverifiable") if v in kinds),
                       "none")  # fmt: skip
        if c["label"] == "false":
            explained |= {id(it) for it in got if it.verdict == "contradicted"}
            supports += [it.what[:240] for it in _supports_on(c, start, items)]
        verdicts.append((c, verdict, [it.what[:240] for it in got]))
    alarms = [it.what[:240] for it in items
              if it.verdict == "contradicted" and id(it) not in explained]  # fmt: skip
    return RecordOutcome(rec, verdicts, alarms, supports)


def summarise(outcomes: list[RecordOutcome]) -> dict[str, Any]:
    """Counts and rates for one set of records (see the module docstring)."""

    def ratio(a: int, b: int) -> float | None:
        return round(a / b, 4) if b else None

    in_graph = [(c, v) for o in outcomes for c, v, _ in o.verdicts if c["in_graph"]]
    decided = [(c, v) for c, v in in_graph if v in ("supported", "contradicted")]
    agree = [(c, v) for c, v in decided
             if (v == "supported") == (c["label"] == "true") and c["label"] != "unknown"]  # fmt: skip
    clean = [o for o in outcomes if all(c["label"] != "false" for c in o.record["claims"])]
    return {
        "records": len(outcomes),
        "claims": sum(len(o.verdicts) for o in outcomes),
        "in_graph_claims": len(in_graph),
        "false_alarms": sum(len(o.false_alarms) for o in outcomes),
        "records_with_false_alarms": sum(bool(o.false_alarms) for o in outcomes),
        "clean_records": len(clean),
        "contradictions_on_clean_records": sum(len(o.false_alarms) for o in clean),
        "coverage": ratio(len(decided), len(in_graph)),
        "agreement": ratio(len(agree), len(decided)),
        "wrong_supports": sum(v == "supported" and c["label"] == "false" for c, v in in_graph),
        "supports_on_false_spans": sum(len(o.supports_on_false) for o in outcomes),
        "false_labelled_caught": sum(
            v == "contradicted" and c["label"] == "false" for c, v in in_graph
        ),
        "false_labelled": sum(c["label"] == "false" for c, _ in in_graph),
    }


def failures(outcomes: list[RecordOutcome]) -> list[dict[str, Any]]:
    """False alarms, wrong supports, disagreements and missed in-graph claims, per record."""
    out = []
    for o in outcomes:
        missed, wrong = [], []
        for c, v, what in o.verdicts:
            if not c["in_graph"]:
                continue
            row = {"span": c["span"], "relation": c["relation"], "label": c["label"],
                   "verdict": v, "audit": what}  # fmt: skip
            if v in ("none", "unverifiable"):
                missed.append(row)
            elif (v == "supported") != (c["label"] == "true"):
                wrong.append(row)
        if o.false_alarms or missed or wrong or o.supports_on_false:
            out.append({"id": o.record["id"], "text": o.record["text"],
                        "url": o.record["url"], "false_alarms": o.false_alarms,
                        "supports_on_false": o.supports_on_false,
                        "disagreements": wrong, "missed": missed})  # fmt: skip
    return out


def evaluate(
    records: list[dict[str, Any]], audit: Callable[[str, str, str], AuditResult]
) -> dict[str, Any]:
    """Audit every record and report per domain and overall, with the failures."""
    outcomes = [
        judge(r, audit(r["text"], r["domain"], r.get("as_of") or r["retrieved"])) for r in records
    ]
    domains = sorted({r["domain"] for r in records})
    metrics = {d: summarise([o for o in outcomes if o.record["domain"] == d]) for d in domains}
    metrics["all"] = summarise(outcomes)
    return {"metrics": metrics, "failures": failures(outcomes)}


__all__ = [
    "RecordOutcome",
    "evaluate",
    "failures",
    "judge",
    "load_records",
    "schema_problems",
    "summarise",
]
