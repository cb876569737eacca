"""Measured fuzzy linking: generated misspellings, abbreviations and case variants of the
mentions in the generated benchmark, linking precision/recall, and threshold calibration.

A variant replaces one exactly-linked mention of a benchmark answer by a misspelling (one or
two edits: deletion, transposition, keyboard or phonetic substitution, doubled letter — never
the first letter), an abbreviation (Bluebook T6 forms, with and without dots, "&"/"and",
"v."/"vs.", dropped hyphens) or a case variant. The whole answer is then linked (exact +
fuzzy); the variant counts as *correct* when the mention overlapping it denotes the original
entity, *wrong* when it denotes another, *missed* when nothing overlaps it. Every other
fuzzy link in the answer is *spurious* (the rest of the text is clean), so

    precision = correct / (correct + wrong + spurious),   recall = correct / variants.
"""

from __future__ import annotations

import hashlib
import random
import re
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import orjson

from auditor.extract.context import CompiledRule, compile_rule
from auditor.extract.fuzzy import CALIBRATION_PATH, FuzzyLinker, FuzzyParams, Scored, merge
from auditor.extract.fuzzy.index import NGRAMS
from auditor.extract.linker import Linker
from auditor.types import Mention
from knowledge_graphs.store import KnowledgeBase
from measure.evaluation.fuzzy_decoys import decoy_name
from rules.loader import RuleSet

KINDS = ("misspelling", "abbreviation", "case")
DECOY_SHARE = 0.2  # decoys (names not in the graph) added per variant
RECALL_SLACK = 0.002  # recall given up for a stricter threshold when calibrating
# Word → the ways people abbreviate it (Bluebook T6, and without the dots).
ABBREVIATE: dict[str, tuple[str, ...]] = {
    "Board": ("Bd.", "Bd"), "Education": ("Educ.", "Ed.", "Educ"), "Department": ("Dep't", "Dept."),
    "Company": ("Co.",), "Corporation": ("Corp.", "Corp"), "Association": ("Ass'n", "Assn."),
    "Commission": ("Comm'n", "Commn."), "International": ("Int'l", "Intl."),
    "National": ("Nat'l", "Natl."), "Government": ("Gov't",), "Hospital": ("Hosp.",),
    "University": ("Univ.",), "County": ("Cnty.",), "School": ("Sch.",), "District": ("Dist.",),
    "Brothers": ("Bros.",), "Insurance": ("Ins.",), "Manufacturing": ("Mfg.",),
    "Transportation": ("Transp.",), "Products": ("Prods.",), "Services": ("Servs.",),
    "Authority": ("Auth.",), "Community": ("Cmty.",), "Environmental": ("Envtl.",),
    "Industries": ("Indus.",), "Incorporated": ("Inc.",), "Limited": ("Ltd.",),
    "United States": ("U.S.", "US"), "hydrochloride": ("HCl", "hcl"), "Railway": ("Ry.",),
    "Public": ("Pub.",), "Financial": ("Fin.",), "Management": ("Mgmt.",),
}  # fmt: skip
_KEYBOARD = "qwertyuiop asdfghjkl zxcvbnm"
_PHONETIC = (("ph", "f"), ("f", "ph"), ("c", "k"), ("ae", "e"), ("y", "i"), ("i", "y"), ("x", "ks"))


@dataclass(frozen=True)
class Variant:
    domain: str
    kind: str
    text: str  # the answer with the variant in it
    start: int
    end: int  # span of the variant
    original: str
    variant: str
    gold: frozenset[str]  # entities the original mention denotes


def misspell(word: str, rng: random.Random) -> str:
    """One or two typing/phonetic errors in ``word`` (never in its first letter)."""
    out = word
    for _ in range(2 if len(word) >= 10 and rng.random() < 0.3 else 1):
        out = _one_edit(out, rng)
    return out


def _one_edit(w: str, rng: random.Random) -> str:
    op = rng.choice(["delete", "transpose", "substitute", "double", "phonetic"])
    i = rng.randrange(1, len(w) - 1)
    if op == "phonetic":
        opts = [(a, b) for a, b in _PHONETIC if a in w[1:].lower()]
        if opts:
            a, b = rng.choice(opts)
            j = w.lower().index(a, 1)
            return w[:j] + b + w[j + len(a) :]
        op = "substitute"
    if op == "delete":
        return w[:i] + w[i + 1 :]
    if op == "transpose":
        return w[:i] + w[i + 1] + w[i] + w[i + 2 :]
    if op == "double":
        return w[:i] + w[i] + w[i:]
    row = next((r for r in _KEYBOARD.split() if w[i].lower() in r), "aeiou")
    k = row.find(w[i].lower())
    near = [row[j] for j in (k - 1, k + 1) if 0 <= j < len(row)] or ["e"]
    return w[:i] + rng.choice(near) + w[i + 1 :]


