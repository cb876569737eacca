"""Mutations of audited text for the metamorphic tests (see docs/metamorphic.md).

Each mutation is derived from one *supported* claim of an audit result: the spans it rewrites
come from the claim's own fields (``quantity``, ``date``, ``citation``, ``qualifiers``,
``frame``) and the replacement is chosen against the claim's evidence, never from a sentence
template. Two kinds:

* **value** (expected verdict ``contradicted``): the claim's value is replaced by one outside
  every fact the verifier cited — a dose or threshold times three, a rate three points higher,
  a minimum washout cut to a third, a point-event date or a case's year three years earlier,
  another controlled-substance schedule, the opposite OTC / prescription listing.
* **qualifier** (expected: never ``supported`` by a fact of the *old* qualifier): a qualifier
  the supporting fact depends on is swapped — OTC ↔ prescription, extended- ↔ immediate-release,
  weekly ↔ daily, adult ↔ child.

A mutation that could leave the statement true is not made (the reasons are counted as skips):
a lower value under a maximum, a longer washout than the minimum, a date moved inside a rate's
validity, a value equal to another fact's.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

from auditor.types import Claim
from knowledge_graphs.store import KnowledgeBase

__all__ = ["Mutation", "qualifier_mutations", "value_mutations"]


@dataclass(frozen=True)
class Mutation:
    """One rewrite of ``text[start:end]`` to ``replacement`` that should change a verdict."""

    kind: str  # value | qualifier
    relation: str  # the claim's predicate
    start: int
    end: int
    replacement: str
    claim_start: int
    claim_end: int
    expected: str  # contradicted | not_supported
    dimension: str = ""  # qualifier mutations: status | release | period | population
    new_value: str = ""  # the qualifier value the mutated text states
    evidence: tuple[str, ...] = field(default=())  # fact ids that supported the original
    match: tuple[tuple[str, str], ...] = ()  # qualifiers that pick the claim out of its span

    def apply(self, text: str) -> str:
        return text[: self.start] + self.replacement + text[self.end :]

    def shifted_claim(self) -> tuple[int, int]:
        """The claim's span in the mutated text."""
        delta = len(self.replacement) - (self.end - self.start)
        start = self.claim_start + (delta if self.start < self.claim_start else 0)
        return start, self.claim_end + delta


def _supporting(claim: Claim) -> list[dict[str, Any]]:
    return [e for e in claim.evidence if e.get("role") == "supports"]


def _fact_ids(claim: Claim) -> tuple[str, ...]:
    return tuple(str(e.get("fact")) for e in _supporting(claim) if e.get("fact"))


def _evidence_values(claim: Claim) -> set[float]:
    out: set[float] = set()
    for e in claim.evidence:
        for k in ("value", "value_max"):
            v = e.get(k)
            if isinstance(v, int | float):
                out.add(float(v))
    return out


# ---- numbers -----------------------------------------------------------------------------

_MIXED = r"(?P<mixed>(?P<whole>\d+)-(?P<frac>\d/\d))"
_FRAC = r"(?P<bare>(?<![\d/-])\d/\d(?![\d/]))"
_DEC = r"(?P<dec>(?<![\d/.,])\d{1,3}(?:,\d{3})+(?:\.\d+)?|(?<![\d/.,-])\d+(?:\.\d+)?(?![\d/]))"
_NUMBER = re.compile(f"{_MIXED}|{_FRAC}|{_DEC}")


def _fmt(x: float, like: str) -> str:
    decimals = len(like.split(".")[1]) if "." in like else 0
    s = f"{x:,.{decimals}f}" if "," in like else f"{x:.{decimals}f}"
    return s


_PERIOD_AFTER = re.compile(
    r"\s*(?:(?:-|to|–)\s*\d+\s*)?(?:hours?|hrs?|h|days?|weeks?|wks?|minutes?|min)\b"
)


def _bump(text: str, percent: bool) -> str | None:
    """Every amount of a quantity's text moved well outside it: +3 points for a percentage,
    times three otherwise ("5-1/4 to 5-1/2 percent" → "8-1/4 to 8-1/2 percent"); the numbers
    of its period ("in 24 hours", "every 4-6 hours") are left alone."""
    changed = False

    def sub(m: re.Match[str]) -> str:
        nonlocal changed
        if _PERIOD_AFTER.match(text, m.end()):
            return m.group()
        changed = True
        if m.group("mixed"):
            whole = int(m.group("whole"))
            return f"{whole + 3 if percent else whole * 3}-{m.group('frac')}"
        if m.group("bare"):
            return f"{3 if percent else 1}-{m.group('bare')}"
        raw = m.group("dec")
        x = float(raw.replace(",", ""))
        return _fmt(x + 3 if percent else x * 3, raw)

    out = _NUMBER.sub(sub, text)
    return out if changed and out != text else None


