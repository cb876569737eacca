"""Quantities in text: numbers with units, money with scale words, percent ranges, periods.

>>> [(q.value, q.value_max, q.unit, q.per) for q in find_quantities("Do not exceed 4,000 mg per day.")]
[(4000.0, None, 'mg', 'day')]
>>> [(q.value, q.value_max, q.unit) for q in find_quantities("a range of 5.25%–5.50%")]
[(5.25, 5.5, 'percent')]
>>> [(q.value, q.unit) for q in find_quantities("$1.2 billion in cash")]
[(1200000000.0, 'USD')]
>>> [(q.value, q.value_max, q.unit) for q in find_quantities("0 to 0.25 percent")]
[(0.0, 0.25, 'percent')]
>>> [(q.value, q.unit) for q in find_quantities("cut by 25 basis points")]
[(0.25, 'percent')]
"""

from __future__ import annotations

import re

from auditor.extract.fraction_percents import find_fraction_percents
from auditor.extract.units import canonical
from auditor.types import Quantity

_WORD_NUMBERS = {
    "one": 1,
    "two": 2,
    "three": 3,
    "four": 4,
    "five": 5,
    "six": 6,
    "seven": 7,
    "eight": 8,
    "nine": 9,
    "ten": 10,
    "eleven": 11,
    "twelve": 12,
    "fifteen": 15,
    "twenty": 20,
    "a single": 1,
    "half a": 0.5,
}
_SCALE = {
    "thousand": 1e3,
    "k": 1e3,
    "million": 1e6,
    "mn": 1e6,
    "m": 1e6,
    "mm": 1e6,
    "billion": 1e9,
    "bn": 1e9,
    "b": 1e9,
    "trillion": 1e12,
    "tn": 1e12,
}
_CURRENCY_SIGNS = {
    "$": "USD",
    "us$": "USD",
    "usd": "USD",
    "€": "EUR",
    "eur": "EUR",
    "£": "GBP",
    "gbp": "GBP",
    "¥": "JPY",
    "jpy": "JPY",
    "chf": "CHF",
    "c$": "CAD",
    "cad": "CAD",
    "a$": "AUD",
    "aud": "AUD",
    "₹": "INR",
    "inr": "INR",
}
_CURRENCY_WORDS = {
    "dollars": "USD",
    "dollar": "USD",
    "us dollars": "USD",
    "usd": "USD",
    "euros": "EUR",
    "euro": "EUR",
    "eur": "EUR",
    "pounds": "GBP",
    "pounds sterling": "GBP",
    "gbp": "GBP",
    "yen": "JPY",
    "swiss francs": "CHF",
    "chf": "CHF",
}

# A number never starts inside another one (after a digit, "5." or a "1,"-group), and is
# matched atomically: on a run of 200,000 digits every start position would otherwise rescan
# the rest of the run (O(n²) with the GIL held). Linear, same matches on real text.
_NUM_START = r"(?<!\d)(?<!\d\.)(?!(?<=\d,)\d{3}(?!\d))"
# an en dash is a minus only where no number ends just before it ("at **–0.50%**", not
# "5.25%–5.50%" or "10 – 20 mg")
_EN_MINUS = r"(?<=[\s(*_])(?<![\d%]\s)(?<![\d%]\*\*)(?<![\d%]\*)(?<![\d%]_)–(?=\d)"
_NUM = (
    _NUM_START
    + r"(?:(?<![\w.])[-−](?=\d)|"
    + _EN_MINUS
    + r")?(?>\d{1,3}(?:,\d{3})+(?:\.\d+)?|\d+(?:\.\d+)?|\.\d+)"
)
_WNUM = r"(?:" + "|".join(sorted(map(re.escape, _WORD_NUMBERS), key=len, reverse=True)) + r")"
_UNIT = (
    r"(?:milligrams?|mgs?|micrograms?|mcg|µg|ug|grams?|g|kilograms?|kg|milliliters?|millilitres?|"
    r"ml|mL|liters?|litres?|L|international\s+units|IU|units|tablets?|tabs?|caplets?|capsules?|"
    r"pills?|softgels?|lozenges?|pieces?|patch(?:es)?|puffs?|sprays?|suppositor(?:y|ies)|"
    r"percentage\s+points?|per\s*cent|percent|pct|%|basis\s+points?|bps?|pp)"
)
_SCALEW = r"(?:thousand|million|billion|trillion|mn|bn|tn|k|m|b)"
_CURSIGN = r"(?:US\$|C\$|A\$|\$|€|£|¥|₹|USD|EUR|GBP|JPY|CHF|CAD|AUD|INR)"
_CURWORD = r"(?:US\s+dollars|dollars?|euros?|pounds(?:\s+sterling)?|yen|Swiss\s+francs|USD|EUR|GBP|JPY|CHF)"
_SEP = r"\s*(?:-|–|—|to|and|through)\s*"

