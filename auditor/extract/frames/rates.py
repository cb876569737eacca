"""The policy-rate frame: (issuer, series, value or range, date and its role, move).

A percentage is a policy-rate claim only when a rate series is named with it ("the deposit
facility rate ... 2.00%"), or a central bank is the subject of a rate verb or noun in its
clause ("the Fed cut rates by 50 bp to 4.75%–5.00%"), or its row label / list label / heading
names the series — and nothing between the two makes it another number: inflation and its
2 % goal, unemployment, projections and dot-plot medians, IORB or ON RRP, yields, buffers.
A bank whose history the graph does not hold (Bank of England, Bank of Canada, ...) gets an
``unverifiable`` claim; its rate is never checked against the Fed's or the ECB's. A dissenter's
preferred range is not the decision. The ECB named without its series stands for its three
rates: such a value can be supported by any of them but contradicted by none.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, replace
from typing import Any, Literal

from auditor.extract.assertion import non_assertion, preference
from auditor.extract.claim_base import base_claim, claim_date, format_quantity
from auditor.extract.clauses import clause_at
from auditor.extract.context import CompiledRule, SentenceInfo
from auditor.extract.dates import find_dates
from auditor.extract.frames import finance_words as fw
from auditor.extract.frames.common import respective, value_clause
from auditor.extract.frames.moves import move_size
from auditor.types import Claim, DateRef, Frame, Mention, Quantity
from knowledge_graphs.store import KnowledgeBase

_SERIES = frozenset({"PolicyRate"})
_BANK = frozenset({"CentralBank"})
ISSUERS = _SERIES | _BANK
_AFTER_SERIES = re.compile(r"^[\s*_]*\(?\s*(?:the\s+|its\s+|a\s+|for\s+the\s+)?$", re.I)
_PREVIOUS = re.compile(
    r"\b(?:from|down\s+from|up\s+from|previously|formerly|before)\s+(?:its\s+|the\s+|a\s+)?[*_]*$",
    re.I,
)
_ARROW_AFTER = re.compile(r"^[\s*_]*(?:→|->|⇒|to\s+→)")
_ARROW_BEFORE = re.compile(r"(?P<n>\d[\d.,]*)\s*%?[\s*_]*(?:→|->|⇒)[\s*_]*$")
_MAX_GAP = 140


@dataclass
class _Series:
    mention: Mention
    entity: str
    series: tuple[str, ...]  # rate series the value is checked against
    source: str
    other_bank: str | None = None  # a bank whose rate history the graph does not hold


def rate_claims(  # type: ignore[no-untyped-def]
    info: SentenceInfo, cr: CompiledRule, subjects, kb: KnowledgeBase, domain: str, from_context
) -> list[Claim]:
    out: list[Claim] = []
    for q in info.quantities:
        if q.unit != "percent" or q.start in info.change_quantities:
            continue
        bound = _bind(info, q, kb, subjects, from_context)
        if bound is None:
            continue
        out.append(_claim(info, cr, q, bound, kb, domain))
    return out


_EXTREME = re.compile(
    r"\b(?:(?P<max>peak(?:ed|s)?|high(?:est)?|top(?:ped)?)|(?P<min>trough|low(?:est)?|"
    r"bottom(?:ed)?)|record)\b",
    re.I,
)
_CALLED_EXTREME = re.compile(
    r"[\s*_]*(?:was|is|were|became|marked|remained)\s+(?:the\s+)?(?:[\w']+\s+){0,2}?"
    r"(?:peak|high|highest|top|trough|low|lowest|bottom|record)\b",
    re.I,
)


_MOVED_TO_EXTREME = re.compile(
    r"\bto\s+(?:a|an|its|the)?\s*(?:new\s+)?(?:record|all-time|\d+-year|multi-year)"
    r"(?:[\s-]+(?:high|low|peak))?\s+(?:of\s+)?[*_]*$",
    re.I,
)
_COORDINATED = re.compile(r",\s*(?:and|but|while|whereas)\s|;|\.\s")


def _other_clause(text: str, date_at: int, value_at: int) -> bool:
    """ "The June 2022 move was the largest ..., and 5.25%-5.50% was the highest range": a
    coordinated clause of its own lies between the date and the value."""
    lo, hi = sorted((date_at, value_at))
    return bool(_COORDINATED.search(text, lo, hi))


def _claim(
    info: SentenceInfo, cr: CompiledRule, q: Quantity, s: _Series, kb: KnowledgeBase, domain: str
) -> Claim:
    base = info.sentence.start
    a, _ = value_clause(info, q)
    lead = info.text[a : q.start - base]
    claim = base_claim(
        info, cr, (s.mention, s.entity), kb, domain, format_quantity(q), None, q.start
    )
    claim.quantity = q
    claim.date = claim_date(info, q.start)
    if claim.date is None and (prev := _gapped_after(info, q)) is not None:
        # "when the MRO reached 4.50% and the MLF 4.75%": the verbless second clause shares
        # the first one's date
        claim.date = claim_date(info, prev.start)
    yearless = _yearless_day(info, q) if claim.date is None else None
    if yearless is not None:
        # "That followed the September 17 cut to 4.00%-4.25%" under "# ... mid-November 2025":
        # the sentence's own day, in the heading's year when that puts it no later than the
        # heading; never the heading's date itself (the answer's date, not the move's)
        claim.date = yearless or None
    elif claim.date is None and not _open_after(info, q):
        # "After December 2024 the Committee held the range at ...": the sentence dates the
        # value only as later than a day; the heading's date is not the one it means
        # a prose sentence with a date of its own that is not this value's: the heading's
        # date is not the one it means either
        # but "its first cut since 2019" only names a reference point
        own_date = info.layout.kind != "table_row" and any(
            d.role == "point" and not _REFERENCE_POINT.search(info.text, 0, d.start - base)
            for d in info.dates
        )
        claim.date = _context_date(info, q, headings=not own_date)
    own = _date_right_after(info, q)
    if own is not None:  # "began cutting in June 2024 and lowered it to 2.00% in June 2025"
        claim.date = own
    if (
        claim.date is not None
        and claim.date.role == "until"
        and _NOT_UNTIL.search(info.text, 0, max(0, claim.date.start - base))
    ):
        # "The second hike didn't come until Dec 14, 2016 (to 0.50-0.75%)": it came then
        claim.date = replace(claim.date, role="point")
    if claim.date is not None and _other_banks_cell(info, claim.date, q, s, kb):
        claim.date = None  # "| ECB deposit rate | 3.50% | Fed: 18 September 2024 |"
    lay = info.layout
    if (
        claim.date is not None
        and lay.kind == "table_row"
        and info.sentence.start <= claim.date.start < info.sentence.end
        and (cell := lay.cell_index(claim.date.start)) is not None
        and cell != lay.cell_index(q.start)
    ):
        # "| October 29, 2019 | -25 bp | 1.50%-1.75% |": the row states the value at the date
        # of another cell; the claim's span is both cells and what lies between them
        ca, cb = lay.cells[cell]
        claim.start, claim.end = min(ca, claim.start), max(cb, claim.end)
    previous = bool(_PREVIOUS.search(info.text[max(0, q.start - base - 16) : q.start - base])
                    or _ARROW_AFTER.match(info.text[q.end - base :]))  # fmt: skip
    frame = Frame("policy_rate", role="previous" if previous else "level", trigger=s.mention.text)
    frame.slots["series"] = "|".join(s.series)
    frame.slots["bound_by"] = s.source
    move = fw.move_of(info.text[max(0, s.mention.end - base) : q.start - base]) or fw.move_of(lead)
    if (
        move is None and s.source == "respectively"
    ):  # "raised the rates on A, B and C to x, y and z"
        names = [m.start for m, _ in info.mentions_of(_SERIES) if m.start < q.start]
        move = fw.move_of(info.text[clause_at(info.text, min(names) - base)[0] : q.start - base])
    if move is None and info.layout.kind == "table_row":
        cells = " ".join(info.layout.cell_texts[1:])
        move = fw.move_of(cells) or _signed_move(cells)
    prev_end = max((x.end - base for x in info.quantities if x.unit == "percent"
                    and x.end <= q.start and x.start not in info.change_quantities),
                   default=0)  # fmt: skip
    own_lead = info.text[max(a, prev_end) : q.start - base]  # not an earlier value's move
    if move is None and re.search(r"\bto\s*[*_]*$", own_lead):
        move = _signed_move(own_lead)  # "- **December 14, 2022:** +50 bp to 4.25%-4.50%"
    if move is None and (arrow := _ARROW_BEFORE.search(info.text[: q.start - base])):
        # "2.90% → **2.65%**": the value after the arrow is the level the move set
        old = float(arrow.group("n").replace(",", ""))
        move = "down" if q.value < old else "up" if q.value > old else None
    if move:
        frame.slots["move"] = move
        if move in {"up", "down"} and (size := _step_size(info, q, own_lead)) is not None:
            claim.qualifiers["size_bp"] = f"{size:g}"  # "+75 bp to 4.25%-4.50%"
    if claim.date is not None:
        frame.slots["date_role"] = "previous" if previous else _date_role(info, claim, move)
        if (
            move not in {"up", "down"}
            and claim.date.precision in {"month", "year"}
            and (
                _WHOLE_PERIOD.search(info.text, 0, max(0, claim.date.start - base))
                or _WHOLE_DATE.match(claim.date.text)
            )
        ):
            frame.slots["span"] = "whole"  # "held at 4.25%-4.50% throughout 2025"
    tense = _tense(info, lead, info.text[: q.start - base], claim)
    frame.slots["tense"] = tense
    missing: list[str] = []
    if s.other_bank:
        missing.append(f"the graph holds no policy-rate history for {s.other_bank}; its rate is "
                       "not checked against another bank's")  # fmt: skip
    if claim.date is None and tense != "present":
        missing.append("the date the rate applies to")
    elif claim.date is not None and _ambiguous_date(info, q):
        missing.append("which of the sentence's dates the value belongs to")
    cb = clause_at(info.text, q.start - base)[1]
    around = info.text[max(0, q.start - base - 25) : q.end - base + 12]
    extreme = _EXTREME.search(around) or _EXTREME.search(
        # "5.25%-5.50% was the highest range in 22 years": a copula calls the value an extreme
        ((m := _CALLED_EXTREME.match(info.text, q.end - base, cb)) and m.group(0)) or ""
    )
    if extreme and move in {"up", "down"} and _MOVED_TO_EXTREME.search(lead[-40:]):
        extreme = None  # "lifts the deposit rate to a record-high 4.00 percent": the new level
    if extreme:
        bounded = (
            claim.date is not None
            and not _other_clause(info.text, claim.date.start - base, q.start - base)
            and claim.date.role == "point"
            and frame.slots.get("date_role") in {"point", "decided"}
            and not missing
        )
        if bounded and (extreme.group("max") or extreme.group("min")):
            # "peaked at 5.25%-5.50% in 2023": the highest level over the dated period
            frame.slots["extreme"] = "max" if extreme.group("max") else "min"
        else:
            missing.append("a peak or trough over a period the text does not bound")
    frame.not_asserted = (
        (
            "a dissenter's or commentator's preferred value, not the decision"
            if preference(info.text[: q.start - base])
            else None
        )
        or non_assertion(
            info.layout,
            info.text,
            q.start - base,
            clause=lead,
            paragraph_lead=info.layout.paragraph_lead,
        )
        or claim.frame.not_asserted  # type: ignore[union-attr]
    )
    frame.missing = tuple(missing)
    claim.frame = frame
    return claim


_SEGMENT = re.compile(r"[,;:]|\s(?:and|but|while|whereas|then)\s", re.I)


def _ambiguous_date(info: SentenceInfo, q: Quantity) -> bool:
    """Two or more dates in the sentence and none in the value's own segment ("raised it to
    4.00% in September 2023 and started cutting in June 2024, to 3.75%": 3.75% is June's,
    but only the reader's sense of the sentence says so)."""
    base = info.sentence.start
    dated = {(d.first, d.last) for d in info.dates if d.role not in {"current", "after", "since"}}
    if len(dated) < 2:
        return False
    text = info.text
    spans: list[Any] = [*info.dates, *info.quantities]
    inside = [(d.start - base, d.end - base) for d in spans]
    cuts = [0, len(text)] + [m.start() for m in _SEGMENT.finditer(text)
                             if not any(a <= m.start() < b for a, b in inside)]  # fmt: skip
    at = q.start - base
    lo = max(c for c in cuts if c <= at)
    hi = min(c for c in cuts if c >= q.end - base)
    return not any(lo <= d.start - base and d.end - base <= hi for d in info.dates)


