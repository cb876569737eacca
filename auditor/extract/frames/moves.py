"""The rate-move frame: "the Fed cut rates in March 2020" (issuer, direction, date).

Only a finite move verb whose subject is the central bank (or one of its rate series, or "the
Committee" / "it" standing for it) and whose object is its rates counts: "the FOMC raised the
target range", "the ECB lowered its key interest rates by 25 bp". A noun ("the first rate cut
since 2008", "a pause in June 2023", "preferring a 25 bp cut") or another object ("reducing
reinvestments", "reserve requirement ratios were reduced") is not a claim about the rate. The
date must be in the same clause and be a point or period — "since", "until" and "before"
dates bound an interval, not the move — and a relative date ("yesterday") is not resolved.
"""

from __future__ import annotations

import re

from auditor.extract.assertion import non_assertion, preference
from auditor.extract.claim_base import base_claim
from auditor.extract.clauses import clause_at
from auditor.extract.context import CompiledRule, SentenceInfo
from auditor.extract.dates import find_dates
from auditor.extract.frames import finance_words as fw
from auditor.types import Claim, Frame
from knowledge_graphs.store import KnowledgeBase

_ISSUERS = frozenset({"PolicyRate", "CentralBank"})
_VERB = re.compile(
    r"\b(?P<verb>(?:(?:started|began|begun|continued|kept\s+on)\s+)?(?:cut(?:ting)?|lower(?:ed|ing)|"
    r"reduc(?:ed|ing)|eas(?:ed|ing)|trimm(?:ed|ing)|slash(?:ed|ing)|rais(?:ed|ing)|hik(?:ed|ing)|"
    r"increas(?:ed|ing)|lift(?:ed|ing)|tighten(?:ed|ing))|(?:started|began|begun)\s+(?:this|its|the|a|"
    r"an)\s+(?:\w+\s+)?(?:hiking|tightening|easing|cutting)\s+cycle|"
    r"(?<=not\s)(?:raise|cut|lower|hike|increase|reduce|ease|tighten)|"
    r"(?<=n't\s)(?:raise|cut|lower|hike|increase|reduce|ease|tighten))\b(?P<obj>[^.;:]{0,60})",
    re.I,
)
_FIRST_VERB = re.compile(r"^(?:started|began|begun|continued|kept\s+on)\s+", re.I)
_STARTED = re.compile(r"^(?:started|began|begun|continued|kept\s+on)\s(?:\w+\s+){0,2}", re.I)
_NOUN_BEFORE = re.compile(
    r"\b(?:a|an|the|its|first|last|another|rate|consecutive|further|\d+\s*(?:bp|basis\s+points?)|"
    r"of|for|preferring|favou?ring|after|before|since)\s*$",
    re.I,
)
_RATE_OBJECT = re.compile(
    r"^\s*(?:(?:all\s+three\s+of\s+)?(?:its|the|their|interest|policy|key|benchmark|official|"
    r"short-term|three)\s+)*(?:(?:key\s+)?(?:interest\s+)?rates?|(?:target\s+)?range|"
    r"(?:federal|fed)\s+funds\s+(?:target\s+)?(?:rate|range)|deposit\s+(?:facility\s+)?rate)\b"
    r"|^\s*(?:by|to)\s+[\d.¼½¾/-]+\s*(?:basis\s+points?|bps?|percentage\s+points?|%|percent)",
    re.I,
)
_SUBJECT_WORDS = re.compile(r"\b(?:the\s+)?(?:Committee|it|they|policymakers|the\s+bank)\s*$", re.I)
_RELATIVE = re.compile(
    r"\b(?:yesterday|today|tomorrow|last\s+(?:week|month|year)|this\s+(?:week|month|year)|"
    r"earlier\s+this|later\s+this|next\s+(?:week|month|year|meeting)|recently)\b",
    re.I,
)
_DENIED = re.compile(r"\b(?:did|does|do|has|have|had|will|would)\s*(?:not|n't|n’t)\s+$", re.I)


