"""The reviewer file: the 100 highest-impact facts, with the source section to check each one.

``docs/knowledge-review.md`` is generated from the graphs by ``python -m knowledge_graphs.review
--write`` (a test fails when it is out of date). Facts are taken in this order, each family
sorted by subject: current central-bank policy rates; maximum doses of narrow-margin drugs
(``NARROW_MARGIN``, at most ``QUOTA``); overrulings of Supreme Court cases (at most
``QUOTA``); contraindicated interactions of the most-prescribed drugs
(``reference/top200_clincalc_2024.yaml``), then of other drugs; the list stops at ``LIMIT``
rows. The file holds nothing volatile (no build time, no graph version), so
it changes only when one of its facts does.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Iterable
from pathlib import Path

from knowledge_graphs.model import Fact
from knowledge_graphs.store import KnowledgeBase

LIMIT = 100
QUOTA = 30  # at most this many narrow-margin doses and this many overrulings
REVIEW_PATH = Path(__file__).resolve().parent.parent / "docs" / "knowledge-review.md"
# Drugs whose label warns that small dose or level changes cause serious harm.
NARROW_MARGIN = (
    "warfarin",
    "lithium",
    "levothyroxine",
    "digoxin",
    "phenytoin",
    "carbamazepine",
    "valproic acid",
    "lamotrigine",
    "methotrexate",
    "colchicine",
    "acetaminophen",
    "tacrolimus",
    "cyclosporine",
    "theophylline",
    "amiodarone",
    "dofetilide",
    "flecainide",
    "oxycodone",
    "morphine",
    "hydrocodone",
    "methadone",
    "fentanyl",
    "tramadol",
    "potassium chloride",
)
_MED_QUALS = ("per", "route", "status", "population", "indication", "product", "kind")


def _name(kb: KnowledgeBase, eid: str | None) -> str:
    ent = kb.entities.get(eid or "")
    return ent.label if ent else str(eid)


def _num(x: float | None) -> str:
    return "" if x is None else (f"{x:g}")


def _cell(text: str) -> str:
    return text.replace("|", "\\|").replace("\n", " ")


def _policy_rates(kb: KnowledgeBase) -> list[tuple[str, Fact]]:
    facts = [f for f in kb.facts if f.predicate == "policyRate" and f.valid_to is None]
    return [("current policy rate", f) for f in sorted(facts, key=lambda f: f.subject)]


def _narrow_doses(kb: KnowledgeBase) -> list[tuple[str, Fact]]:
    order = {d: i for i, d in enumerate(NARROW_MARGIN)}
    facts = [
        f
        for f in kb.facts
        if f.predicate == "maxDose"
        and f.subject.removeprefix("drug:") in order
        and f.value is not None
    ]
    facts.sort(key=lambda f: (order[f.subject.removeprefix("drug:")], f.id))
    return [("narrow-margin dose", f) for f in facts]


def _overrulings(kb: KnowledgeBase) -> list[tuple[str, Fact]]:
    facts = sorted((f for f in kb.facts if f.predicate == "overruledBy"), key=lambda f: f.id)
    return [("overruling", f) for f in facts]


def _contraindications(kb: KnowledgeBase, top: set[str]) -> list[tuple[str, Fact]]:
    facts = [
        f
        for f in kb.facts
        if f.predicate == "interactsWith" and f.qualifiers.get("severity") == "contraindicated"
    ]
    facts.sort(key=lambda f: (not ({f.subject, f.object} & top), f.subject, f.object or "", f.id))
    return [("contraindication", f) for f in facts]


def select(
    kb: KnowledgeBase, top: set[str] | None = None, limit: int = LIMIT
) -> list[tuple[str, Fact]]:
    """The reviewed facts in file order (family label, fact)."""
    if top is None:
        from knowledge_graphs.coverage import load_top200

        top = {f"drug:{k}" for row in load_top200()["drugs"] for k in row["graph"]}
    rows = [
        *_policy_rates(kb),
        *_narrow_doses(kb)[:QUOTA],
        *_overrulings(kb)[:QUOTA],
        *_contraindications(kb, top),
    ]
    return rows[:limit]


def _claim(kb: KnowledgeBase, fam: str, f: Fact) -> str:
    subj = _name(kb, f.subject)
    if fam == "current policy rate":
        rate = _num(f.value) if f.value == f.value_max else f"{_num(f.value)}–{_num(f.value_max)}"
        return f"{subj}: {rate} {f.unit or ''} since {f.valid_from}"
    if fam == "narrow-margin dose":
        q = f.qualifiers
        amount = (
            f"{_num(f.value)}–{_num(f.value_max)}"
            if f.value_max is not None and f.value_max != f.value
            else _num(f.value)
        )
        scope = "; ".join(f"{k} {q[k]}" for k in _MED_QUALS[1:] if q.get(k))
        return f"{subj}: {amount} {f.unit} per {q.get('per', 'day')} ({scope})"
    if fam == "overruling":
        when = f" ({f.valid_from})" if f.valid_from else ""
        kind = f.qualifiers.get("kind", "")
        return f"{subj} overruled by {_name(kb, f.object)}{when}, {kind}"
    cond = f.qualifiers.get("condition")
    return f"{subj} + {_name(kb, f.object)}: {f.qualifiers.get('severity')}" + (
        f" (only in {cond})" if cond else ""
    )


def render(kb: KnowledgeBase, rows: Iterable[tuple[str, Fact]] | None = None) -> str:
    """The Markdown reviewer file."""
    rows = list(rows if rows is not None else select(kb))
    out = [
        "# Knowledge review: the highest-impact facts",
        "",
        "Generated by `python -m knowledge_graphs.review --write` from the shipped graphs; do not",
        "edit by hand (`tests/kg/test_review_file.py` fails when it is out of date). Each row is",
        "one stored fact with the document and section a pharmacist, lawyer or analyst opens to",
        "sign it off. *Pinned* names the document version read (see `kgaudit kg stats`);",
        "*unpinned* sources name the document but not its version. Selection and order: see",
        "`knowledge_graphs/review.py`.",
        "",
        "| # | family | fact | source | section | pinned | signed off |",
        "|---|---|---|---|---|---|---|",
    ]
    for i, (fam, f) in enumerate(rows, 1):
        s = f.source
        doc = f"[{s.document}]({s.url})" if s.url else s.document
        pinned = s.version or "unpinned"
        out.append(
            f"| {i} | {fam} | {_cell(_claim(kb, fam, f))} | {_cell(doc)} | "
            f"{_cell(s.section or '')} | {_cell(pinned)} | |"
        )
    return "\n".join(out) + "\n"


def main(argv: list[str] | None = None) -> int:
    from knowledge_graphs import load_graphs

    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--write", action="store_true", help=f"write {REVIEW_PATH}")
    ap.add_argument(
        "--quotes", action="store_true", help="print quoted / unquoted / pinned medical facts"
    )
    args = ap.parse_args(argv)
    kb = load_graphs()
    if args.quotes:
        from knowledge_graphs.quote_counts import quote_counts, render_counts

        sys.stdout.write(render_counts(quote_counts(kb.facts)))
        return 0
    text = render(kb)
    if args.write:
        REVIEW_PATH.write_text(text, encoding="utf-8")
        print(f"wrote {REVIEW_PATH}")
    else:
        sys.stdout.write(text)
    return 0


if __name__ == "__main__":
    sys.exit(main())