def _tense(info: SentenceInfo, lead: str, sentence_lead: str, claim: Claim) -> str:
    """present (checked at the audit date) | past | undated (a table cell or a label with no
    verb and no date: it cannot be placed in time)."""
    if claim.date is not None and claim.date.role == "current":
        return "present"
    if fw.PRESENT.search(lead) and not fw.PAST.search(lead):
        return "present"
    if fw.PAST.search(sentence_lead):
        return "past"
    if fw.PRESENT.search(sentence_lead):
        return "present"
    lay = info.layout
    context = " ".join((lay.column_at(claim.start) if lay.kind == "table_row" else "",
                        " ".join(lay.columns), lay.label, *lay.headings[-1:]))  # fmt: skip
    if re.search(r"\b(?:current(?:ly)?|now|today|latest|as\s+of)\b", context, re.I):
        return "present"
    return "undated"


def _context_date(info: SentenceInfo, q: Quantity, headings: bool = True) -> DateRef | None:
    """A date given by the value's column header, row label, line label or nearest heading
    ("| Rate | June 2024 | September 2024 |", "### What changed on 18 September 2024")."""
    lay = info.layout
    row_cells = [c for i, c in enumerate(lay.cell_texts) if i != lay.cell_index(q.start)]
    places = [
        lay.column_at(q.start) if lay.kind == "table_row" else "",
        lay.row_label if lay.kind == "table_row" else "",
        *row_cells[1:],
        lay.label,
        *reversed(lay.headings),
    ]
    own = places[: len(places) - len(lay.headings)]
    for text in own:
        if text:
            found = [d for d in find_dates(text) if d.role != "current"]
            if found:
                return found[0]
    year = single_year(lay.headings)
    for text in [*places[:3], lay.label]:
        if text and year and (d := month_day(text, year)):
            return d  # "- December 19: to ..." under "**2018 — four hikes**"
    if not headings:
        return None
    for text in reversed(lay.headings):
        found = [d for d in find_dates(text) if d.role != "current"]
        if found:
            return found[0]
    return None