# "€ 10 000", "10 000 euros": thousands grouped by spaces (the EU's and SI style), read only
# next to a currency (in a dose "2 500 mg" is two 500 mg tablets)
_MNUM = rf"(?:(?<!\d)\d{{1,3}}(?:[ \u00a0\u202f]\d{{3}})+(?![\d,]|\.\d)|{_NUM})"
_MONEY = re.compile(
    rf"(?P<cur>{_CURSIGN})\s?(?P<n1>{_MNUM})(?:\s?(?P<s1>{_SCALEW})\b)?"
    rf"(?:{_SEP}(?:{_CURSIGN})?\s?(?P<n2>{_NUM})(?:\s?(?P<s2>{_SCALEW})\b)?)?"
    rf"|(?P<n3>{_MNUM})(?:\s?(?P<s3>{_SCALEW})\b)?\s+(?P<cw>{_CURWORD})\b",
    re.IGNORECASE,
)
_MEASURE = re.compile(
    rf"(?<![\w.])(?P<n1>{_NUM}|{_WNUM})\s*+(?P<u1>{_UNIT})?"
    rf"(?:{_SEP}(?P<n2>{_NUM})\s*(?P<u2>{_UNIT}))"
    rf"|(?<![\w.])(?P<n3>{_NUM}|{_WNUM})(?:-|\s*)(?P<u3>{_UNIT})(?![\w])",
    re.IGNORECASE,
)
_BETWEEN = re.compile(
    rf"\bbetween\s+(?P<n1>{_NUM})\s*(?P<u1>{_UNIT})?\s+and\s+(?P<n2>{_NUM})\s*(?P<u2>{_UNIT})",
    re.IGNORECASE,
)
_PERIOD = re.compile(
    # "of ibuprofen every 6 hours", but not "of sildenafil twice a day" (a count of doses)
    r"^\s*(?:of\s+\w+(?:\s+(?!(?:once|twice|thrice|two|three|four|five|six)\b)\w+)?\s+)?"
    r"(?:(?:per|a|an|each|every|/|in\s+(?:a|any|one)?)\s*"
    r"(?P<n>\d+)?(?:\s*(?:to|-|–)\s*\d+)?[\s-]*(?P<u>day|days|24[\s-]*hours?|24[\s-]*hour\s+period|hours?|hrs?|week|weeks|"
    r"minutes?|mins?)\b|(?P<adv>daily|weekly|once\s+daily|once\s+weekly|/d\b|/day\b|/wk\b))",
    re.IGNORECASE,
)


def _num(s: str) -> float:
    s = s.strip().lower()
    if s in _WORD_NUMBERS:
        return float(_WORD_NUMBERS[s])
    s = s.replace(",", "").replace(" ", "").replace("\u00a0", "").replace("\u202f", "")
    return float(s.replace("−", "-").replace("–", "-"))


def _unit_code(u: str) -> str:
    u = " ".join(u.split()).lower()
    if u in {"%", "percent", "per cent", "pct"}:
        return "percent"
    if u in {"percentage point", "percentage points", "pp"}:
        return "percentage_points"
    if u in {"basis point", "basis points", "bp", "bps"}:
        return "bp"
    if u in {"international units", "iu"}:
        return "IU"
    if u in {"µg", "ug"}:
        return "mcg"
    return u