def abbreviate(name: str, rng: random.Random) -> str | None:
    """An abbreviated form of ``name``, or None when it has nothing to abbreviate."""
    out = name
    for word, forms in ABBREVIATE.items():
        if re.search(rf"\b{re.escape(word)}\b", out):
            out = re.sub(rf"\b{re.escape(word)}\b", rng.choice(forms), out)
    if " v. " in out and rng.random() < 0.3:
        out = out.replace(" v. ", rng.choice([" vs. ", " v "]), 1)
    if " & " in out:
        out = out.replace(" & ", " and ")
    if "-" in out and rng.random() < 0.5:
        out = out.replace("-", " ")
    return out if out != name else None


def recase(name: str, rng: random.Random) -> str:
    return rng.choice([name.upper(), name.lower(), name.title(), name[0].lower() + name[1:]])


def make_variants(
    kb: KnowledgeBase,
    linker: Linker,
    *,
    seed: int,
    per_domain: int = 1000,
    domains: Sequence[str] = ("finance", "medical", "legal"),
) -> list[Variant]:
    """``per_domain`` variants per domain, reproducible from ``seed``."""
    from measure.evaluation.benchmark import generate_benchmark

    cases = generate_benchmark(
        kb, seed=seed, per_domain=max(60, per_domain // 3), domains=tuple(domains)
    )
    rng = random.Random(f"fuzzy-variants-{seed}")
    out: list[Variant] = []
    for d in domains:
        pool = [
            (c.text, m)
            for c in cases
            if c.domain == d
            for m in linker.link(c.text, domains=[d])
            if _eligible(m)
        ]
        made = 0
        while made < per_domain and pool:
            text, m = pool[rng.randrange(len(pool))]
            kind = KINDS[made % 3] if made % 4 else "misspelling"
            v = _vary(m.text, kind, rng)
            if v is None:
                kind, v = "misspelling", _vary(m.text, "misspelling", rng)
            if v is None or v == m.text:
                continue
            new = text[: m.start] + v + text[m.end :]
            out.append(
                Variant(d, kind, new, m.start, m.start + len(v), m.text, v, frozenset(m.candidates))
            )
            made += 1
        decoys = 0
        while decoys < int(DECOY_SHARE * per_domain) and pool:
            text, m = pool[rng.randrange(len(pool))]
            v = decoy_name(d, rng)
            if linker.link(v, domains=[d]):
                continue  # by chance a real name
            new = text[: m.start] + v + text[m.end :]
            out.append(Variant(d, "decoy", new, m.start, m.start + len(v), m.text, v, frozenset()))
            decoys += 1
    return out


def _eligible(m: Mention) -> bool:
    letters = sum(c.isalpha() for c in m.text)
    return letters >= 5 and not (len(m.text) <= 5 and m.text.isupper())


def _vary(name: str, kind: str, rng: random.Random) -> str | None:
    if kind == "abbreviation":
        return abbreviate(name, rng)
    if kind == "case":
        return recase(name, rng)
    words = [(w.start(), w.end()) for w in re.finditer(r"[A-Za-z]{5,}", name)]
    if not words:
        return None
    s, e = rng.choice(words)
    return name[:s] + misspell(name[s:e], rng) + name[e:]


@dataclass
class Prepared:
    """A variant with its exact mentions and scored fuzzy windows (thresholds not applied)."""

    variant: Variant
    exact: list[Mention]
    scored: list[Scored]


def prepare(
    variants: Iterable[Variant], linker: Linker, fuzzy: FuzzyLinker, *, floor: float = 0.6
) -> list[Prepared]:
    out = []
    for v in variants:
        exact = linker.link(v.text, domains=[v.domain])
        out.append(Prepared(v, exact, fuzzy.score(v.text, exact, v.domain, floor=floor)))
    return out


def measure(
    prepared: Sequence[Prepared],
    fuzzy: FuzzyLinker,
    rules: RuleSet,
    params: dict[str, tuple[float, float]] | None = None,
) -> dict[str, Any]:
    """Precision/recall per domain and per kind (``params``: domain → (tau, margin))."""
    compiled: dict[str, list[CompiledRule]] = {}
    tally: dict[str, Counter[str]] = {}
    for p in prepared:
        v = p.variant
        rs = compiled.setdefault(v.domain, [compile_rule(r) for r in rules.for_domain(v.domain)])
        tau, margin = (params or {}).get(v.domain) or fuzzy.params.for_domain(v.domain)
        fz = fuzzy.select(
            v.text, p.scored, p.exact, domain=v.domain, rules=rs, tau=tau, margin=margin
        )
        over = [m for m in merge(p.exact, fz) if m.start < v.end and v.start < m.end]
        outcome = "missed"
        if v.kind == "decoy":
            outcome = "false_link" if over else "rejected"
        elif over:
            best = max(over, key=lambda m: min(m.end, v.end) - max(m.start, v.start))
            outcome = "correct" if best.candidates[0] in v.gold else "wrong"
            if best.fuzzy_score is None:
                outcome += "_exact"
        spurious = sum(1 for m in fz if not (m.start < v.end and v.start < m.end))
        for key in (v.domain, f"{v.domain}/{v.kind}", "all"):
            t = tally.setdefault(key, Counter())
            t[outcome] += 1
            t["spurious"] += spurious
            t["n"] += 1
    return {k: _summary(t) for k, t in sorted(tally.items())}


def _summary(t: Counter[str]) -> dict[str, Any]:
    correct = t["correct"] + t["correct_exact"]
    wrong = t["wrong"] + t["wrong_exact"]
    links = correct + wrong + t["spurious"] + t["false_link"]
    mentions = t["n"] - t["false_link"] - t["rejected"]
    return {
        "mentions": mentions,
        "precision": round(correct / links, 4) if links else 1.0,
        "recall": round(correct / mentions, 4) if mentions else 0.0,
        "exact_recall": round(t["correct_exact"] / mentions, 4) if mentions else 0.0,
        "wrong": wrong,
        "spurious": t["spurious"],
        "missed": t["missed"],
        "decoys": t["false_link"] + t["rejected"],
        "decoys_linked": t["false_link"],
    }


def calibrate(
    prepared: Sequence[Prepared],
    fuzzy: FuzzyLinker,
    rules: RuleSet,
    *,
    min_precision: float = 0.98,
) -> dict[str, tuple[float, float]]:
    """Per domain, the (tau, margin) with the best recall at precision ≥ ``min_precision``
    (the strictest threshold within ``RECALL_SLACK`` of that recall); when no point reaches
    that precision, the point with the best precision."""
    grid = [(round(0.7 + 0.01 * i, 2), m) for i in range(21) for m in (0.0, 0.05)]
    domains = sorted({p.variant.domain for p in prepared})
    seen: dict[str, list[tuple[float, float, float, float]]] = {d: [] for d in domains}
    for tau, margin in grid:
        res = measure(prepared, fuzzy, rules, dict.fromkeys(domains, (tau, margin)))
        for d in domains:
            seen[d].append((res[d]["precision"], res[d]["recall"], tau, margin))
    out = {}
    for d, points in seen.items():
        ok = [p for p in points if p[0] >= min_precision]
        if ok:
            top = max(p[1] for p in ok)
            pick = max((p for p in ok if p[1] >= top - RECALL_SLACK), key=lambda p: (p[2], -p[3]))
        else:
            pick = max(points, key=lambda p: (p[0], p[1]))
        out[d] = (pick[2], pick[3])
    return out


def calibrate_and_save(
    auditor: Any, *, seed: int, per_domain: int = 1000, path: Path = CALIBRATION_PATH
) -> dict[str, Any]:
    """Calibrate the thresholds on variants from ``seed``, measure them on variants from
    ``seed + 1``, and write ``auditor/extract/fuzzy/calibration.json``; returns what was written."""
    fuzzy = auditor.fuzzy_linker or FuzzyLinker(auditor.kb, cache_dir=auditor.cache_dir)
    linker, rules = auditor.linker(), auditor.rules
    dev = prepare(
        make_variants(auditor.kb, linker, seed=seed, per_domain=per_domain), linker, fuzzy
    )
    params = calibrate(dev, fuzzy, rules)
    test_variants = make_variants(auditor.kb, linker, seed=seed + 1, per_domain=per_domain)
    test = measure(prepare(test_variants, linker, fuzzy), fuzzy, rules, params)
    doc: dict[str, Any] = {
        "tau": {d: t for d, (t, _) in params.items()},
        "margin": {d: m for d, (_, m) in params.items()},
        "seed": seed,
        "test_seed": seed + 1,
        "per_domain": per_domain,
        "ngrams": list(NGRAMS),
        "test": test,
    }
    digest = hashlib.sha256(orjson.dumps({k: doc[k] for k in ("tau", "margin", "ngrams")}))
    doc = {"version": "fuzzy-" + digest.hexdigest()[:12], **doc}
    path.write_bytes(orjson.dumps(doc, option=orjson.OPT_INDENT_2 | orjson.OPT_SORT_KEYS) + b"\n")
    fuzzy.params = FuzzyParams.load(path)
    return doc