def move_claims(  # type: ignore[no-untyped-def]
    info: SentenceInfo, cr: CompiledRule, subjects, kb: KnowledgeBase, domain: str, from_context
) -> list[Claim]:
    base = info.sentence.start
    text = info.text
    out: list[Claim] = []
    issuers = info.mentions_of(_ISSUERS)
    for m in _VERB.finditer(text):
        verb_at = m.start("verb")
        if _NOUN_BEFORE.search(text[:verb_at]) and not _DENIED.search(text[:verb_at]):
            continue
        verb = m.group("verb")
        if verb.lower().endswith("ing") and not _STARTED.match(verb):
            continue  # "reducing reinvestments", "the cutting cycle": not a finite move
        if not _RATE_OBJECT.match(m.group("obj")) and not _STARTED.match(verb):
            continue
        a, b = clause_at(text, verb_at)
        before = [(mm, e) for mm, e in issuers if a <= mm.start - base and mm.end - base <= verb_at]
        subject = before[-1] if before else None
        if subject is None and from_context and subjects and _SUBJECT_WORDS.search(text[a:verb_at]):
            subject = subjects[0]
        if subject is None:
            continue
        dates = [
            d for d in info.dates if a <= d.start - base < b or _dates_clause(text, d, base, a)
        ]
        if not dates and text[b : b + 2].startswith(
            ":"
        ):  # "cut rates three times: on 9/18/2024, ..."
            dates = [d for d in info.dates if d.start - base >= b]
        dates = [d for d in dates if d.role in {"point", "by"} and d.precision != "now"]
        if not dates and not any(d.role in {"point", "by"} for d in info.dates):
            # "### ECB (Thursday, 6 June 2024)" over a line that names no date of its own
            dates = _heading_date(info)
        if not dates or _RELATIVE.search(text[a:b]):
            continue
        direction = fw.move_of(_FIRST_VERB.sub("", verb).replace("hiking", "hike"))
        if direction not in {"up", "down"}:
            continue  # a hold is read from the levels stated with it, not from the verb
        c = base_claim(info, cr, subject, kb, domain, direction, None, m.start())
        c.qualifiers["direction"] = direction
        size = move_size(m.group("obj"))
        if size is not None:  # "raised the target range by 50 basis points"
            c.qualifiers["size_bp"] = f"{size:g}"
        c.date = dates[0]
        c.negated = bool(_DENIED.search(text[:verb_at]))  # "The Fed did not raise rates in 2020"
        frame = Frame("rate_move", role=direction, trigger=m.group("verb"))
        frame.not_asserted = (
            (
                "a dissenter's or commentator's preferred move"
                if preference(text[a:verb_at])
                else None
            )
            or non_assertion(
                info.layout,
                text,
                verb_at,
                clause=text[a:verb_at],
                paragraph_lead=info.layout.paragraph_lead,
            )
            or c.frame.not_asserted  # type: ignore[union-attr]
        )
        c.frame = frame
        out.append(c)
        break  # one move claim per sentence
    return out


def _heading_date(info: SentenceInfo) -> list:  # type: ignore[type-arg]
    """The one day-precise date of the nearest heading when that heading names a central bank
    or rate ("### ECB (Thursday, 6 June 2024)"), for a sentence that names no date: a page's
    own date ("Updated 4 December 2026") does not date the moves it recounts."""
    if not info.layout.headings or not info.heading_mentions:
        return []
    if not any(m.of_type(_ISSUERS) for m in info.heading_mentions[0]):
        return []
    found = [
        d
        for d in find_dates(info.layout.headings[-1])
        if d.role == "point" and d.precision == "day"
    ]
    return found if len(found) == 1 else []


_SIZE = re.compile(
    r"\bby\s+(?:a\s+|another\s+|a\s+further\s+|a\s+total\s+of\s+)?(?:"
    r"(?P<n>\d+(?:\.\d+)?)\s*(?P<u>basis\s+points?|bps?\b|percentage\s+points?|"
    r"(?:%|percent)(?!\s*(?:to|-)))|(?P<f>1/4|1/2|3/4|¼|½|¾)\s+(?:of\s+a\s+)?percentage\s+point|(?P<w>half\s+a|a\s+quarter(?:\s+of\s+a)?|quarter(?:\s+of\s+a)?|"
    r"three[- ]quarters\s+of\s+a)\s+(?:percentage\s+)?point)",
    re.I,
)
_WORD_SIZE = {"half": 50.0, "a quarter": 25.0, "quarter": 25.0, "three": 75.0}


def move_size(text: str) -> float | None:
    """The size of a move in basis points: "by 50 basis points", "by 0.25 percentage point",
    "by half a percentage point"; None when the text gives none (a cumulative "by 425 bp in
    2022" is read as stated: the verifier compares it only with a single move)."""
    m = _SIZE.search(text)
    if m is None:
        return None
    if m.group("f"):
        return {"1/4": 25.0, "¼": 25.0, "1/2": 50.0, "½": 50.0, "3/4": 75.0, "¾": 75.0}[
            m.group("f")
        ]
    if m.group("w"):
        w = m.group("w").lower()
        return next(v for k, v in _WORD_SIZE.items() if w.startswith(k))
    n = float(m.group("n"))
    unit = m.group("u").lower()
    return n if unit.startswith("b") else n * 100


def _dates_clause(text: str, d, base: int, a: int) -> bool:  # type: ignore[no-untyped-def]
    """A date in the sentence's lead-in ("On 5 June 2014, the ECB cut ...")."""
    return d.start - base < a and not re.search(r"[.;]", text[d.end - base : a])


__all__ = ["move_claims", "move_size"]
