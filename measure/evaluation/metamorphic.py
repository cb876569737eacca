"""Metamorphic tests of the auditor: verdicts that must change, or must not, under a rewrite.

Three relations (the choices behind each are in docs/metamorphic.md):

* **value mutation** — every supported claim whose value is replaced by one outside its fact
  (:func:`measure.evaluation.mutations.value_mutations`) must come back ``contradicted``;
* **qualifier mutation** — swapping a qualifier the supporting fact depends on must never leave
  the claim supported by a fact of the old qualifier;
* **paraphrase invariance** — each wording of a set (``tests/corpus/paraphrase/*.yaml``) must
  get the set's verdict.

Each is reported as a rate per corpus and domain, with every failure (text, mutated text,
verdict got / expected). Corpora: the truth corpus, the team's realistic cases, the shared
dev sets and any extra folder; claims overlapping a labelled error span are not mutated.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import yaml

from auditor.types import AuditResult
from knowledge_graphs.store import KnowledgeBase
from measure.evaluation.mutations import (
    Mutation,
    evidence_qualifiers,
    fact_value,
    qualifier_mutations,
    value_mutations,
)
from measure.evaluation.realistic import CONTRADICTING_OUTCOMES, load_cases

AuditFn = Callable[[str, str, str], AuditResult]

__all__ = [
    "Passage",
    "load_paraphrase_sets",
    "load_passages",
    "run_metamorphic",
    "run_mutations",
    "run_paraphrases",
]


@dataclass
class Passage:
    """One text of a corpus, with the spans labelled wrong (never mutated)."""

    corpus: str
    id: str
    domain: str
    as_of: str
    text: str
    error_spans: list[tuple[int, int]] = field(default_factory=list)


def load_passages(
    truth_files: Iterable[Path] = (),
    realistic_dir: Path | None = None,
    dev_files: Iterable[Path] = (),
    extra_dir: Path | None = None,
) -> list[Passage]:
    """Passages of every corpus: truth JSONL, realistic YAML cases, dev JSONL, an extra folder
    (its ``*/*.yaml`` cases and ``*.jsonl`` files, both in the realistic shape)."""
    out: list[Passage] = []
    for f in truth_files:
        for line in f.read_text(encoding="utf-8").splitlines():
            if line.strip():
                d = json.loads(line)
                out.append(Passage("truth", d["id"], d["domain"], d["as_of"], d["text"]))

    def cases(name: str, folder: Path | None, files: Iterable[Path]) -> None:
        for c in load_cases(folder, files):
            spans = [(s, e) for s, e, _ in c.spans()]
            corpus = name if name != "dev" else f"dev:{Path(c.source).stem}"
            out.append(Passage(corpus, c.id, c.domain, c.as_of, c.text, spans))

    if realistic_dir is not None:
        cases("realistic", realistic_dir, ())
    cases("dev", None, dev_files)
    if extra_dir is not None:
        cases(f"corpus:{extra_dir.name}", extra_dir, sorted(extra_dir.glob("*.jsonl")))
    return out


def _region(m: Mutation) -> tuple[int, int]:
    s, e = m.shifted_claim()
    return min(s, m.start), max(e, m.start + len(m.replacement))


def _judge(m: Mutation, res: AuditResult) -> tuple[str, bool, str]:
    """The verdict the mutated claim got, whether the relation holds, and the claim's reason."""
    s, e = m.shifted_claim()
    rs, re_ = _region(m)
    claims = [c for c in res.claims if c.predicate == m.relation and c.start < e and s < c.end]
    ms, me = m.start, m.start + len(m.replacement)
    own = [c for c in claims if c.quantity is not None and c.quantity.start < me
           and ms < c.quantity.end]  # fmt: skip
    claims = own or claims  # the claim whose value was rewritten, not its neighbours
    if m.match:
        claims = [c for c in claims if all(c.qualifiers.get(k) == v for k, v in m.match)]
    if m.relation == "citation":  # the citation the rewritten year belongs to: nearest before it
        before = [c for c in claims if c.start <= m.start]
        claims = sorted(before, key=lambda c: c.start)[-1:] or claims
        rs = min([c.start for c in claims], default=m.start)
    cites = [c for c in res.citations if c.start < re_ and rs < c.end and not c.caller_supplied]
    verdicts = {c.verdict for c in claims}
    if any(c.outcome in CONTRADICTING_OUTCOMES for c in cites):
        verdicts.add("contradicted")
    got = next((v for v in ("contradicted", "supported", "unverifiable") if v in verdicts),
               "no claim")  # fmt: skip
    reason = next((str(c.reason) for c in claims if c.verdict == got), "")
    if m.kind == "value":
        return got, got == "contradicted", reason
    bad = [
        c for c in claims if c.verdict == "supported"
        and any(fact_value(m.dimension, evidence_qualifiers(ev)) not in (None, m.new_value)
                for ev in c.evidence if ev.get("role") == "supports")
    ]  # fmt: skip
    return got, not bad, reason


def run_mutations(
    passages: Iterable[Passage],
    audit: AuditFn,
    kinds: tuple[str, ...] = ("value", "qualifier"),
    kb: KnowledgeBase | None = None,
) -> dict[str, Any]:
    """Mutate every supported claim of every passage, re-audit the whole passage, judge."""
    tallies: dict[str, dict[str, dict[str, int]]] = {k: {} for k in kinds}
    failures: dict[str, list[dict[str, Any]]] = {k: [] for k in kinds}
    skips: dict[str, dict[str, int]] = {k: {} for k in kinds}
    for p in passages:
        res = audit(p.text, p.domain, p.as_of)
        seen: set[tuple[str, int, int, str]] = set()
        for claim in res.claims:
            if claim.verdict != "supported":
                continue
            if any(claim.start < e and s < claim.end for s, e in p.error_spans):
                continue  # already wrong: it certifies part of a labelled error
            for kind in kinds:
                if kind == "value":
                    muts, why = value_mutations(claim, p.text, kb)
                else:
                    muts, why = qualifier_mutations(claim, p.text)
                if why:
                    sk = skips[kind]
                    sk[why] = sk.get(why, 0) + 1
                for m in muts:
                    key = (kind, m.start, m.end, m.replacement)
                    if key in seen:
                        continue
                    seen.add(key)
                    mutated = m.apply(p.text)
                    got, ok, reason = _judge(m, audit(mutated, p.domain, p.as_of))
                    row = tallies[kind].setdefault(f"{p.corpus}/{p.domain}", {"n": 0, "ok": 0})
                    row["n"] += 1
                    row["ok"] += ok
                    if not ok:
                        s, e = m.shifted_claim()
                        failures[kind].append({
                            "corpus": p.corpus, "id": p.id, "domain": p.domain,
                            "relation": m.relation, "dimension": m.dimension or None,
                            "text": p.text[claim.start : claim.end],
                            "mutated": mutated[min(s, m.start) : max(e, m.start + len(m.replacement))],
                            "replaced": f"{p.text[m.start : m.end]} -> {m.replacement}",
                            "got": got,
                            "expected": m.expected,
                            "reason": reason[:300],
                        })  # fmt: skip
    return {k: {"rates": _rates(tallies[k]), "failures": failures[k], "skipped": skips[k]}
            for k in kinds}  # fmt: skip


def _rates(t: dict[str, dict[str, int]]) -> dict[str, dict[str, Any]]:
    out = {k: {"n": v["n"], "ok": v["ok"], "rate": round(v["ok"] / v["n"], 4) if v["n"] else None}
           for k, v in sorted(t.items())}  # fmt: skip
    n, ok = sum(v["n"] for v in t.values()), sum(v["ok"] for v in t.values())
    out["all"] = {"n": n, "ok": ok, "rate": round(ok / n, 4) if n else None}
    return out


# ---- paraphrase invariance ---------------------------------------------------------------

_KEYS = {"relation", "domain", "as_of", "predicate", "sets"}
_SET_KEYS = {"id", "expected", "wordings", "note"}


def load_paraphrase_sets(folder: Path) -> list[dict[str, Any]]:
    """Every wording set of ``folder/*.yaml``, checked: known keys, ≥ 10 wordings, a verdict."""
    out = []
    for path in sorted(folder.glob("*.yaml")):
        d = yaml.safe_load(path.read_text(encoding="utf-8"))
        unknown = set(d) - _KEYS
        if unknown or not _KEYS - {"sets"} <= set(d):
            raise ValueError(f"{path}: keys must be {sorted(_KEYS)} (unknown: {sorted(unknown)})")
        for s in d["sets"]:
            if set(s) - _SET_KEYS or s.get("expected") not in ("supported", "contradicted",
                                                                "unverifiable"):  # fmt: skip
                raise ValueError(f"{path} set {s.get('id')}: bad keys or expected verdict")
            if len(s["wordings"]) < 10 or len(set(s["wordings"])) != len(s["wordings"]):
                raise ValueError(f"{path} set {s['id']}: needs 10 distinct wordings")
            out.append({**{k: d[k] for k in _KEYS - {"sets"}}, **s, "as_of": str(d["as_of"]),
                        "file": path.name})  # fmt: skip
    return out


def run_paraphrases(sets: Iterable[dict[str, Any]], audit: AuditFn) -> dict[str, Any]:
    """Each wording's verdict on the set's predicate against the set's expected verdict."""
    tallies: dict[str, dict[str, int]] = {}
    consistent: dict[str, dict[str, int]] = {}
    failures = []
    for s in sets:
        key = f"{s['domain']}/{s['relation']}"
        got_all = []
        for w in s["wordings"]:
            res = audit(w, s["domain"], s["as_of"])
            vs = {c.verdict for c in res.claims if c.predicate == s["predicate"]}
            got = next((v for v in ("contradicted", "supported", "unverifiable") if v in vs),
                       "no claim")  # fmt: skip
            got_all.append(got)
            row = tallies.setdefault(key, {"n": 0, "ok": 0})
            row["n"] += 1
            row["ok"] += got == s["expected"]
            if got != s["expected"]:
                failures.append({"set": s["id"], "relation": s["relation"], "domain": s["domain"],
                                 "text": w, "got": got, "expected": s["expected"]})  # fmt: skip
        c = consistent.setdefault(key, {"n": 0, "ok": 0})
        c["n"] += 1
        c["ok"] += len(set(got_all)) == 1 and got_all[0] == s["expected"]
    return {"rates": _rates(tallies), "sets_all_expected": _rates(consistent),
            "failures": failures}  # fmt: skip


def run_metamorphic(
    passages: list[Passage],
    paraphrase_sets: list[dict[str, Any]],
    audit: AuditFn,
    kinds: tuple[str, ...] = ("value", "qualifier", "paraphrase"),
    kb: KnowledgeBase | None = None,
) -> dict[str, Any]:
    """All three relations; the JSON report of ``kgaudit eval metamorphic``."""
    report: dict[str, Any] = {"passages": len(passages)}
    muts = tuple(k for k in kinds if k != "paraphrase")
    report.update(run_mutations(passages, audit, muts, kb))
    if "paraphrase" in kinds:
        report["paraphrase"] = run_paraphrases(paraphrase_sets, audit)
    return report
