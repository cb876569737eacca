"""Dates and periods in text: days, months, years, "since 2018", "currently", "today".

>>> [(d.first.isoformat(), d.last.isoformat(), d.precision, d.role) for d in find_dates("in July 2023")]
[('2023-07-01', '2023-07-31', 'month', 'point')]
>>> [(d.first.isoformat(), d.precision) for d in find_dates("on 25 May 2018 and May 25, 2018")]
[('2018-05-25', 'day'), ('2018-05-25', 'day')]
>>> [(d.first.isoformat(), d.role) for d in find_dates("since 2018")]
[('2018-01-01', 'since')]
>>> [d.role for d in find_dates("The rate is currently 4%.")]
['current']
"""

from __future__ import annotations

import calendar
import re
from datetime import date

from auditor.types import DateRef

_MONTHS = {m.lower(): i for i, m in enumerate(calendar.month_name) if m}
_MONTHS |= {m.lower(): i for i, m in enumerate(calendar.month_abbr) if m}
_MONTHS["sept"] = 9
_MON = r"(?:" + "|".join(sorted(_MONTHS, key=len, reverse=True)) + r")\.?"
_YEAR = r"(?:1[789]\d\d|20\d\d|2100)"
_PREP = r"(?P<prep>since|from|until|till|before|after|following|by|in|on|of|during|as\s+of|effective|starting|beginning)?\s*"

_PATTERNS: list[tuple[str, re.Pattern[str]]] = [
    ("iso", re.compile(rf"\b{_PREP}(?P<y>{_YEAR})-(?P<m>\d\d)-(?P<d>\d\d)\b", re.I)),
    ("us", re.compile(rf"\b{_PREP}(?P<m>\d{{1,2}})/(?P<d>\d{{1,2}})/(?P<y>{_YEAR})\b", re.I)),
    ("act", re.compile(rf"\bAct\s+of\s+(?P<y>{_YEAR})\b")),
    (
        "mdy",
        re.compile(
            rf"\b{_PREP}(?P<mon>{_MON})\s+(?P<d>\d{{1,2}})(?:st|nd|rd|th)?,?\s+(?P<y>{_YEAR})\b",
            re.I,
        ),
    ),
    (
        "dmy",
        re.compile(
            rf"\b{_PREP}(?:the\s+)?(?P<d>\d{{1,2}})(?:st|nd|rd|th)?\s+(?:of\s+)?(?P<mon>{_MON})\s*,?\s+(?P<y>{_YEAR})\b",
            re.I,
        ),
    ),
    ("my", re.compile(rf"\b{_PREP}(?P<mon>{_MON})\s+(?:of\s+)?(?P<y>{_YEAR})\b", re.I)),
    (
        "y",
        re.compile(
            rf"\b(?P<prep>since|from|until|till|through|before|after|following|by|in|during|throughout|over|across|(?:for\s+)?(?:all|most|much)\s+of|at|as\s+of|effective|starting|beginning|year|enacted|adopted|signed|passed|decided|issued|approved|published)\s+(?:the\s+(?:end|start|beginning|middle)\s+of\s+)?(?P<y>{_YEAR})\b(?!\s?[-/\u2013\u2014]\s?\d)",
            re.I,
        ),
    ),
    ("yp", re.compile(rf"\((?P<y>{_YEAR})\)")),
]
_NOW = re.compile(
    r"\b(?:currently|presently|at\s+present|right\s+now|now|today|as\s+of\s+today|as\s+of\s+now|"
    r"these\s+days|at\s+the\s+moment|current(?=\s)|still|remains?|is\s+in\s+force|in\s+effect|nowadays)\b",
    re.I,
)
_ROLE = {
    "since": "since",
    "from": "since",
    "starting": "since",
    "beginning": "since",
    "effective": "since",
    "until": "until",
    "till": "until",
    "through": "until",
    "before": "until",
    "by": "by",
    "after": "after",
    "following": "after",
}


_YEAR_AT = re.compile(rf"(?<!\d){_YEAR}(?!\d)")


