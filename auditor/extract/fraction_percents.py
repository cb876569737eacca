"""Percentages written with fractions, as the Fed's statements write them.

"5-1/4 to 5-1/2 percent", "0 to 1/4 percent", "4-3/4 to 5 percent", "5¼–5½%", "1/2 percentage
point". Only expressions with a fraction are returned; plain decimals are the quantity
parser's.

>>> [(q.value, q.value_max, q.unit) for q in find_fraction_percents("to 5-1/4 to 5-1/2 percent")]
[(5.25, 5.5, 'percent')]
>>> [(q.value, q.value_max) for q in find_fraction_percents("between 0 and 1/4 percent")]
[(0.0, 0.25)]
>>> [(q.value, q.value_max) for q in find_fraction_percents("a range of 5¼–5½%")]
[(5.25, 5.5)]
>>> [(q.value, q.unit) for q in find_fraction_percents("by 1/2 percentage point")]
[(0.5, 'percentage_points')]
"""

from __future__ import annotations

import re

from auditor.types import Quantity

_VULGAR = {"¼": 0.25, "½": 0.5, "¾": 0.75, "⅛": 0.125, "⅜": 0.375, "⅝": 0.625, "⅞": 0.875}
_V = "[¼½¾⅛⅜⅝⅞]"
# a number that may carry a fraction: "5-1/4", "5 1/4", "1/4", "5¼", "¼", "5", "5.25"
_NUM = rf"(?:\d{{1,2}}(?:[-‑ ]\d/\d{{1,2}}|{_V})|\d/\d{{1,2}}|{_V}|\d{{1,2}}(?:\.\d+)?)"
_UNIT = r"(?:percentage\s+points?|per\s*cent|percent|%)"
_RANGE = re.compile(
    rf"(?<![\w./-])(?P<a>{_NUM})(?:\s*{_UNIT})?\s*(?:to|-|–|—|and|through)\s*(?P<b>{_NUM})\s*(?P<u>{_UNIT})",
    re.I,
)
_SINGLE = re.compile(rf"(?<![\w./-])(?P<a>{_NUM})\s*(?P<u>{_UNIT})", re.I)


def _value(s: str) -> float:
    s = s.strip().replace("‑", "-")
    if s[-1] in _VULGAR:
        whole = s[:-1].strip()
        return (float(whole) if whole else 0.0) + _VULGAR[s[-1]]
    if "/" in s:
        whole, _, frac = s.replace(" ", "-").rpartition("-") if re.search(r"\d[- ]\d/", s) else (
            "", "", s)  # fmt: skip
        num, den = frac.split("/")
        return (float(whole) if whole else 0.0) + int(num) / int(den)
    return float(s)


def _has_fraction(*parts: str | None) -> bool:
    return any(p and ("/" in p or any(v in p for v in _VULGAR)) for p in parts)


def find_fraction_percents(text: str) -> list[Quantity]:
    out: list[Quantity] = []
    taken: list[tuple[int, int]] = []
    for pattern in (_RANGE, _SINGLE):
        for m in pattern.finditer(text):
            a, b = m.group("a"), m.groupdict().get("b")
            if not _has_fraction(a, b) or any(s < m.end() and m.start() < e for s, e in taken):
                continue
            unit = "percentage_points" if "point" in m.group("u").lower() else "percent"
            try:
                lo, hi = _value(a), (_value(b) if b else None)
            except (ValueError, ZeroDivisionError):
                continue
            if hi is not None and hi < lo:
                continue  # "4-1/4 percent" is one number, not a range from 4
            taken.append((m.start(), m.end()))
            out.append(Quantity(m.start(), m.end(), m.group(0), lo, hi, unit, "percent"))
    return sorted(out, key=lambda q: q.start)


__all__ = ["find_fraction_percents"]
