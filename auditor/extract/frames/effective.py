"""The effective-date frame: the day a central bank's rate decision took effect.

"The increases took effect on 21 July 2022", "the new range applied from Friday, November 8",
"it applied from December 19". The ECB's rates change the Wednesday after the meeting and the
Fed's target range the day after the statement, so the announcement day given as the day the
change took effect is a classic slip. The frame is (bank or rate series, effective day): an
effect trigger, a day-precise date after it (a month and day take their year from the section
heading, "### The three 2024 cuts"), and a move or rate noun ("the cut", "the new rates",
"it") before it. The bank is the one named in the sentence, else the one the text names in the
preceding paragraphs — never when two banks are named there.
"""

from __future__ import annotations

import re

from auditor.extract.assertion import non_assertion
from auditor.extract.claim_base import base_claim
from auditor.extract.context import CompiledRule, SentenceInfo
from auditor.extract.frames.rates import ISSUERS, month_day, series_of, single_year
from auditor.types import Claim, DateRef, Frame, Mention
from knowledge_graphs.store import KnowledgeBase

_TRIGGER = re.compile(
    r"\b(?:(?:took|takes|take|taking)\s+effect|became\s+effective|came\s+into\s+(?:effect|force)|"
    r"(?:applied|applies|apply|applying)\s+(?:with\s+effect\s+)?from|(?:was|were|is|are)\s+"
    r"effective(?:\s+(?:from|on|as\s+of))?|with\s+effect\s+from|in\s+effect\s+from)\b",
    re.I,
)
_MOVE_NOUN = re.compile(
    r"\b(?:cuts?|hikes?|increases?|reductions?|decreases?|rises?|moves?|changes?|decisions?|"
    r"rates?|range|it|they)\b[^.;:]*$",
    re.I,
)
_DENIED = re.compile(r"\b(?:not|n't|never)\b", re.I)
_WINDOW = 800  # characters before the sentence in which the bank may have been named


def effective_claims(  # type: ignore[no-untyped-def]
    info: SentenceInfo, cr: CompiledRule, subjects, kb: KnowledgeBase, domain: str, from_context
) -> list[Claim]:
    text = info.text
    m = _TRIGGER.search(text)
    if m is None or not _MOVE_NOUN.search(text[: m.start()]):
        return []
    if _DENIED.search(text[: m.start()]) and not re.match(r"\s*until\b", text[m.end() :]):
        return []
    day = _effective_day(info, m.end())
    if day is None:
        return []
    bank = _bank(info, kb)
    if bank is None:
        return []
    mention, eid, series = bank
    base = info.sentence.start
    c = base_claim(
        info, cr, (mention, eid), kb, domain, day.first.isoformat(), None, base + m.start()
    )
    c.date = day
    if mention.start < base:
        c.qualifiers["subject_from_context"] = "true"
    frame = Frame("rate_effective", role="effective", trigger=m.group(0))
    frame.slots["series"] = "|".join(series)
    frame.slots["day"] = day.first.isoformat()
    frame.not_asserted = (
        non_assertion(info.layout, text, m.start(), paragraph_lead=info.layout.paragraph_lead)
        or c.frame.not_asserted  # type: ignore[union-attr]
    )
    c.frame = frame
    return [c]


def _effective_day(info: SentenceInfo, after: int) -> DateRef | None:
    """The day-precise date right after the trigger (within a few words)."""
    base = info.sentence.start
    for d in info.dates:
        if after <= d.start - base <= after + 30 and d.precision == "day":
            return d
    tail = info.text[after : after + 40]
    year = single_year(info.layout.headings)
    return month_day(tail, year) if year else None


def _bank(info: SentenceInfo, kb: KnowledgeBase) -> tuple[Mention, str, tuple[str, ...]] | None:
    """The one bank named in the sentence, else in the text just before it."""
    base = info.sentence.start
    here = [(m, e) for m in info.document_mentions if base <= m.start < info.sentence.end
            and (e := m.of_type(ISSUERS))]  # fmt: skip
    near = here or [
        (m, e)
        for m in info.document_mentions
        if base - _WINDOW <= m.start < base and (e := m.of_type(ISSUERS))
    ]
    if not near:
        return None
    groups = [series_of(m, e, kb, "context").series for m, e in near]
    widest = max(groups, key=len)
    if not widest or any(not set(g) <= set(widest) for g in groups):
        return None  # two banks named: which one's decision is meant is not said
    m, e = near[-1] if not here else near[0]
    return m, e, widest


__all__ = ["effective_claims"]
