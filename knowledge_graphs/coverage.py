"""How much of a published most-prescribed-drugs list the medical graph covers.

The list is ``reference/top200_clincalc_2024.yaml`` (ClinCalc DrugStats, "The Top 200 of
2024"); each row names the graph drug keys it maps to (a combination maps to its
ingredients). A row counts as covered by a family when any of its keys has a fact of that
family: ``max_dose`` = a ``maxDose`` fact with a number (label maximum or usual range),
``any_dose`` = any ``maxDose`` fact (``individualized`` included), ``interaction`` = an
``interactsWith`` fact on either side.

Run ``python -m knowledge_graphs.coverage`` for the numbers and the uncovered rows.
"""

from __future__ import annotations

import sys
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import yaml

from knowledge_graphs.store import KnowledgeBase

TOP200_PATH = Path(__file__).resolve().parent / "reference" / "top200_clincalc_2024.yaml"


@dataclass
class Coverage:
    """Per family: the ranks covered and the rows missing."""

    title: str
    total: int
    covered: dict[str, list[int]] = field(default_factory=dict)
    missing: dict[str, list[str]] = field(default_factory=dict)

    def count(self, family: str) -> int:
        return len(self.covered[family])


def load_top200(path: Path = TOP200_PATH) -> dict[str, Any]:
    return yaml.safe_load(path.read_text(encoding="utf-8"))


def coverage(kb: KnowledgeBase, doc: dict[str, Any] | None = None) -> Coverage:
    """Which rows of the list have a numeric maximum dose, any dose fact, an interaction."""
    doc = doc or load_top200()
    numeric, any_dose, inter = set(), set(), set()
    for f in kb.facts:
        if f.predicate == "maxDose":
            any_dose.add(f.subject)
            if f.value is not None:
                numeric.add(f.subject)
        elif f.predicate == "interactsWith":
            inter.add(f.subject)
            if f.object:
                inter.add(f.object)
    fams = {"max_dose": numeric, "any_dose": any_dose, "interaction": inter}
    meta = doc["list"]
    out = Coverage(f"{meta['publisher']}: {meta['title']}", len(doc["drugs"]))
    for fam, have in fams.items():
        out.covered[fam], out.missing[fam] = [], []
        for row in doc["drugs"]:
            keys = {f"drug:{k}" for k in row["graph"]}
            if keys & have:
                out.covered[fam].append(row["rank"])
            else:
                out.missing[fam].append(row["name"])
    return out


def main() -> int:
    from knowledge_graphs import load_graphs

    cov = coverage(load_graphs(["medical"]))
    print(f"{cov.title} ({cov.total} drugs)")
    for fam in cov.covered:
        print(f"  {fam:<12}{cov.count(fam):>4} / {cov.total}")
        print(f"    missing: {'; '.join(cov.missing[fam]) or '-'}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