_DAY_MONTH = re.compile(  # "decided on 8 September and 27 October"
    r"\b(?P<d>\d{1,2})(?:st|nd|rd|th)?\s+(?:of\s+)?(?P<mon>(?:jan|feb|mar|apr|may|jun|jul|aug|sep|"
    r"oct|nov|dec)[a-z]*)\b\.?",
    re.I,
)
_MONTH_DAY = re.compile(
    r"\b(?P<mon>jan|feb|mar|apr|may|jun|jul|aug|sep|sept|oct|nov|dec)[a-z]*\.?\s+(?P<d>\d{1,2})\b",
    re.I,
)


def single_year(headings: tuple[str, ...]) -> int | None:
    years = {int(y) for h in headings[-1:] for y in re.findall(r"\b(19\d\d|20\d\d)\b", h)}
    return years.pop() if len(years) == 1 else None


def month_day(text: str, year: int) -> DateRef | None:
    m = _MONTH_DAY.search(text)
    if m is None:
        return None
    found = find_dates(f"{m.group('mon')} {m.group('d')}, {year}")
    return found[0] if found else None


_WHOLE_DATE = re.compile(
    r"(?:throughout|(?:for\s+)?all\s+of|(?:for|during|over)\s+the\s+(?:whole|entire|full)(?:\s+of)?)\b",
    re.I,
)
# the value is said to hold over the whole dated period, not at some point in it
_WHOLE_PERIOD = re.compile(
    r"\b(?:throughout|all\s+(?:of\s+)?|(?:for|during|over)\s+the\s+(?:whole|entire|full)\s+(?:of\s+)?|"
    r"the\s+(?:whole|entire)\s+(?:of\s+)?|for\s+all\s+of\s+)\s*(?:the\s+(?:year|month)\s+(?:of\s+)?)?$",
    re.I,
)


