"""Dispensing-status frames: a drug's federal controlled-substance schedule and whether it is
sold without a prescription.

"Tramadol is a Schedule IV controlled substance", "oxycodone (C-II)", "gabapentin is not a
federally controlled substance", "amoxicillin is available over the counter", "you can't buy
amoxicillin without a prescription". The subject is the one drug named in the clause before
the status words (or the drug the sentence refers back to); a clause naming two drugs ("unlike
amoxicillin, ibuprofen is sold over the counter") makes no claim. Status is federal and US: a
sentence that names a state, another country or "some states" is not checked.
"""

from __future__ import annotations

import re

from auditor.extract.assertion import non_assertion
from auditor.extract.claim_base import base_claim
from auditor.extract.classlike import is_class_mention
from auditor.extract.clauses import clause_at
from auditor.extract.context import CompiledRule, SentenceInfo
from auditor.types import Claim, DateRef, Frame, Mention
from knowledge_graphs.store import KnowledgeBase

_DRUG = frozenset({"Drug"})
_ROMAN = {"1": "I", "2": "II", "3": "III", "4": "IV", "5": "V"}
_SCHEDULE = re.compile(
    r"\b(?:(?:DEA\s+|[Ff]ederal\s+)?[Ss]chedule|Sched\.)\s+(?P<s>IV|V|I{1,3}|[1-5])\b(?!-)"
    r"|\bC-(?P<c>IV|V|I{1,3})\b|\bC(?P<c2>II|III|IV)\b",
)
_NOT_CONTROLLED = re.compile(  # "not controlled" alone may be about symptoms, not the drug
    r"\b(?:is\s+not|isn't|is\s+no\s+longer|are\s+not|aren't|was\s+not|wasn't|not|never\s+been|"
    r"non-?)\s*(?:a\s+|an\s+)?(?:(?:federally|DEA)[- ](?:controlled|scheduled)"
    r"(?:\s+(?:substance|drug|medication)s?)?|(?:controlled|scheduled)\s+(?:substance|drug|"
    r"medication)s?(?:\s+(?:federally|at\s+the\s+federal\s+level|under\s+federal\s+law))?)\b",
    re.I,
)
_OTHER_PLACE = re.compile(
    r"\b(?:(?<!United\s)states?|state\s+laws?|state-level|Alabama|Alaska|Arizona|Arkansas|California|Colorado|"
    r"Connecticut|Delaware|Florida|Georgia|Hawaii|Idaho|Illinois|Indiana|Iowa|Kansas|Kentucky|"
    r"Louisiana|Maine|Maryland|Massachusetts|Michigan|Minnesota|Mississippi|Missouri|Montana|"
    r"Nebraska|Nevada|New\s+Hampshire|New\s+Jersey|New\s+Mexico|New\s+York|North\s+Carolina|"
    r"North\s+Dakota|Ohio|Oklahoma|Oregon|Pennsylvania|Rhode\s+Island|South\s+Carolina|"
    r"South\s+Dakota|Tennessee|Texas|Utah|Vermont|Virginia|Washington|Wisconsin|Wyoming|"
    r"UK|U\.K\.|Britain|British|England|Europe\w*|EU|Canada|Canadian|Mexico|Mexican|India|"
    r"Australia\w*|abroad|overseas|other\s+countries|outside\s+the\s+(?:US|U\.S\.|United\s+States)|"
    r"international\w*|countries|Schedule\s+\d\s+of\s+the|Misuse\s+of\s+Drugs)\b"
)
_OTC = re.compile(
    r"(?:over[- ]the[- ]counter|\bOTC\b|without\s+(?:a\s+|any\s+)?(?:prescription|script|Rx)|"
    r"non-?prescription|no\s+prescription\s+(?:is\s+)?(?:needed|required|necessary)|"
    r"off\s+the\s+shelf)",
    re.I,
)
_AVAILABLE = re.compile(
    r"\b(?:is|are|'s|remains?|be|been|also|now|still|widely)\s+(?:\w+\s+){0,2}?"
    r"(?:available|sold|obtainable|purchas(?:ed|able)|bought)\b"
    r"|\b(?:buy|get|purchase|pick\s+up|obtain|find)\b"
    r"|\b(?:is|are|'s)\s+(?:not\s+|never\s+)?(?:an?\s+)?(?:\w+\s+)?$",
    re.I,
)
_RX_ONLY = re.compile(
    r"\b(?:requires?\s+a\s+(?:doctor's\s+|valid\s+)?prescription|prescription[- ]only|Rx[- ]only|"
    r"only\s+(?:available\s+)?(?:by|with|on)\s+(?:a\s+)?prescription|"
    r"(?:need|needs)\s+a\s+(?:doctor's\s+|valid\s+)?prescription|"
    r"(?:is|are)\s+(?:only\s+)?(?:available\s+)?by\s+prescription(?:\s+only)?|"
    r"(?<!no\s)(?<!no\s\s)prescription\s+is\s+(?:always\s+)?(?:required|needed|necessary))\b",
    re.I,
)
_NO_RX_NEEDED = re.compile(r"no\s+prescription", re.I)  # a status statement by itself
_EMPHASIS = re.compile(r"[*_`]+")  # "is **available over the counter**": markup is no word
_THEN = re.compile(
    r"\b(?:until|before|previously|originally|formerly|used\s+to|was|were|had\s+been)\b", re.I
)
_DENIED = re.compile(
    r"\b(?:not|never|no\s+longer|isn't|aren't|can't|cannot|can\s+not|couldn't|won't|don't|"
    r"doesn't)\b",
    re.I,
)