def find_quantities(text: str) -> list[Quantity]:
    """Every quantity in ``text`` (money first, then measures; overlaps removed)."""
    found: list[Quantity] = []
    taken = bytearray(len(text) + 1)

    def add(q: Quantity | None) -> None:
        if q is None or any(taken[q.start : q.end]):
            return
        taken[q.start : q.end] = b"\x01" * (q.end - q.start)
        found.append(q)

    for q in find_fraction_percents(text):  # "5-1/4 to 5-1/2 percent"
        add(q)
    pos = 0
    while (m := _MONEY.search(text, pos)) is not None:
        if _listed(text, m, "s1" if m.group("s1") else "n1", _AND_SIGN):
            one = _MONEY.match(text, m.start(), m.end("s1") if m.group("s1") else m.end("n1"))
            add(_money(text, one) if one else None)  # "$10,000 and $5,000": two amounts
            pos = m.start("n2") - 1
            continue
        add(_money(text, m))
        pos = m.end()
    for m in _BETWEEN.finditer(text):
        add(_measure(text, m.start(), m.end(), *m.group("n1", "n2", "u1", "u2")))
    pos = 0
    while (m := _MEASURE.search(text, pos)) is not None:
        if (
            not m.group("n3")
            and m.group("u1") is None
            and (
                _is_dated_year(text, m.start("n1"), m.group("n1"))
                or _is_month_day(text, m.start("n1"), m.group("n1"))
                or bool(_NAME_NUMBER.search(text, max(0, m.start("n1") - 14), m.start("n1")))
            )
        ):
            # "in December 2024 to 4.25%-4.50%", "on March 3 to 1%-1.25%": the year or the
            # day is a date, not a range's start
            m = _MEASURE.search(text, m.start("n2"))
            if m is None:
                break
        if _listed(text, m, "u1") or _move_then_level(m):
            # "4.50%, 4.75% and 4.00%", "by 25 basis points to 2.00%": two values, not a range
            add(_measure(text, m.start(), m.end("u1"), m.group("n1"), None, m.group("u1"), None))
            pos = m.start("n2")
            continue
        if _change_from_to(text, m):
            # "cut its rate from 4.00% to 3.75%": the old value, then the new one, not a range
            first_end = m.end("u1") if m.group("u1") else m.end("n1")
            u = m.group("u1") or m.group("u2")
            add(_measure(text, m.start(), first_end, m.group("n1"), None, u, None))
            pos = m.start("n2")
            continue
        add(_from_measure(text, m))
        pos = m.end()
    found.sort(key=lambda q: q.start)
    return found


_DATE_LEAD = re.compile(
    r"(?:\b(?:in|since|of|during|by|from|until|year|jan\w*|feb\w*|mar\w*|apr\w*|may|jun\w*|"
    r"jul\w*|aug\w*|sep\w*|oct\w*|nov\w*|dec\w*)\.?|\d{1,2},)\s*$",
    re.I,
)


def _is_dated_year(text: str, start: int, n: str) -> bool:
    """``n`` is a year written as part of a date ("December 2024", "in 2024")."""
    return (
        n.isdigit() and len(n) == 4 and 1800 <= int(n) <= 2100
        and bool(_DATE_LEAD.search(text, max(0, start - 12), start))
    )  # fmt: skip


# "8.5% Tier 1 and 10.5% total capital": the number of a name, not a range's start
_NAME_NUMBER = re.compile(
    r"\b(?:Tier|Level|Pillar|Title|Phase|Category|Schedule|Stage|Class|Type|Article|Section)\s*$",
    re.I,
)
_MONTH_LEAD = re.compile(
    r"\b(?:jan|feb|mar|apr|may|jun|jul|aug|sep|sept|oct|nov|dec)[a-z]*\.?\s+$", re.I
)


def _is_month_day(text: str, start: int, n: str) -> bool:
    """``n`` is the day of a date written with its month ("March 3", "Sept. 18")."""
    lead = _MONTH_LEAD.search(text, max(0, start - 11), start)
    return (
        n.isdigit() and 1 <= int(n) <= 31 and lead is not None
        and not lead.group(0).startswith("may")  # the verb, not the month
    )  # fmt: skip


def _from_measure(text: str, m: re.Match[str]) -> Quantity | None:
    if m.group("n3"):
        return _measure(text, m.start(), m.end(), m.group("n3"), None, m.group("u3"), None)
    return _measure(text, m.start(), m.end(), *m.group("n1", "n2", "u1", "u2"))


_AND = re.compile(r"\s*and\s*", re.I)
_AND_SIGN = re.compile(rf"\s*and\s*{_CURSIGN}\s?", re.I)
_BETWEEN_LEAD = re.compile(r"\bbetween\s+$", re.I)


_MOVE_UNITS = frozenset({"bp", "percentage_points"})
_FROM_LEAD = re.compile(r"(?<![\w-])from\s*$", re.I)
_RANGE_FROM = re.compile(r"\b(?:rang\w*|var(?:y|ies|ied|ying)|spann?\w*|anywhere)\s+from\s*$", re.I)
_TO_SEP = re.compile(r"\s*to\s*", re.I)
_CHANGE_VERB = re.compile(
    r"\b(?:reduc|lower|decreas|cut|rais|increas|chang|drop|dropp|fell|fall|rose|rise|rising|"
    r"lift|hik|trim|slash|boost|titrat|taper|step|moved?|moving|brought|bring|tighten|eas|"
    r"adjust|went|go(?:es|ing)?|climb|jump|slid|slip|push|pull|shift|revis|upgrad|downgrad|"
    r"escalat|de-?escalat|halv|doubl|tripl)\w*",
    re.I,
)
_CLAUSE_START = re.compile(r"[.;:!?\n]|\b(?:and|but|while|whereas|which|who)\b", re.I)