# the year parenthetical of a citation: after its pin cites and parallels, in the same sentence
# and table cell ("436 U.S. 775, 780-781, and nn. 1-3 (1978)")
_YEAR_PAREN = re.compile(r"(?:[^;()|\n.]|\.(?!\s+[A-Z*_]))*?\((?:[^()]{0,40}?\s)?(\d{4})\)")
_YEAR_IN_SPAN = re.compile(r"\((?:[^()]{0,40}?\s)?(\d{4})\)\W*$")
_YEAR = re.compile(r"(?<!\d)(1[6-9]\d\d|20\d\d)(?!\d)")


def _shift_year(text: str, years: int = -3) -> str | None:
    m = _YEAR.search(text)
    if not m:
        return None
    return text[: m.start()] + str(int(m.group()) + years) + text[m.end() :]


# ---- value mutations ---------------------------------------------------------------------

_SCHEDULE_SWAP = {"I": "II", "II": "IV", "III": "V", "IV": "II", "V": "III"}
_RX_WORDS = re.compile(r"\b(?:prescription[- ]only|prescription|Rx[- ]only|Rx)\b", re.IGNORECASE)
_OTC_WORDS = re.compile(
    r"\b(?:over[- ]the[- ]counter|OTC|nonprescription|non-prescription)\b", re.IGNORECASE
)
# families whose value is a point in time: a date three years off is false
_DATE_FAMILIES = frozenset(
    {"adopted", "applicationDate", "decided", "rate_effective", "currency", "fatfListed"}
)
# families whose quantity is an upper bound the label or rule states: only a larger value is
# certainly false ("up to 3,000 mg" under a 4,000 mg maximum is not a contradiction)
_UPPER = frozenset({"max_dose"})


