"""Small lexical cues: dosing frequency and rate direction (negation and every other
assertion attribute live in :mod:`auditor.extract.assertion`).

>>> [f.canonical for f in find_frequencies("take 7.5 mg once weekly, not daily")]
['weekly', 'daily']
"""

from __future__ import annotations

import re
from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class Frequency:
    start: int
    end: int
    text: str
    canonical: str  # daily | weekly | monthly | twice daily | 3 times daily | every 6 hours ...
    period: str  # day | week | month | hours


_NUM = {
    "once": 1,
    "one": 1,
    "twice": 2,
    "two": 2,
    "three": 3,
    "thrice": 3,
    "four": 4,
    "five": 5,
    "six": 6,
}
_FREQ = re.compile(
    r"\b(?:(?P<n>once|twice|thrice|one|two|three|four|five|six|\d)\s*(?:times?\s+)?(?:a|an|per|each|every|/)\s*"
    r"(?P<unit>day|week|month)|(?P<n2>once|twice|thrice|one|two|three|four|five|six|\d)\s+(?:times\s+)?(?P<adv>daily|weekly|monthly)|"
    r"(?P<adv2>daily|weekly|monthly|nightly|every\s+day|each\s+day|every\s+week|each\s+week|every\s+month|"
    r"every\s+other\s+day|at\s+bedtime)|every\s+(?P<h>\d+)(?:\s*(?:to|-)\s*\d+)?\s*hours?)\b",
    re.I,
)


def find_frequencies(text: str, offset: int = 0) -> list[Frequency]:
    out: list[Frequency] = []
    for m in _FREQ.finditer(text):
        g = m.groupdict()
        if g["h"]:
            canonical, period = f"every {g['h']} hours", "hours"
        elif g["adv2"]:
            word = " ".join(g["adv2"].lower().split())
            if word in {"every other day"}:
                canonical, period = "every other day", "day"
            elif word in {"daily", "every day", "each day", "nightly", "at bedtime"}:
                canonical, period = "daily", "day"
            elif "week" in word:
                canonical, period = "weekly", "week"
            else:
                canonical, period = "monthly", "month"
        else:
            n = _NUM.get((g["n"] or g["n2"] or "").lower()) or int(g["n"] or 1)
            unit = (
                g["unit"]
                or {"daily": "day", "weekly": "week", "monthly": "month"}[g["adv"].lower()]
            ).lower()
            base = {"day": "daily", "week": "weekly", "month": "monthly"}[unit]
            canonical = base if n == 1 else ("twice " + base if n == 2 else f"{n} times {base}")
            period = unit
        out.append(Frequency(offset + m.start(), offset + m.end(), m.group(0), canonical, period))
    return out


def canonical_frequency(text: str) -> Frequency | None:
    found = find_frequencies(text)
    return found[0] if found else None


_DIRECTION = {
    "up": re.compile(
        r"\b(?:rais(?:e|ed|es|ing)|hik(?:e|ed|es|ing)|increas(?:e|ed|es|ing)|lift(?:ed|s)?|tighten(?:ed|s)?)\b",
        re.I,
    ),
    "down": re.compile(
        r"\b(?:cut(?:s|ting)?|lower(?:ed|s|ing)?|reduc(?:e|ed|es|ing)|slash(?:ed|es)?|eas(?:ed|es|ing))\b",
        re.I,
    ),
    "hold": re.compile(
        r"\b(?:held|hold(?:s|ing)?|kept|keep(?:s|ing)?|left|maintain(?:ed|s)?|paus(?:ed|es)|unchanged|steady)\b",
        re.I,
    ),
}


def rate_direction(text: str) -> str | None:
    """``up``/``down``/``hold`` when the clause says which way a rate moved."""
    hits = [d for d, pat in _DIRECTION.items() if pat.search(text)]
    return hits[0] if len(hits) == 1 else None
