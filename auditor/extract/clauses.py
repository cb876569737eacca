"""Clause boundaries inside a sentence, so negation and qualifiers stay local.

"Abood remains good law, so your union can deduct the fee even if you never joined" holds
two clauses; the "never" of the second must not negate the first. Likewise "the IR tablets
go up to 2,550 mg, while the extended-release ones max out at 2,000 mg" must not give the
first number the "extended-release" qualifier.

>>> s = "Abood remains good law, so your union can deduct the fee even if you never joined."
>>> s[slice(*clause_at(s, s.index("good")))]
'Abood remains good law'
"""

from __future__ import annotations

import re
from functools import lru_cache

_BREAK = re.compile(
    r";|:\s|\s[-–—]\s|\(|\)|,?(?<!\s\s)\s++(?:but|whereas|while|although|though|however|so|because|unless|"
    r"even\s+if|even\s+though|which|who|whereas|yet|and\s+then|and\s+(?=the\s)|or\s+(?=the\s)|"
    r"after|following|reflecting|bringing|making|leaving|as\s+(?=\w+\s+(?:approaches|rises|falls))|"
    r"and\s+(?=held\b|ended\b|ruled\b|found\b|established\b)|while\s+the)\b|,\s++(?=and\s|or\s)"
    # ", marking its eighth cut since June 2024": a comment on the move, a clause of its own
    r"|,\s++(?=(?:marking|signall?ing|capping|extending|its\s+(?:first|second|third|\w+th)\s)\b)",
    re.I,
)


_INTRO = re.compile(
    r"^\W*(?:after|following|before|when|once|because|although|though|while|if|unless)\b[^,;]{1,90},",
    re.I,
)


@lru_cache(maxsize=4096)
def clause_spans(text: str) -> tuple[tuple[int, int], ...]:
    """``(start, end)`` of each clause (relative to ``text``), covering the whole string
    (memoised: the frames ask for the clauses of one sentence many times)."""
    spans: list[tuple[int, int]] = []
    start = 0
    intro = _INTRO.match(text)
    if intro:  # "After the December meeting, the rate is 3%": the lead-in is its own clause
        spans.append((0, intro.end() - 1))
        start = intro.end()
    for m in _BREAK.finditer(text, start):
        if m.start() > start:
            spans.append((start, m.start()))
        start = m.end()
    spans.append((start, len(text)))
    return tuple(s for s in spans if s[1] > s[0]) or ((0, len(text)),)


def clause_at(text: str, pos: int) -> tuple[int, int]:
    """The clause containing position ``pos`` (relative to ``text``)."""
    for a, b in clause_spans(text):
        if a <= pos < b:
            return a, b
    return 0, len(text)