_GAPPED = re.compile(
    r"[*_\s]*(?:,\s*)?(?:and|while|with)\s+(?:the\s+|its\s+)?[A-Za-z][^,;.\d%]{0,60}?"
    r"[*_\s]*(?:at\s+|of\s+)?[*_\s]*",
    re.I,
)
_A_VERB = re.compile(
    r"\b(?:is|was|were|are|stood|stands|rose|fell|reached|hit|went|moved|cut|raised|lowered|"
    r"held|kept|left|set|ended|remained|stayed|had|has|been|became|dropped|climbed)\b",
    re.I,
)


def _gapped_after(info: SentenceInfo, q: Quantity) -> Quantity | None:
    """The rate value this one is gapped after ("... reached 4.50% and the MLF 4.75%"): the
    previous percentage of the sentence when only "and <name>" without a verb lies between."""
    before = [x for x in info.quantities if x.unit == "percent" and x.end <= q.start]
    if not before:
        return None
    prev = before[-1]
    base = info.sentence.start
    gap = info.text[prev.end - base : q.start - base]
    if not _GAPPED.fullmatch(gap) or _A_VERB.search(gap):
        return None
    return prev


_REFERENCE_POINT = re.compile(r"\b(?:since|after|before|until|from)\s*[*_]*$", re.I)
_RIGHT_AFTER = re.compile(r"[\s*_)]*(?:,\s*)?(?:(?:on|effective)\s+)?", re.I)
_RELATIVE = re.compile(r"\b(?:later|afterwards?|followed|then|next|subsequent\w*)\b", re.I)
# "December 17–18, 2024": a meeting's days with their year (not a day without one)
_DAY_RANGE_YEAR = re.compile(
    r"\s*(?:[-\u2013\u2014]|to|and)\s*\d{1,2}(?:st|nd|rd|th)?[*_]*,?\s*(?:19|20)\d\d\b", re.I
)
_A_YEAR = re.compile(r"\b(?:19|20)\d\d\b")
_NOT_A_DAY = re.compile(r"^\s*(?:bp|basis|%|percent|per\s*cent)\b", re.I)


def _yearless_day(info: SentenceInfo, q: Quantity) -> DateRef | Literal[False] | None:
    """The day named without a year in the value's sentence (the closest before the value,
    else one after it in its clause), dated with the heading's one year. False when there is
    such a day but its year cannot be told (the heading gives no single year, or that year
    would put the day after the heading's own date); None when there is none."""
    base = info.sentence.start
    text = info.text
    taken = [(d.start - base, d.end - base) for d in info.dates]
    days = [
        m
        for m in sorted(
            [*_MONTH_DAY.finditer(text), *_DAY_MONTH.finditer(text)], key=lambda m: m.start()
        )
        if m.group("mon")[:1].isupper()
        and not any(a < m.end() and m.start() < b for a, b in taken)
        and not _NOT_A_DAY.match(text, m.end())
        and not _DAY_RANGE_YEAR.match(text, m.end())
    ]
    lay = info.layout
    if lay.kind == "table_row" and (cell := lay.cell_index(q.start)) is not None:
        ca, cb = lay.cells[cell]  # another cell's day is that cell's ("| 5.50% (held March 20) |")
        days = [m for m in days if ca - base <= m.start() < cb - base]
    if not days:
        return None
    at, end = q.start - base, q.end - base
    a, b = clause_at(text, at)
    right_after = [m for m in days if _RIGHT_AFTER.fullmatch(text, end, m.start())]
    in_clause = [m for m in days if a <= m.start() < b and m.end() <= at]
    if right_after:  # "a cut to 2% on April 30"
        m = right_after[0]
    elif len(in_clause) > 1:
        # "decided on 8 September and 27 October, taking the deposit rate to 0.75% and then
        # 1.50%": as many days as values after them pair in order; otherwise whose is which?
        stop = text.find(";", in_clause[-1].end())
        stop = len(text) if stop < 0 else stop
        values = [x for x in info.quantities
                  if x.unit == "percent" and in_clause[-1].end() <= x.start - base < stop]  # fmt: skip
        if len(values) != len(in_clause) or q not in values:
            return False
        m = in_clause[values.index(q)]
    elif in_clause:  # "the September 17 cut to 4.00%-4.25%"
        m = in_clause[-1]
        if _RELATIVE.search(text, m.end(), at):
            return False  # "On January 22 ... to 3.50%, followed eight days later by ... 3.00%"
    else:
        before = [m for m in days if m.end() <= at]
        if not before:
            return None
        if len(days) > 1 or _RELATIVE.search(text, before[-1].end(), at):
            return False  # "On January 22 ... to 3.50%, followed eight days later by ... 3.00%"
        m = before[-1]
    # the nearest heading that names a year ("## Central bank week in review (July 29 - August
    # 2, 2024)" above "### ECB: on hold")
    dated = next((h for h in reversed(info.layout.headings) if _A_YEAR.search(h)), None)
    year = single_year((dated,)) if dated else None
    if year is None:
        return False
    found = month_day(f"{m.group('mon')} {m.group('d')}", year)
    if found is None:
        return False
    heading_dates = [d for d in find_dates(dated or "") if d.role != "current"]
    if heading_dates and found.first > heading_dates[0].last:
        return False
    return DateRef(base + m.start(), base + m.end(), m.group(0), found.first, found.last, "day")