def _change_from_to(text: str, m: re.Match[str]) -> bool:
    """ "cut its deposit rate from 4.00% to 3.75%", "raised from 5.25% to 5.50%": a change
    from an old value to a new one — two values, not a range. "ranging from 2 to 4 mg" and
    "doses from 50 to 200 mg" (rising, with no change verb) stay ranges."""
    if m.group("n3") or m.group("n2") is None:
        return False
    start = m.start()
    lead = text[max(0, start - 160) : start]
    if not _FROM_LEAD.search(lead) or _RANGE_FROM.search(lead):
        return False
    sep_end = m.start("n2")
    sep_start = m.end("u1") if m.group("u1") else m.end("n1")
    if not _TO_SEP.fullmatch(text, sep_start, sep_end):
        return False
    try:
        falling = _num(m.group("n1")) > _num(m.group("n2"))
    except ValueError:
        falling = False
    if falling:
        return True
    cut = max((c.end() for c in _CLAUSE_START.finditer(lead)), default=0)
    return bool(_CHANGE_VERB.search(lead, cut))


def _move_then_level(m: re.Match[str]) -> bool:
    """ "25 basis points to 2.00 per cent": a move's size, then the level it reached."""
    if m.group("n3") or m.group("u1") is None or m.group("u2") is None:
        return False
    units = {_unit_code(m.group("u1")), _unit_code(m.group("u2"))}
    return len(units) == 2 and bool(units & _MOVE_UNITS)


def _listed(text: str, m: re.Match[str], first_end: str, pattern: re.Pattern[str] = _AND) -> bool:
    """Two values joined by a bare "and", each with its own unit or sign ("4.75% and 4.00%",
    "$10,000 and $5,000"), are a list; "between X and Y" and "5.25 and 5.50 percent" stay
    ranges."""
    if m.group(first_end) is None or m.group("n2") is None:
        return False
    return bool(
        pattern.fullmatch(text, m.end(first_end), m.start("n2"))
        and not _BETWEEN_LEAD.search(text, max(0, m.start() - 10), m.start())
    )


def _money(text: str, m: re.Match[str]) -> Quantity | None:
    if m.group("n3"):
        code = _CURRENCY_WORDS.get(" ".join(m.group("cw").lower().split()))
        n1, s1, n2, s2 = m.group("n3"), m.group("s3"), None, None
    else:
        code = _CURRENCY_SIGNS.get(m.group("cur").lower())
        n1, s1, n2, s2 = m.group("n1"), m.group("s1"), m.group("n2"), m.group("s2")
    if code is None:
        return None
    v1 = _num(n1) * _SCALE.get((s1 or "").lower(), 1.0)
    v2 = _num(n2) * _SCALE.get((s2 or s1 or "").lower(), 1.0) if n2 else None
    return Quantity(m.start(), m.end(), m.group(0), v1, v2, code, "currency")


def _measure(
    text: str, start: int, stop: int, n1: str, n2: str | None, u1: str | None, u2: str | None
) -> Quantity | None:
    unit = _unit_code(u2 or u1 or "")
    if not unit:
        return None
    try:
        a = _num(n1)
        b = _num(n2) if n2 else None
    except ValueError:
        return None
    if unit == "percentage_points":
        value, code, dim = a, "percentage_points", "percent"
        vmax = b
    else:
        try:
            value, code, dim = canonical(a, unit)
            vmax = canonical(b, unit)[0] if b is not None else None
            if u1 and u2 and _unit_code(u1) != _unit_code(u2):
                value = canonical(a, _unit_code(u1))[0]
        except ValueError:
            return None
    per, end = _period(text, stop)
    return Quantity(start, end, text[start:end], value, vmax, code, dim, per)


def _period(text: str, pos: int) -> tuple[str | None, int]:
    """A dosing period right after a quantity ("per day", "in 24 hours", "weekly")."""
    window = text[pos : pos + 40]
    m = _PERIOD.match(window)
    if not m:
        return None, pos
    if m.group("adv"):
        adv = m.group("adv").lower().replace("/", "")
        per = "week" if "week" in adv or adv == "wk" else "day"
    else:
        unit = m.group("u").lower()
        n = m.group("n")
        if unit.startswith("24"):
            per = "day"
        elif unit.startswith(("day",)):
            per = "day" if not n or n == "1" else f"{n} days"
        elif unit.startswith("week"):
            per = "week" if not n or n == "1" else f"{n} weeks"
        elif unit.startswith(("min",)):
            per = f"{n or 1} min"
        else:
            per = f"{n or 1} hours"
            if n == "24":
                per = "day"
    return per, pos + m.end()
