"""Helpers every frame builder shares: the clause a value sits in, read across asides and cut
to its table cell."""

from __future__ import annotations

import re
from typing import Literal

from auditor.extract.clauses import clause_at
from auditor.extract.context import SentenceInfo
from auditor.types import Mention, Quantity

_RESTATED = re.compile(r"(?:or|i\.e\.|that\s+is)\s+[^,;:()\d]{1,30},\s*", re.I)


def value_clause(info: SentenceInfo, q: Quantity) -> tuple[int, int]:
    """The clause holding the value (relative to the sentence), read across parenthetical
    asides ("the maximum daily dose (for adults) is 4 g", "8 tablets (1,600 mg) in 24 hours")
    and cut to its table cell and to the text after a line's label."""
    text = info.text
    base = info.sentence.start
    a, b = clause_at(text, q.start - base)
    for _ in range(4):  # an aside is skipped, not a clause boundary
        if (m := _RESTATED.match(text, a)) is not None and a > 1 and m.end() <= q.start - base:
            a = clause_at(text, a - 2)[0]  # "by 25 basis points, or a quarter percent, to 5.25%"
        elif a > 0 and text[a - 1] == "(":
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


_LIST_GAP = re.compile(r"\s*(?:,\s*(?:and\s+|or\s+)?|and\s+|or\s+|&\s*)", re.I)
# between two names of one list: a separator, then at most five lower-case words ("and the
# interest rates on the"), no number, no other punctuation
_NAME_GAP = re.compile(
    r"[\s*_]*(?:,[\s*_]*(?:and\s+|or\s+)?|and\s+|or\s+|&\s*)(?:[a-z]+\s+){0,5}[\s*_]*"
)
_RESPECTIVELY = re.compile(r"[\s,;:()*_]{0,4}\brespectively\b[\s,;:()*_]{0,4}", re.I)


def respective(
    info: SentenceInfo, q: Quantity, names: list[tuple[Mention, str]]
) -> tuple[Mention, str] | Literal[False] | None:
    """ "the rates on the main refinancing operations, the marginal lending facility and the
    deposit facility ... to 4.50%, 4.75% and 4.00% respectively": the k-th value of a list
    marked *respectively* belongs to the k-th name of the sentence's list of ``names`` written
    before it. ``None``: ``q`` is not in such a list. ``False``: it is, but the names do not
    pair one to one with the values (their counts differ), so the value is tied to no name."""
    base = info.sentence.start
    text = info.text
    same = [x for x in info.quantities if x.unit == q.unit and x.dimension == q.dimension]
    if q not in same:
        return None
    i = same.index(q)
    lo = hi = i
    while lo > 0 and _LIST_GAP.fullmatch(text, same[lo - 1].end - base, same[lo].start - base):
        lo -= 1
    while hi + 1 < len(same) and _LIST_GAP.fullmatch(
        text, same[hi].end - base, same[hi + 1].start - base
    ):
        hi += 1
    if hi == lo:
        return None
    first, last = same[lo], same[hi]
    marked = _RESPECTIVELY.match(text, last.end - base) or any(
        m.end() == first.start - base for m in _RESPECTIVELY.finditer(text, 0, first.start - base)
    )
    if not marked:
        return None
    before: list[tuple[Mention, str]] = []
    for m, e in sorted(names, key=lambda x: x[0].start):
        if m.end > first.start or (before and m.start < before[-1][0].end):
            continue
        before.append((m, e))
    # the coordinated list of names nearest before the values: "A, the B and C"
    k = len(before) - 1
    while k > 0 and _NAME_GAP.fullmatch(
        text, before[k - 1][0].end - base, before[k][0].start - base
    ):
        k -= 1
    listed = before[k:] if before else []
    if len(listed) != hi - lo + 1:
        return False
    return listed[i - lo]


__all__ = ["respective", "value_clause"]