def _open_after(info: SentenceInfo, q: Quantity) -> bool:
    """The value's clause dates it only with an "after" date (an open period)."""
    base = info.sentence.start
    a, b = clause_at(info.text, q.start - base)
    return any(d.role == "after" and a <= d.start - base < b for d in info.dates)


def _date_role(info: SentenceInfo, claim: Claim, move: str | None) -> str:
    d = claim.date
    assert d is not None
    if d.role == "since":
        return "since"
    if claim.frame is not None and claim.frame.role == "previous":
        return "previous"
    base = info.sentence.start
    around = info.text[max(0, d.start - base - 25) : d.end - base + 5]
    if re.search(r"\beffective\b|\btook\s+effect\b|\bapplies\s+from\b|\bfrom\s*$", around, re.I):
        return "effective"
    if move in {"up", "down"}:
        return "decided"
    return "point"


_FOREIGN_BANK = re.compile(  # central banks the graph does not name
    r"\b(?:Bank\s+(?:of\s+)?(?!America\b|England\b|Canada\b|Japan\b|the\b)[A-Z][a-z]+|"
    r"Central\s+Bank\s+of\s+(?:the\s+)?[A-Z][a-z]+|Banco\s+(?:Central|de)\s+\w+|"
    r"(?!Europe|Euro)[A-Z][a-z]+(?:'s|’s)?\s+central\s+bank|Banxico|Bundesbank|"
    r"Banque\s+de\s+France|Banca\s+d'Italia|Bangko\s+Sentral|Monetary\s+Authority\s+of\s+\w+)"
)


def _bind(info, q, kb, subjects, from_context) -> _Series | None:  # type: ignore[no-untyped-def]
    s = _bind_series(info, q, kb, subjects, from_context)
    if s is None or s.other_bank or s.mention.of_type(_BANK):
        return s
    owner = _foreign_owner(info, s, kb)
    if owner is None:
        return s
    if owner is False:
        return None  # a bank the graph does not name: no claim about it, none about the ECB
    m, eid = owner
    ent = kb.entity(eid)
    return _Series(m, eid, (), s.source, ent.label if ent is not None else m.text)


def _foreign_owner(
    info: SentenceInfo, s: _Series, kb: KnowledgeBase
) -> tuple[Mention, str] | Literal[False] | None:
    """ "The PBoC kept the one-year MLF rate at 2.50%", "Bank Indonesia held its deposit facility
    rate at 5.25%": a series name the graph gives to one bank (the ECB's MLF and deposit
    facility), said of another bank in the sentence — or, when the sentence names no bank, in
    the sentence before — is that bank's rate. Its label, or None when the series' own bank is
    named (or no bank is), False for a bank the graph does not name."""

    def owns(eid: str) -> bool:
        return any(f.object in s.series for f in kb.facts_about(eid, "setsRate"))

    for f in kb.facts_with("setsRate"):  # "ECB deposit facility rate": the name says whose
        bank = kb.entity(f.subject) if f.object in s.series else None
        if bank is not None and any(
            re.search(rf"\b{re.escape(n)}\b", s.mention.text) for n in (bank.label, *bank.aliases)
        ):
            return None
    base = info.sentence.start
    for mentions, text in (
        ([m for m in info.mentions if m.start >= base], info.text),
        (
            [m for m in info.document_mentions
             if base - len(info.previous_text) - 2 <= m.start and m.end <= base],
            info.previous_text,
        ),
    ):  # fmt: skip
        banks = [(m, e) for m in mentions if (e := m.of_type(_BANK))]
        if any(owns(e) for _, e in banks):
            return None
        if banks:
            return banks[0]
        if _FOREIGN_BANK.search(text):
            return False
    return None


# a distance between two rates, not a level of either
_SPREAD = re.compile(
    r"\b(?:gap|spread|difference|distance|margin|corridor\s+width)\s+(?:between|of|from)\b"
    r"(?:(?![.;:]).)*$",
    re.I,
)
_NAMED_IN_PARENS = re.compile(
    r"[\s*_]*\((?=[^()\d]{2,40}\))[^()]*\b(?:lending|deposit|refinanc\w*|facility|MRO|DFR|MLF|"
    r"repo|overnight|discount|prime|IORB|IOER|policy\s+rate)\b[^()]*\)",
    re.I,
)


