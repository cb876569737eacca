"""Helpers every frame builder shares: the clause a value sits in, read across asides and cut
to its table cell."""

from __future__ import annotations

from auditor.extract.clauses import clause_at
from auditor.extract.context import SentenceInfo
from auditor.types import Quantity


def value_clause(info: SentenceInfo, q: Quantity) -> tuple[int, int]:
    """The clause holding the value (relative to the sentence), read across parenthetical
    asides ("the maximum daily dose (for adults) is 4 g", "8 tablets (1,600 mg) in 24 hours")
    and cut to its table cell and to the text after a line's label."""
    text = info.text
    base = info.sentence.start
    a, b = clause_at(text, q.start - base)
    for _ in range(4):  # an aside is skipped, not a clause boundary
        if a > 0 and text[a - 1] == "(":
            a = clause_at(text, max(0, a - 2))[0]
        elif a > 0 and text[a - 1] == ")" and (o := text.rfind("(", 0, a - 1)) > 0:
            a = clause_at(text, max(0, o - 1))[0]
        else:
            break
    for _ in range(4):
        if b < len(text) and text[b] == ")" and b + 1 < len(text):
            b = clause_at(text, b + 1)[1]
        elif (
            b < len(text) and text[b] == "(" and (c := text.find(")", b)) > 0 and c + 1 < len(text)
        ):
            b = clause_at(text, c + 1)[1]
        else:
            break
    lay = info.layout
    if lay.kind == "table_row":
        i = lay.cell_index(q.start)
        if i is not None:
            ca, cb = lay.cells[i]
            a, b = max(a, ca - base), min(max(b, a + 1), cb - base)
    if lay.label_end is not None and a < lay.label_end - base <= q.start - base:
        a = lay.label_end - base
    return a, b


__all__ = ["value_clause"]
