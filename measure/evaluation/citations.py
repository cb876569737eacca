"""``kgaudit eval citations``: Supreme Court citations generated from the SCDB list.

Three sets, drawn with a fixed seed from the U.S. Reports volumes the index holds completely
(Terms 1946-2015), each audited as one sentence:

* **real** — a case's own name, U.S. cite and decision year: must be *verified*;
* **swapped** — a real case's name with another real case's U.S. cite (and that case's year):
  must be *contradicted*;
* **nonexistent** — a real case's name (its own or another's) with a page of its volume that
  starts no case but lies between two first pages: must be *contradicted*.

Names are written the way answers write them, not as SCDB captions: each side's first
party, title-cased, without "et al." and descriptors ("Vincent Cullen, Acting Warden,
Petitioner" → "Vincent Cullen").
"""

from __future__ import annotations

import random
import re
import sys
from collections import Counter
from dataclasses import dataclass
from typing import Any

from knowledge_graphs.scotus import ScotusCase, ScotusIndex, scotus_index

_SIDES = re.compile(r"\s+v\.\s+", re.I)
_TAIL = re.compile(r",.*$|\s+et (?:al|ux|vir)\.?.*$", re.I)


def answer_name(caption: str) -> str:
    """How an answer names a case: "BROWN et al. v. BOARD OF EDUCATION OF TOPEKA et al." →
    "Brown v. Board Of Education Of Topeka"."""
    sides = [_TAIL.sub("", s).strip() for s in _SIDES.split(caption)[:2]]
    words = " v. ".join(s for s in sides if s).split()
    out = [w if not w.isupper() else w.capitalize() for w in words]
    return " ".join("v." if w.lower() == "v." else w for w in out)


@dataclass(frozen=True)
class Item:
    kind: str  # real | swapped | nonexistent
    text: str
    expect: str  # verified | contradicted


def _eligible(ix: ScotusIndex) -> list[ScotusCase]:
    return [
        c
        for c in ix.cases
        if c.us
        and ix.us_complete(int(c.us.split()[0]))
        and len(ix.starting_at("U.S.", *_vp(c.us))) == 1
        and " v. " in answer_name(c.name)
    ]


def _vp(cite: str) -> tuple[int, int]:
    v, _, p = cite.split()
    return int(v), int(p)


def generate(
    n_real: int = 2000, n_swapped: int = 2000, n_nonexistent: int = 1000, seed: int = 7
) -> list[Item]:
    """The three sets (deterministic for a seed)."""
    from auditor.verify.legal.names import same_case

    ix = scotus_index()
    rng = random.Random(seed)
    pool = _eligible(ix)
    items: list[Item] = []
    for c in rng.sample(pool, min(n_real, len(pool))):
        items.append(Item("real", f"See {answer_name(c.name)}, {c.us} ({c.year}).", "verified"))
    while sum(i.kind == "swapped" for i in items) < n_swapped:
        a, b = rng.sample(pool, 2)
        name = answer_name(a.name)
        if same_case(name, b.name, b.aliases):
            continue  # two cases of one name ("United States v. Jones"): not a swap
        items.append(Item("swapped", f"See {name}, {b.us} ({b.year}).", "contradicted"))
    while sum(i.kind == "nonexistent" for i in items) < n_nonexistent:
        c = rng.choice(pool)
        vol, page = _vp(c.us)
        nxt = [p for p in ix._pages[("us", vol)] if p > page]
        if not nxt or nxt[0] - page < 2 or ix.after_last("U.S.", vol, page + 1):
            continue
        fake = rng.randint(page + 1, nxt[0] - 1)
        if ix.starting_at("U.S.", vol, fake):
            continue
        who = c if rng.random() < 0.5 else rng.choice(pool)
        items.append(
            Item("nonexistent", f"See {answer_name(who.name)}, {vol} U.S. {fake} ({c.year}).",
                 "contradicted")
        )  # fmt: skip
    return items


def run(items: list[Item], audit: Any = None) -> dict[str, Any]:
    """Audit every item; per set: items, correct, rate, and the outcomes/reasons seen."""
    if audit is None:
        from auditor import audit as audit_fn

        audit = audit_fn
    by: dict[str, Counter[str]] = {}
    misses: dict[str, list[str]] = {}
    for it in items:
        res = audit(it.text, domain="legal", as_of="2025-01-15")
        cases = [c for c in res.citations if c.kind == "case"]
        got = cases[0].outcome if cases else "missing"
        reason = cases[0].reason if cases else ""
        tally = by.setdefault(it.kind, Counter())
        tally["items"] += 1
        tally["correct"] += got == it.expect
        tally[f"{got}/{reason}"] += 1
        if got != it.expect and len(misses.setdefault(it.kind, [])) < 5:
            misses[it.kind].append(f"{it.text} -> {got}/{reason}")
    return {
        kind: {
            "items": t["items"],
            "correct": t["correct"],
            "rate": round(t["correct"] / t["items"], 4) if t["items"] else None,
            "outcomes": {k: v for k, v in sorted(t.items()) if "/" in k},
            "misses": misses.get(kind, []),
        }
        for kind, t in by.items()
    }


def main(argv: list[str] | None = None) -> int:
    import argparse

    import orjson

    p = argparse.ArgumentParser(prog="kgaudit eval citations", description=__doc__.splitlines()[0])
    p.add_argument("--real", type=int, default=2000)
    p.add_argument("--swapped", type=int, default=2000)
    p.add_argument("--nonexistent", type=int, default=1000)
    p.add_argument("--seed", type=int, default=7)
    p.add_argument("--format", choices=["text", "json"], default="text")
    a = p.parse_args(argv)
    report = run(generate(a.real, a.swapped, a.nonexistent, a.seed))
    if a.format == "json":
        sys.stdout.write(orjson.dumps(report, option=orjson.OPT_INDENT_2).decode() + "\n")
        return 0
    for kind, r in report.items():
        print(f"{kind:<12} {r['correct']:>5}/{r['items']:<5} {r['rate']:.4f}  {r['outcomes']}")
        for m in r["misses"]:
            print(f"    miss: {m}")
    return 0


__all__ = ["Item", "answer_name", "generate", "main", "run"]