def _windows(text: str) -> list[tuple[int, int]]:
    """Stretches of text around each year: every dated pattern contains a year, so the
    expensive patterns only run there (linear in the text, not in pattern count × length)."""
    spans: list[tuple[int, int]] = []
    for m in _YEAR_AT.finditer(text):
        a, b = max(0, m.start() - 48), min(len(text), m.end() + 16)
        if spans and a <= spans[-1][1]:
            spans[-1] = (spans[-1][0], b)
        else:
            spans.append((a, b))
    return spans


def find_dates(text: str) -> list[DateRef]:
    """Every date or period in ``text``, in order, without overlaps."""
    out: list[DateRef] = []
    taken = bytearray(len(text) + 1)
    windows = _windows(text)
    for kind, pat in _PATTERNS:
        for a, b in windows:
            for m in pat.finditer(text, a, b):
                if any(taken[m.start() : m.end()]):
                    continue
                ref = _make(kind, m)
                if ref is not None:
                    taken[m.start() : m.end()] = b"\x01" * (m.end() - m.start())
                    out.append(ref)
    out += _yearless(text, taken, sorted(out, key=lambda d: d.start))
    for m in _NOW.finditer(text):
        if not any(taken[m.start() : m.end()]):
            today = date.today()
            out.append(DateRef(m.start(), m.end(), m.group(0), today, today, "now", "current"))
    out.sort(key=lambda d: d.start)
    return out


_MONTH_DAY = re.compile(
    rf"\b{_PREP}(?P<mon>{_MON})\s+(?P<d>\d{{1,2}})(?:st|nd|rd|th)?\b(?!\s*,?\s*\d)(?![.,]\d)",
    re.I,
)


def _yearless(text: str, taken: bytearray, dated: list[DateRef]) -> list[DateRef]:
    """ "It cut again to 1% on October 29" after "on October 8, 2008": a day named without its
    year, in a narrative that gave the year just before, is that year's — when it comes on or
    after the date that gave it (a timeline moves forward) and within a few sentences. Any
    other year-less day stays undated."""
    out: list[DateRef] = []
    for m in _MONTH_DAY.finditer(text):
        if any(taken[m.start() : m.end()]) or not m.group("mon")[:1].isupper():
            continue  # "you may 2 ..." is not a month
        # only a full date of an event ("on October 8, 2008") gives its year; a month named as a
        # reference point ("the first cut since March 2020", "began easing in June 2024") does not
        prior = [
            d for d in dated if d.end <= m.start() and d.precision == "day" and d.role == "point"
        ]
        if (
            not prior
            or m.start() - prior[-1].end > 400
            or "\n\n" in text[prior[-1].end : m.start()]
        ):
            continue
        anchor = prior[-1]
        try:
            day = date(
                anchor.first.year, _MONTHS[m.group("mon").lower().rstrip(".")], int(m.group("d"))
            )
        except (ValueError, KeyError):
            continue
        if day < anchor.first:
            continue  # earlier in the year than the date before it: perhaps the next year
        prep = (m.group("prep") or "").lower()
        role = _ROLE.get(" ".join(prep.split()), "point")
        start = m.start("prep") if m.group("prep") else m.start()
        taken[m.start() : m.end()] = b"\x01" * (m.end() - m.start())
        out.append(DateRef(start, m.end(), text[start : m.end()], day, day, "day", role))  # type: ignore[arg-type]
    return out


def _make(kind: str, m: re.Match[str]) -> DateRef | None:
    gd = m.groupdict()
    y = int(gd["y"])
    prep = (gd.get("prep") or "").lower()
    role = _ROLE.get(" ".join(prep.split()), "point")
    try:
        if kind in {"iso", "us", "mdy", "dmy"}:
            mon = int(gd["m"]) if kind in {"iso", "us"} else _MONTHS[gd["mon"].lower().rstrip(".")]
            d = date(y, mon, int(gd["d"]))
            first, last, precision = d, d, "day"
        elif kind == "my":
            mon = _MONTHS[gd["mon"].lower().rstrip(".")]
            first = date(y, mon, 1)
            last = date(y, mon, calendar.monthrange(y, mon)[1])
            precision = "month"
        else:
            first, last, precision = date(y, 1, 1), date(y, 12, 31), "year"
    except (ValueError, KeyError):
        return None
    start = m.start("prep") if gd.get("prep") else m.start()
    return DateRef(start, m.end(), m.group(0)[start - m.start() :], first, last, precision, role)  # type: ignore[arg-type]
