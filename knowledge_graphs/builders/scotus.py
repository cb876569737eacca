"""Build the compact U.S. Supreme Court citation index from the SCDB case list.

Input: ``cases.tsv`` and ``case_dockets.tsv`` of ``shared/data/scotus`` (SCDB 2024 Release 01,
Terms 1946-2023, restated from ``rlevy820/scotus-research@8448acfd…`` — see that folder's
README). Output: ``knowledge_graphs/data/scotus/cases.tsv``, one row per case with only what
citation checking needs, loaded by :mod:`knowledge_graphs.scotus`::

    python -m knowledge_graphs.builders.scotus --scotus-dir ../shared/data/scotus

Corrections applied (each counted in the output's header comment):

* ``ledCite`` "L. Ed. 2d" on a decision before 1956-10-01 is rewritten "L. Ed." (the second
  series began with the October 1956 Term; SCDB 2024_01 carries "2d" on most earlier rows,
  e.g. Brown v. Board is 98 L. Ed. 873).

Nothing else is changed; known upstream errors in S. Ct. volumes are handled by the verifier
(a parallel-citation disagreement alone never contradicts).
"""

from __future__ import annotations

import argparse
import csv
import sys
from collections import defaultdict
from pathlib import Path

OUT = Path(__file__).resolve().parents[1] / "data" / "scotus" / "cases.tsv"
COLUMNS = ("id", "date", "us", "sct", "led", "lexis", "dockets", "name", "aliases")
LED2_START = "1956-10-01"
RELEASE = "SCDB_2024_01"
PROVENANCE = (
    "rlevy820/scotus-research@8448acfd90d0a31107a228bae51529dcf6ce441e:"
    "data/raw/case-centered/SCDB_2024_01_caseCentered_{Citation,Docket}.csv"
)


def _rows(path: Path) -> list[dict[str, str]]:
    with path.open(encoding="utf-8", newline="") as fh:
        return list(csv.DictReader(fh, delimiter="\t", quoting=csv.QUOTE_NONE))


def build(scotus_dir: Path, out: Path = OUT) -> dict[str, int]:
    """Write the index; returns counts (rows, corrected L. Ed. cites, extra docket names)."""
    cases = _rows(scotus_dir / "cases.tsv")
    dockets: dict[str, list[dict[str, str]]] = defaultdict(list)
    for d in _rows(scotus_dir / "case_dockets.tsv"):
        dockets[d["caseId"]].append(d)
    counts = {"cases": 0, "led_corrected": 0, "docket_names": 0}
    lines = []
    for c in sorted(cases, key=lambda r: (r["dateDecision"], r["caseId"])):
        led = c["ledCite"]
        if " L. Ed. 2d " in led and c["dateDecision"] < LED2_START:
            led = led.replace(" L. Ed. 2d ", " L. Ed. ")
            counts["led_corrected"] += 1
        names = [d["caseName"] for d in dockets.get(c["caseId"], [])]
        aliases = [n for n in dict.fromkeys(names) if n and n != c["caseName"]]
        counts["docket_names"] += len(aliases)
        numbers = [d["docket"].strip() for d in dockets.get(c["caseId"], []) if d["docket"].strip()]
        row = (
            c["caseId"],
            c["dateDecision"],
            c["usCite"],
            c["sctCite"],
            led,
            c["lexisCite"],
            "; ".join(dict.fromkeys(numbers or [c["docket"].strip()])),
            c["caseName"],
            " | ".join(aliases),
        )
        if any("\t" in f or "\n" in f for f in row):
            raise ValueError(f"{c['caseId']}: a field holds a tab or newline")
        lines.append("\t".join(row))
        counts["cases"] += 1
    header = [
        f"# U.S. Supreme Court cases, Terms 1946-2023: Supreme Court Database {RELEASE}",
        "# (Spaeth, Epstein et al., 2024 Supreme Court Database, Version 2024 Release 01,",
        "# http://supremecourtdatabase.org). Read from " + PROVENANCE + ".",
        "# Licence: none stated by the source repository or SCDB's codebook; the fields kept",
        "# are facts about public court decisions (names, reporter citations, dockets, dates).",
        f"# Built by knowledge_graphs/builders/scotus.py; {counts['led_corrected']} pre-1956",
        "# 'L. Ed. 2d' cites rewritten 'L. Ed.'. Pre-1946 (legacy) cases are not included.",
        "\t".join(COLUMNS),
    ]
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text("\n".join(header + lines) + "\n", encoding="utf-8")
    return counts


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--scotus-dir", type=Path, required=True, help="shared/data/scotus")
    p.add_argument("--out", type=Path, default=OUT)
    a = p.parse_args(argv)
    counts = build(a.scotus_dir, a.out)
    print(f"wrote {a.out}: {counts}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