def _bind_series(info, q, kb, subjects, from_context) -> _Series | None:  # type: ignore[no-untyped-def]
    base = info.sentence.start
    a, _b = value_clause(info, q)
    text = info.text
    tail = text[q.end - base : q.end - base + 40]
    if fw.BLOCKER.match(tail.strip(" *_")) or re.match(r"^[\s*_]*(?:of|in)\s+(?:GDP|the\s+)", tail):
        return None  # "2% inflation", "2 percent goal", "3% of GDP"
    if _SPREAD.search(text[: q.start - base]):
        return None  # "the gap between the MRO and the deposit rate shrank from 50 to 15 bp"
    issuers = [(m, e) for m, e in info.mentions_of(ISSUERS)]
    paired = respective(info, q, [(m, e) for m, e in issuers if m.of_type(_SERIES)])
    if paired is False:
        return None  # "... 4.50% and 4.75% respectively" after three rate names: whose is which?
    if paired is not None:
        return series_of(*paired, kb, "respectively")
    named_after = [(m, e) for m, e in issuers if m.start >= q.end and m.start - q.end <= 6
                   and re.match(r"^[\s*_]*\($", text[q.end - base : m.start - base])]  # fmt: skip
    if named_after and named_after[0][0].of_type(_SERIES):
        return series_of(*named_after[0], kb, "clause")  # "2.15% (MRO)"
    if _NAMED_IN_PARENS.match(text, q.end - base) and not named_after:
        return None  # "2.75% (marginal lending)": named by a rate name the graph does not know
    own = _own_name(info, q, kb)
    if own is not None:  # "deposit 2.00%, MRO 2.15% and marginal lending 2.40%"
        return own
    lo = a
    if (aside := _ASIDE_BEFORE.search(text, 0, q.start - base)) and aside.end() >= a:
        lo = min(a, _clause_start(text, aside.start()))  # the head the relative clause follows
    before = [(m, e) for m, e in issuers if lo <= m.start - base and m.end <= q.start
              and not _in_aside(text, m.start - base, m.end - base, q.start - base)]  # fmt: skip
    if before:
        m, e = before[-1]
        gap = text[m.end - base : q.start - base]
        plain = _MOVED_TARGET.sub(" ", gap)  # "lowering its target to": the policy target
        if len(gap) <= _MAX_GAP and not fw.BLOCKER.search(plain) and _governs(m, e, gap, kb):
            return series_of(m, e, kb, "clause")
    after = [(m, e) for m, e in issuers if m.start >= q.end and m.start - q.end <= 25 and
             _AFTER_SERIES.match(text[q.end - base : m.start - base])]  # fmt: skip
    if after and after[0][0].of_type(_SERIES):
        m, e = after[0]
        return series_of(m, e, kb, "clause")  # "a 4.00% deposit facility rate"
    return _structural(info, q, kb, issuers, subjects, from_context)


# ", which sits 25 bp above the MRO, topped out at": a relative clause just closed before the
# value's own words
_NOT_UNTIL = re.compile(r"(?:\b(?:not|never|no\s+\w+)\b|n['’]t\b)(?:(?![.;]).){0,60}?\s*$", re.I)
_MOVED_TARGET = re.compile(
    r"\b(?:lower|cut|rais|reduc|increas|lift|trim)\w*\s+(?:its|the|their)\s+target\s+to\s*[*_]*$",
    re.I,
)
_ASIDE_BEFORE = re.compile(r",\s*(?:which|who|whose)\b[^,;]*,[^,;]*$", re.I)


def _clause_start(text: str, at: int) -> int:
    cut = max(text.rfind(";", 0, at), text.rfind(":", 0, at), text.rfind(". ", 0, at))
    return cut + 1 if cut >= 0 else 0


_ASIDE_OPEN = re.compile(r",\s*(?:which|who|whose|that)\b[^,;]*$", re.I)


def _in_aside(text: str, start: int, end: int, value: int) -> bool:
    """ "the marginal lending rate, which sits 25 bp above the MRO, topped out at 4.50%": a
    name inside a relative clause that closes before the value does not govern it."""
    return bool(_ASIDE_OPEN.search(text, 0, start)) and "," in text[end:value]


def _governs(m: Mention, eid: str, gap: str, kb: KnowledgeBase) -> bool:
    """A series governs any value after it in its clause ("the DFR to 2.00%"); a bank needs a
    rate noun or a rate verb between it and the value ("the Fed cut rates ... to 4.75%")."""
    if m.of_type(_SERIES):
        return True
    return bool(fw.RATE_NOUN.search(gap) or fw.move_of(gap))


def _structural(info, q, kb, issuers, subjects, from_context) -> _Series | None:  # type: ignore[no-untyped-def]
    base = info.sentence.start
    lay = info.layout
    lead = info.text[value_clause(info, q)[0] : q.start - base]
    if fw.BLOCKER.search(lead):
        return None
    if lay.kind == "table_row":
        column = lay.column_at(q.start)
        if fw.BLOCKER.search(column) or fw.BLOCKER.search(lay.row_label):
            return None  # "| Interest on reserve balances (IORB) | 4.90% |"
        row = [(m, e) for m, e in issuers if lay.cell_index(m.start) == 0]
        named_rates = [(m, e) for m, e in row if m.of_type(_SERIES)]
        if len({e for _, e in named_rates}) == 1:  # "| ECB (deposit rate) | 3.75% |": the rate
            return series_of(*named_rates[0], kb, "row")
        if row:
            return series_of(*row[0], kb, "row")
        named = _series_prefixed_by(lay.row_label, kb)
        if named is not None and lay.cell_index(q.start) != 0:  # "| Deposit facility | 3.00% |"
            a0, b0 = lay.cells[0]
            return _Series(Mention(a0, b0, lay.row_label, (named,), ("PolicyRate",)),
                           named, (named,), "row")  # fmt: skip
        named = _series_named_in(column, kb)
        if named is not None:  # "| Decision | Effective | Move | New deposit rate |"
            return _Series(Mention(q.start, q.end, column, (named,), ("PolicyRate",)), named,
                           (named,), "column")  # fmt: skip
    if lay.label_end is not None:
        if fw.BLOCKER.search(lay.label):
            return None
        labelled = [(m, e) for m, e in issuers if m.end <= lay.label_end]
        if labelled:
            return series_of(*labelled[-1], kb, "label")
    for mentions in info.heading_mentions[:1]:
        series = [(m, e) for m in mentions if (e := m.of_type(_SERIES))]
        if len({e for _, e in series}) == 1 and not fw.BLOCKER.search(info.text):
            return series_of(*series[0], kb, "heading")
    if (
        from_context
        and subjects
        and (
            fw.move_of(lead)
            or fw.RATE_NOUN.search(lead)
            or (lay.kind != "table_row" and _signed_move(lead))
        )
    ):  # "- **May 4, 2022:** +50 bp to 0.75%–1.00%" after a line about the FOMC
        m, e = subjects[0]
        if m.of_type(ISSUERS):
            return series_of(m, e, kb, "context")
    topic = _document_issuer(info)
    if topic is not None and _speaks_of_rates(info, q, lead):
        return series_of(*topic, kb, "heading")  # "- December 19: to 2-1/2 to 2-3/4 percent"
    if lay.kind in {"list_item", "table_row"} and _speaks_of_rates(info, q, lead):
        topic = _text_issuer(info, kb)
        if topic is not None:  # a list of decisions in a text about one bank's one rate
            return series_of(*topic, kb, "document")
    return None