def schedule_claims(  # type: ignore[no-untyped-def]
    info: SentenceInfo, cr: CompiledRule, subjects, kb: KnowledgeBase, domain: str, from_context
) -> list[Claim]:
    text = info.text
    hits: list[tuple[int, str, str]] = []
    for m in _SCHEDULE.finditer(text):
        s = m.group("s") or m.group("c") or m.group("c2")
        hits.append((m.start(), _ROMAN.get(s, s), m.group(0)))
    for m in _NOT_CONTROLLED.finditer(text):
        hits.append((m.start(), "not controlled", m.group(0)))
    if len(hits) != 1 or _OTHER_PLACE.search(text):
        return []  # two statuses in one sentence, or a state's or another country's rules
    at, value, words = hits[0]
    subject = _subject(info, at, subjects, from_context, kb)
    if subject is None:
        return []
    a, _ = clause_at(text, at)
    negated = value != "not controlled" and bool(_DENIED.search(text[a:at]))
    return [_claim(info, cr, subject, kb, domain, value, words, at, negated)]


def rx_claims(  # type: ignore[no-untyped-def]
    info: SentenceInfo, cr: CompiledRule, subjects, kb: KnowledgeBase, domain: str, from_context
) -> list[Claim]:
    text = info.text
    otc = _OTC.search(text)
    rx = _RX_ONLY.search(text)
    if (otc is None) == (rx is None) or _OTHER_PLACE.search(text):
        return []  # neither, or both ("OTC at 200 mg, prescription-only at 800 mg")
    m = otc or rx
    assert m is not None
    a, _ = clause_at(text, m.start())
    lead = text[a : m.start()]
    if (
        otc is not None
        and not _NO_RX_NEEDED.match(m.group(0))
        and not _AVAILABLE.search(_EMPHASIS.sub("", lead))
    ):
        return []  # "an OTC decongestant", "OTC alternatives": not the drug's status
    subject = _subject(info, m.start(), subjects, from_context, kb) or _complement(
        info, m.end(), kb
    )
    if subject is None:
        return []
    denied = bool(_DENIED.search(lead))
    value = "otc" if otc is not None else "rx-only"
    return [_claim(info, cr, subject, kb, domain, value, m.group(0), m.start(), denied)]