def value_mutations(
    claim: Claim, text: str, kb: KnowledgeBase | None = None
) -> tuple[list[Mutation], str | None]:
    """The value mutations of one supported claim, or ([], why none is made). With ``kb``, a
    dose claim naming no indication is not mutated when the label gives some use only a
    usual range (no maximum): a larger value may be that use's dose."""
    fam = claim.frame.family if claim.frame else claim.predicate
    ids = _fact_ids(claim)

    def one(start: int, end: int, new: str) -> Mutation:
        return Mutation("value", claim.predicate, start, end, new, claim.start, claim.end,
                        "contradicted", evidence=ids)  # fmt: skip

    q = claim.quantity
    if q is not None and fam not in _DATE_FAMILIES:
        if fam in _UPPER and claim.frame is not None and claim.frame.role != "maximum":
            return [], f"{fam} with role {claim.frame.role}: a larger value may still be true"
        if (
            fam in _UPPER
            and kb is not None
            and claim.subject
            and not claim.frame.slots.get(  # type: ignore[union-attr]
                "indication"
            )
        ):
            facts = kb.facts_about(claim.subject, "maxDose")
            if any(f.qualifiers.get("kind", "label_maximum") != "label_maximum" for f in facts):
                return [], "the label sets no maximum for some use; a larger value may be true"
        new = _bump(text[q.start : q.end], percent=q.dimension == "percent")
        if new is None:
            return [], "no number in the quantity's span"
        return [one(q.start, q.end, new)], None
    if fam == "washout":
        interval = claim.qualifiers.get("interval")
        seg = text[claim.start : claim.end]
        if not interval or seg.count(interval) != 1:
            return [], "washout interval not found once in the claim's span"
        pos = claim.start + seg.index(interval)
        m = re.match(r"(\d+)", interval)
        if m is None or int(m.group(1)) < 2:
            return [], "washout interval too short to shorten"
        shorter = str(max(1, int(m.group(1)) // 3)) + interval[m.end() :]
        return [one(pos, pos + len(interval), shorter)], None
    if fam == "schedule" and claim.object in _SCHEDULE_SWAP:
        seg = text[claim.start : claim.end]
        m = re.search(rf"\b(?:Schedule|C-?)\s*({claim.object})\b", seg)
        if m is None:
            return [], "schedule numeral not found in the claim's span"
        pos = claim.start + m.start(1)
        return [one(pos, pos + len(claim.object), _SCHEDULE_SWAP[claim.object])], None
    if fam == "rx_status":
        return _status_swap(claim, text, one)
    if claim.date is not None and fam in _DATE_FAMILIES:
        d = claim.date
        new = _shift_year(text[d.start : d.end])
        if new is None:
            return [], "the date names no year"
        return [one(d.start, d.end, new)], None
    c = claim.citation
    if claim.predicate == "citation" or (c is not None and fam == "officialIdentifier"):
        if claim.predicate == "citation" or c is None:
            end = max(c.end if c else 0, claim.end)
            m = _YEAR_IN_SPAN.search(text, claim.start, end) or _YEAR_PAREN.match(text, end)
            if m is not None and m.end() - end > 160:
                m = None
            if m is None:
                return [], "the citation has no year parenthetical"
            return [one(m.start(1), m.end(1), str(int(m.group(1)) - 3))], None
        assert c is not None
        new = _shift_year(text[c.start : c.end])
        if new is None:
            return [], "the identifier has no year"
        return [one(c.start, c.end, new)], None
    return [], f"{fam}: no value slot that a substitution makes certainly false"


def _status_swap(claim: Claim, text: str, one: Any) -> tuple[list[Mutation], str | None]:
    seg = text[claim.start : claim.end]
    trig = claim.frame.trigger if claim.frame and claim.frame.trigger else ""
    rx = str(claim.object or "").lower().startswith("rx")
    words = _RX_WORDS if rx else _OTC_WORDS
    hits = [m for m in words.finditer(seg) if not trig or trig.lower() in m.group().lower()
            or m.group().lower() in trig.lower()] or list(words.finditer(seg))  # fmt: skip
    if len(hits) != 1:
        return [], "listing word not found once in the claim's span"
    m = hits[0]
    start = m.start()
    new = "available over the counter" if rx else "prescription-only"
    if rx and m.group().lower() == "prescription":
        new = "nonprescription"
        if re.match(r"\s+is\s+(?:always\s+)?(?:required|needed|necessary)", seg[m.end() :]):
            # "a new prescription is needed" → "no prescription is needed"
            art = re.search(r"\b(?:a|an|the|your)\s+(?:\w+\s+)?$", seg[: m.start()], re.I)
            start, new = (art.start() if art else m.start()), "no prescription"
    return [one(claim.start + start, claim.start + m.end(), new)], None


# ---- qualifier mutations -----------------------------------------------------------------

_PAIRS: dict[str, list[tuple[re.Pattern[str], str, str]]] = {
    # dimension: (pattern, replacement, the value the replacement states)
    "status": [(_OTC_WORDS, "prescription", "rx"), (_RX_WORDS, "OTC", "otc")],
    "release": [
        (re.compile(r"\b(?:extended|sustained|prolonged)[- ]release\b|\b(?:ER|XR|XL|SR)\b"),
         "immediate-release", "ir"),
        (re.compile(r"\bimmediate[- ]release\b|\bIR\b"), "extended-release", "er"),
    ],
    "period": [
        (re.compile(r"\bonce a week\b|\bonce weekly\b"), "once daily", "day"),
        (re.compile(r"\bper week\b|\ba week\b|\bweekly\b"), "per day", "day"),
        (re.compile(r"/\s?(?:week|wk)\b"), "/day", "day"),
        (re.compile(r"\bonce a day\b|\bonce daily\b"), "once weekly", "week"),
        (re.compile(r"\bper day\b|\ba day\b|\bdaily\b|\bin 24 hours\b"), "per week", "week"),
        (re.compile(r"/\s?day\b"), "/week", "week"),
    ],
    "population": [
        (re.compile(r"\badults?\b", re.IGNORECASE), "children", "child"),
        (re.compile(r"\b(?:child(?:ren)?|pediatric|paediatric|kids?)\b", re.IGNORECASE),
         "adults", "adult"),
    ],
}  # fmt: skip
_CHILD = re.compile(r"child|pediatric|paediatric|adolescent|infant|neonat|\byears\b", re.I)
_ER = re.compile(r"extended|sustained|prolonged|delayed|24-hour|\b(?:ER|XR|XL|SR|CR|CC|LA)\b")
_IR = re.compile(r"immediate", re.I)


_FREQ_PERIOD = re.compile(r"\b(?:weekly|a\s+week|per\s+week)\b|\b(daily|a\s+day|per\s+day)\b")


def evidence_qualifiers(ev: dict[str, Any]) -> dict[str, Any]:
    """A fact's qualifiers, with the period of a dosing-frequency fact ("once weekly") as
    ``per``."""
    quals = dict(ev.get("qualifiers") or {})
    if "per" not in quals and ev.get("relation") == "dosingFrequency":
        m = _FREQ_PERIOD.search(str(ev.get("statement") or ""))
        if m:
            quals["per"] = "day" if m.group(1) else "week"
    return quals


def fact_value(dimension: str, qualifiers: dict[str, Any]) -> str | None:
    """What a fact's qualifiers say on one dimension (None: the fact does not depend on it)."""
    if dimension == "status":
        s = str(qualifiers.get("status") or "").lower()
        return s if s in ("otc", "rx") else None
    if dimension == "period":
        p = str(qualifiers.get("per") or "")
        return p if p in ("day", "week") else None
    if dimension == "population":
        p = str(qualifiers.get("population") or "")
        if not p:
            return None
        return "child" if _CHILD.search(p) and "adult" not in p.lower() else "adult"
    if dimension == "release":
        blob = " ".join(str(qualifiers.get(k) or "") for k in ("product", "formulation"))
        if _ER.search(blob):
            return "er"
        return "ir" if _IR.search(blob) else None
    raise ValueError(f"unknown qualifier dimension {dimension!r}")


_CLAUSE_END = re.compile(r"[.;:\n]\s|[;\n]")


def _scopes(text: str, claim: Claim) -> list[tuple[int, int]]:
    """Where a qualifier of the claim can stand, nearest first: the clause around the claim's
    value (a table row: the row), then the table's header row, then the heading above.
    A qualifier elsewhere in the paragraph belongs to another clause and is not swapped."""
    anchor = claim.quantity.start if claim.quantity is not None else claim.start
    line_start = text.rfind("\n", 0, anchor) + 1
    line_end = text.find("\n", anchor)
    line_end = len(text) if line_end < 0 else line_end
    out: list[tuple[int, int]] = []
    if text[line_start:line_end].lstrip().startswith("|"):
        out.append((line_start, line_end))
        pos = line_start
        while pos > 0:  # up to the table's first row
            prev = text.rfind("\n", 0, pos - 1) + 1
            if not text[prev : pos - 1].lstrip().startswith("|"):
                break
            pos = prev
        header_end = text.find("\n", pos)
        if pos < line_start:
            out.append((pos, header_end))
    else:
        starts = [m.end() for m in _CLAUSE_END.finditer(text, line_start, anchor)]
        lo = starts[-1] if starts else line_start
        m = _CLAUSE_END.search(text, max(anchor, claim.start))
        out.append((lo, m.start() if m and m.start() < line_end else line_end))
    for m in reversed(list(_HEAD_LINE.finditer(text, 0, line_start))):
        out.append((m.start(), m.end()))  # the nearest heading or bold label line above
        break
    return out


_HEAD_LINE = re.compile(r"(?m)^[ \t]*(?:#{1,6}[ \t].*|\*\*[^*\n]+\*\*:?[ \t]*)$")


def qualifier_mutations(claim: Claim, text: str) -> tuple[list[Mutation], str | None]:
    """Swap each qualifier the supporting fact depends on, in the claim's own scope."""
    sup = _supporting(claim)
    if not sup:
        return [], "no supporting fact"
    ids = _fact_ids(claim)
    out: list[Mutation] = []
    for dim, pairs in _PAIRS.items():
        old_vals = {fact_value(dim, evidence_qualifiers(e)) for e in sup}
        if None in old_vals or len(old_vals) != 1:
            continue  # the fact does not depend on this qualifier (or the facts disagree)
        (old,) = old_vals
        scopes = _scopes(text, claim)
        if dim == "period" and claim.quantity is None:
            olds = [p for p, _, v in pairs if v != old]
            seg = text[claim.start : claim.end]
            if sum(len(p.findall(seg)) for p in olds) != 1:
                continue  # "0.75 mg once weekly, then 1.5 mg once weekly": which one is this?
        if dim == "period" and claim.quantity is not None:
            # the period stands with the amount: "200 mg/day", "10 mg once daily"
            q = claim.quantity
            stop = _CLAUSE_END.search(text, q.end)
            scopes = [(q.start, min(q.end + 16, stop.start() if stop else len(text)))]
        for lo, hi in scopes:
            if sum(any(p.search(text, lo, hi) for p, _, v in pairs if v == val)
                   for val in {v for _, _, v in pairs}) > 1:  # fmt: skip
                break  # "SR vs immediate-release": the scope states both; none swapped
            hits = sorted((m.start(), m.end(), repl, new) for pat, repl, new in pairs
                          if new != old for m in pat.finditer(text, lo, hi))  # fmt: skip
            if not hits:
                continue
            # every word of the old value in the scope ("Wellbutrin XL (extended-release)")
            s, e, new = hits[0][0], hits[-1][1], hits[0][3]
            pieces, pos = [], s
            for a, b, repl, _ in hits:
                if a < pos:
                    continue  # overlapping matches of two patterns: the first wins
                pieces += [text[pos:a], repl]
                pos = b
            pieces.append(text[pos:e])
            match = tuple((k, claim.qualifiers[k]) for k in ("dose_mg",) if k in claim.qualifiers)
            out.append(Mutation("qualifier", claim.predicate, s, e, "".join(pieces), claim.start,
                                claim.end, "not_supported", dim, new, ids, match))  # fmt: skip
            break
    return out, None if out else "no swappable qualifier word in the claim's scope"