# the words right before a value in a list of values, once connectives are dropped:
# "..., MRO 2.15% and marginal lending 2.40%" -> "marginal lending"
_LIST_LEAD = re.compile(
    r"^[\s,;*_]*(?:(?:and|while|with|plus|the|its|a|for)\s+)*(?P<name>[A-Za-z][\w\s-]{1,40}?)"
    r"(?:\s+(?:at|of|to|was|is|stood\s+at|rose\s+to|fell\s+to))?[\s:*_]*$",
    re.I,
)


def _own_name(info: SentenceInfo, q: Quantity, kb: KnowledgeBase) -> _Series | None:
    """In a list of values each led by its own rate's name ("deposit 2.00%, MRO 2.15% and
    marginal lending 2.40%"), the words right before a value name that value's rate: a series
    whose name they begin (or are) binds it, not the series named before an earlier value. A
    lead that names no series, or more than one, binds nothing here."""
    base = info.sentence.start
    a, _ = value_clause(info, q)
    prev = [p for p in info.quantities if p.unit == "percent" and a + base <= p.start
            and p.end <= q.start]  # fmt: skip
    lead = info.text[max(0, (prev[-1].end if prev else q.start - 40) - base) : q.start - base]
    if len(lead) > 40:
        return None
    # the words after the last verb or preposition: "were set at deposit" -> "deposit"
    # ("the deposit facility at 2.00%": the name before a trailing "at" / "stands at")
    lead = re.sub(
        r"\b(?:(?:stands?|stood|was|is|were|are)\s+)?(?:at|of)\s*[*_]*$", "", lead, flags=re.I
    )
    lead = re.split(r"\b(?:at|were|was|are|is|of|to|from|set|stood|as|by)\s+", lead, flags=re.I)[-1]
    m = _LIST_LEAD.match(lead)
    if m is None:
        return None
    named = _series_prefixed_by(m.group("name"), kb)
    if named is None:
        return None
    at = q.start - len(lead) + m.start("name")
    return _Series(Mention(at, at + len(m.group("name")), m.group("name"), (named,),
                           ("PolicyRate",)), named, (named,), "clause")  # fmt: skip


def _series_prefixed_by(words: str, kb: KnowledgeBase) -> str | None:
    """The one rate series one of whose names begins with (or is) ``words``, word by word
    ("marginal lending" -> the marginal lending facility rate; "deposit" -> the deposit
    facility rate); None when no series or more than one fits."""
    w = " ".join(words.lower().split()).strip(" -")
    if len(w) < 3:
        return None
    found = {
        e.id
        for e in kb.entities_of_type("PolicyRate")
        for n in e.names()
        if (low := n.lower()) == w or low.startswith(w + " ")
    }
    return found.pop() if len(found) == 1 else None


def _text_issuer(info: SentenceInfo, kb: KnowledgeBase) -> tuple[Mention, str] | None:
    """The one rate series a whole text speaks of, named before this line: every central bank
    or series it mentions stands for the same series (the Fed, the FOMC, the federal funds
    rate). A text that names two banks, or the ECB's three rates, has no such topic."""
    found = [(m, e) for m in info.document_mentions if (e := m.of_type(ISSUERS))]
    if not found or found[0][0].start >= info.sentence.start:
        return None
    first = {e: m for m, e in reversed(found)}  # one lookup per entity, not per mention
    series = {series_of(m, e, kb, "document").series for e, m in first.items()}
    if len(series) != 1 or len(next(iter(series))) != 1:
        return None
    return found[0]


_SIGNED_SIZE = re.compile(
    r"(?<![\w.])[−–+-]\s*(?P<n>\d+(?:\.\d+)?)\s*(?:bp|bps|basis\s+points?)\b", re.I
)
_NOUN_SIZE = re.compile(
    r"\b(?:(?P<n>\d+(?:\.\d+)?)[- ]?(?:bp|bps|basis[- ]points?)|(?P<w>quarter|half|"
    r"three[- ]quarter)[- ](?:percentage[- ])?point)\s+(?:hike|cut|increase|rise|reduction|"
    r"decrease|move|step|reduction)\b",
    re.I,
)
# a sum of moves, not one: "a cumulative 400 basis points", "11 hikes totalling 525 bp"
_SUM_OF_MOVES = re.compile(
    r"\b(?:total\w*|cumulative\w*|in\s+all|combined|altogether|overall|in\s+sum|"
    r"(?:hikes|cuts|increases|moves|reductions|steps)\b)",
    re.I,
)