def _subject(info: SentenceInfo, at: int, subjects, from_context, kb: KnowledgeBase):  # type: ignore[no-untyped-def]
    """The one drug named before the status words in their clause, else in the sentence, else
    the context's drug."""
    base = info.sentence.start
    a, _ = clause_at(info.text, at)
    # "a Schedule II opioid", "a C-IV benzodiazepine": a class word is not a second drug
    drugs = [(m, e) for m, e in info.mentions_of(_DRUG) if not is_class_mention(m, kb)]
    # only drugs named before the status words: "... over the counter for yeast infections"
    for lo in (a, 0):
        named = {eid: (m, eid) for m, eid in drugs if lo <= m.start - base < at}
        if len(named) == 1:
            return next(iter(named.values()))
        if named:
            return None
    if from_context and subjects:
        return subjects[0]
    return None


# "you need a prescription for levothyroxine", "no prescription is needed to buy naloxone"
_FOR_DRUG = re.compile(
    r"\s*(?:(?:is|are)\s+)?(?:(?:needed|required|necessary)\s+)?(?:for|to\s+(?:buy|get|obtain|"
    r"purchase))\s+(?:the\s+|a\s+|any\s+)?$",
    re.I,
)


def _complement(info: SentenceInfo, end: int, kb: KnowledgeBase):  # type: ignore[no-untyped-def]
    """The one drug the status words govern through "for" / "to buy" right after them."""
    base = info.sentence.start
    for m, eid in info.mentions_of(_DRUG):
        if m.start - base >= end and not is_class_mention(m, kb):
            return (m, eid) if _FOR_DRUG.fullmatch(info.text[end : m.start - base]) else None
    return None


def _claim(
    info: SentenceInfo,
    cr: CompiledRule,
    subject: tuple[Mention, str],
    kb: KnowledgeBase,
    domain: str,
    value: str,
    words: str,
    at: int,
    negated: bool,
) -> Claim:
    base = info.sentence.start
    c = base_claim(info, cr, subject, kb, domain, value, value, base + at)
    c.negated = negated
    frame = Frame(
        "schedule" if cr.rule.applies_to.relation == "controlledSchedule" else "rx_status",
        role="status",
        trigger=words,
        slots={"status": value},
    )
    frame.not_asserted = (
        non_assertion(info.layout, info.text, at, paragraph_lead=info.layout.paragraph_lead)
        or c.frame.not_asserted  # type: ignore[union-attr]
    )
    dated = [d for d in info.dates if d.role != "current"]
    if len(dated) == 1 and _status_from(info, dated[0], at):
        c.date = dated[0]  # "starting August 18, 2014, tramadol is a Schedule IV substance"
    elif dated or c.qualifiers.get("tense") == "past" or _THEN.search(info.text):
        # "tramadol was not federally controlled before 2014": a status at another time
        frame.missing = ("the time the status is stated for (the sentence speaks of the past)",)
    c.frame = frame
    return c


# the status is in force from the date on: "effective October 6, 2014, ... must be prescribed
# as a Schedule II drug", "tramadol is a Schedule IV substance starting August 18, 2014"
_PRESENT_STATUS = re.compile(
    r"\b(?:is|are|'s|becomes?|remains?|(?:will|shall|must)\s+(?:now\s+)?be)\b", re.I
)


def _status_from(info: SentenceInfo, d: DateRef, at: int) -> bool:
    """The sentence's one date is the day a status takes effect ("starting", "effective",
    "from", "since") and the status is said in the present or future tense, with no word of an
    earlier state: the claim is the status on that day."""
    if d.role != "since" or d.precision != "day" or _THEN.search(info.text):
        return False
    a, _ = clause_at(info.text, at)
    return bool(_PRESENT_STATUS.search(info.text[a:at])) or bool(
        _PRESENT_STATUS.search(info.text[:at])
    )


__all__ = ["rx_claims", "schedule_claims"]
