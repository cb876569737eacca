"""How many medical facts carry their source's sentence, per relation.

``python -m knowledge_graphs.review --quotes`` prints the table: per relation the facts
quoted (``quote`` qualifier), marked ``unquoted``, carrying neither (relations the builder
does not require a quote of), and pinned (their source has a ``version``). Counts are of
graph facts: an interaction entry naming a drug class counts once per member pair.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable

from knowledge_graphs.model import Fact

COLUMNS = ("quoted", "unquoted", "neither", "pinned", "facts")
QUOTED_RELATIONS = (
    "maxDose",
    "interactsWith",
    "washoutBefore",
    "dosingFrequency",
    "indicatedFor",
    "controlledSchedule",
)


def quote_counts(facts: Iterable[Fact]) -> dict[str, Counter[str]]:
    """Per relation of :data:`QUOTED_RELATIONS`: a counter over :data:`COLUMNS`."""
    out: dict[str, Counter[str]] = {r: Counter() for r in QUOTED_RELATIONS}
    for f in facts:
        if f.domain != "medical" or f.predicate not in out:
            continue
        c = out[f.predicate]
        c["facts"] += 1
        if f.qualifiers.get("quote"):
            c["quoted"] += 1
        elif f.qualifiers.get("unquoted") == "true":
            c["unquoted"] += 1
        else:
            c["neither"] += 1
        if f.source.version:
            c["pinned"] += 1
    return out


def render_counts(counts: dict[str, Counter[str]]) -> str:
    """A plain-text table of :func:`quote_counts`."""
    rows = [("relation", *COLUMNS)]
    rows += [(rel, *(str(c[k]) for k in COLUMNS)) for rel, c in counts.items()]
    widths = [max(len(r[i]) for r in rows) for i in range(len(rows[0]))]
    return (
        "\n".join(
            "  ".join(
                cell.ljust(w) if i == 0 else cell.rjust(w)
                for i, (cell, w) in enumerate(zip(r, widths, strict=True))
            )
            for r in rows
        )
        + "\n"
    )