def _step_size(info: SentenceInfo, q: Quantity, lead: str) -> float | None:
    """The size of the one move that set the value, when its clause (or its table row) gives
    it: "+75 bp to 4.25%-4.50%", "a 50 basis point cut to 3.75%", "| -25 bp | 1.50%-1.75% |";
    None for a sum of moves, no size, or a size after "by" (the move claim's own slot)."""
    texts = [lead]
    lay = info.layout
    if lay.kind == "table_row":
        own = lay.cell_index(q.start)
        texts += [t for i, t in enumerate(lay.cell_texts) if i not in {0, own}]
    for text in texts:
        if _SUM_OF_MOVES.search(text):
            return None
        found = []
        for m in _SIGNED_SIZE.finditer(text):
            found.append(float(m.group("n")))
        for m in _NOUN_SIZE.finditer(text):
            w = (m.group("w") or "").lower()
            found.append(float(m.group("n")) if m.group("n") else
                         25.0 if w == "quarter" else 50.0 if w == "half" else 75.0)  # fmt: skip
        by = move_size(text)
        if by is not None and not found:
            return None  # "raised ... by 50 basis points, to ...": the move claim reads it
        if len(set(found)) == 1:
            return found[0]
        if found:
            return None  # two sizes: which set this value?
    return None


def _signed_move(text: str) -> str | None:
    """ "−25 bp" / "+75 bp" in a table of decisions."""
    m = re.search(r"(?<![\w.])([−–+-])\s*\d+(?:\.\d+)?\s*(?:bp|bps|basis\s+points?)\b", text)
    if m is None:
        return None
    return "up" if m.group(1) == "+" else "down"


def _series_named_in(text: str, kb: KnowledgeBase) -> str | None:
    """The one rate series whose name or alias occurs in a column header."""
    if not text:
        return None
    low = text.lower()
    found = {
        e.id
        for e in kb.entities_of_type("PolicyRate")
        for n in e.names()
        if len(n) >= 3 and re.search(rf"(?<![\w]){re.escape(n.lower())}(?![\w])", low)
    }
    return found.pop() if len(found) == 1 else None


def _document_issuer(info: SentenceInfo) -> tuple[Mention, str] | None:
    """The one central bank (or rate series) the headings above are about."""
    found = [(m, e) for mentions in info.heading_mentions for m in mentions
             if (e := m.of_type(ISSUERS))]  # fmt: skip
    return found[0] if len({e for _, e in found}) == 1 else None


def _speaks_of_rates(info: SentenceInfo, q: Quantity, lead: str) -> bool:
    """A rate noun or a move word in the value's lead, column, label or the heading above it."""
    lay = info.layout
    places = (lead, lay.column_at(q.start) if lay.kind == "table_row" else "", lay.label,
              lay.list_header, *lay.headings[-1:])  # fmt: skip
    if any(fw.BLOCKER.search(p) for p in places if p):
        return False
    if lay.kind == "table_row" and _signed_move(" ".join(lay.cell_texts)):
        return True  # "| Mar 18 | −75 bp | 2-1/2 percent |"
    if _signed_move(lead):
        return True  # "- **May 4, 2022:** +50 bp to 0.75%–1.00%"
    return any(p and (fw.RATE_NOUN.search(p) or fw.move_of(p)) for p in places)


_OWN_DATE_GAP = re.compile(
    r"[\s*_,]*(?:(?:in|on|as\s+of|from|since|effective(?:\s+from)?)\s+)?[*_]*", re.I
)


def _date_right_after(info: SentenceInfo, q: Quantity) -> DateRef | None:
    """A date written right after the value ("to 2.00% in June 2025") is the value's own."""
    base = info.sentence.start
    for d in info.dates:
        if d.start >= q.end and d.role not in {"current", "after"}:
            gap = info.text[q.end - base : d.start - base]
            return d if _OWN_DATE_GAP.fullmatch(gap) else None
    return None


def _other_banks_cell(
    info: SentenceInfo, d: DateRef, q: Quantity, s: _Series, kb: KnowledgeBase
) -> bool:
    """In a table row, the date sits in another cell than the value, and that cell or its
    column header names only banks or rates other than the value's: it dates their decision."""
    lay = info.layout
    if lay.kind != "table_row" or not s.series:
        return False
    cell = lay.cell_index(d.start)
    if cell is None or cell == lay.cell_index(q.start):
        return False
    named = [
        e for m in info.mentions if lay.cell_index(m.start) == cell and (e := m.of_type(ISSUERS))
    ]
    header = lay.column_at(d.start).lower()
    if header:
        for ent in (*kb.entities_of_type("CentralBank"), *kb.entities_of_type("PolicyRate")):
            if any(len(n) >= 3 and re.search(rf"(?<!\w){re.escape(n.lower())}(?!\w)", header)
                   for n in ent.names()):  # fmt: skip
                named.append(ent.id)
    if not named:
        return False
    mine = set(s.series)
    return all(not mine & set(series_of(s.mention, e, kb, "cell").series) for e in named)


def series_of(m: Mention, eid: str, kb: KnowledgeBase, source: str) -> _Series:
    ent = kb.entity(eid)
    if ent is not None and ent.type == "PolicyRate":
        return _Series(m, eid, (eid,), source)
    series = tuple(f.object for f in kb.facts_about(eid, "setsRate") if f.object)
    if not series:
        return _Series(m, eid, (), source, ent.label if ent else m.text)
    return _Series(m, eid, series, source)


__all__ = ["ISSUERS", "month_day", "rate_claims", "series_of", "single_year"]
