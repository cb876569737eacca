"""Citing a case as governing law: "Under *Grutter v. Bollinger*, 539 U.S. 306 (2003), a law
school may consider race"; "*Lemon*'s three-part test governs"; "courts evaluate displays under
the test of *Lemon v. Kurtzman*".

A case relied on in the present tense is claimed to be good law at the audit date, as plainly as
"X remains good law" is. Only the present tense counts: "under *Plessy*, segregation was
upheld", "*Roe* had protected ...", "could", "until", "before" speak of the past, and a negation
("no longer", "not") or an account of the overruling ("overruled", "abandoned") is no reliance.
The verifier (``kg_status``) contradicts the claim only when the graph records the overruling
on or before that date.
"""

from __future__ import annotations

import re

from auditor.extract.claim_base import base_claim, claim_date
from auditor.extract.context import CompiledRule, SentenceInfo
from auditor.types import Claim
from knowledge_graphs.store import KnowledgeBase

_CASE = frozenset({"Case"})
_UNDER = re.compile(
    r"\b(?:under|per|pursuant\s+to|applying|according\s+to|as\s+held\s+in|as\s+set\s+out\s+in|"
    r"(?:test|standard|framework|rule|doctrine|analysis)\s+(?:of|from|in|announced\s+in|set\s+out\s+"
    r"in|established\s+in|adopted\s+in))\s+[*_]*$",
    re.I,
)
_GOVERNS_AFTER = re.compile(
    r"^[*_’']*(?:s\s+[\w-]+(?:\s+[\w-]+)?\s+)?(?:(?:still|also|now|today|generally)\s+)?"
    r"(?:holds|provides|establishes|allows|permits|requires|"
    r"governs|controls|bars|prohibits|forbids|mandates|says|makes\s+clear|"
    # "remains good law", not "remains useful for describing the two prongs"
    r"(?:remains|continues)(?!\s+(?:(?:\w+ly\s+)?(?:useful|relevant|instructive|helpful|"
    r"important|influential|cited|famous|notable|significant|controversial)\b))|"
    r"protects|guarantees|recogni[sz]es|entitles|affords|shields|guides|applies|supplies|sets\s+out|"
    r"lays\s+out|"
    # "is the case to cite", "is still the leading case", "remains the controlling authority"
    r"(?:is|remains)\s+(?:still\s+)?the\s+(?:case\s+to\s+(?:cite|follow|rely\s+on)|"
    r"(?:leading|controlling|governing|key|binding)\s+(?:case|authority|precedent|decision)))\b",
    re.I,
)
_PRESENT = re.compile(
    r"\b(?:may|must|can(?:not)?|is|are|does|do|has\s+to|have\s+to|requires?|allows?|permits?|"
    r"prohibits?|bars?|forbids?|governs?|controls?|applies|apply|remains?|continues?|evaluate|"
    r"ask|look|need|needs|cannot|can't|won't|will|defers?|reviews?|upholds?|treats?|presumes?|"
    r"protects?|guarantees?|grants?|gives?|owes?|recogni[sz]es?|entitles?|affords?|extends?|"
    r"shields?|limits?|restricts?|invalidates?|satisfies|satisfy|survives?|fails?)\b",
    re.I,
)
_PAST_OR_DENIED = re.compile(
    r"\b(?:was|were|had|could|would|used\s+to|until|before|at\s+the\s+time|then|once|no\s+longer|"
    r"overrul\w+|abandon\w*|repudiat\w*|reject\w*|discard\w*|replac\w*|superseded|"
    r"abrogat\w*|former(?:ly)?|previously|historically|originally|in\s+\d{4})\b",
    re.I,
)
_CITE_TAIL = re.compile(
    r"[*_’'s]*(?:,\s*\d+\s+[A-Z][\w. ]{0,20}?\s+\d+(?:,\s*[\d–-]+)*)*(?:\s*\([^()]{0,40}\))?[*_,\s]*"
)


_CITATION_SENTENCE = re.compile(
    r"^[\s*_]*(?:(?:see|see\s+also|accord|cf\.|e\.g\.,?)[\s*_,]+)?$", re.I
)
_ACCOUNT = re.compile(r"\b(?:overrul\w+|abrogat\w*|abandon\w*|no\s+longer\s+good\s+law)\b", re.I)


def _names_overruler(info: SentenceInfo, eid: str, kb: KnowledgeBase) -> bool:
    """The text names a case that overruled this one: it gives an account of the change."""
    overrulers = {f.object for f in kb.facts_about(eid, "overruledBy") if f.object}
    return any(c in overrulers for x in info.document_mentions for c in x.candidates)


_LISTED_AFTER = re.compile(r"[\s*_]*\(((?:[^()]|\([^()]{0,40}\)){1,240})\)")


def _good_law(info, cr, subj, kb, domain, cue, at):  # type: ignore[no-untyped-def]
    c = base_claim(info, cr, subj, kb, domain, cue, None, at)
    c.date = claim_date(info, at)
    return c


def authority_claims(  # type: ignore[no-untyped-def]
    info: SentenceInfo, cr: CompiledRule, subjects, kb: KnowledgeBase, domain: str, from_context
) -> list[Claim]:
    """Explicit good-law claims (the rule's cues) and cases relied on as governing law."""
    out: list[Claim] = []
    cue = cr.cue_match(info.cue_text)
    if cue is not None and subjects:
        from auditor.extract.claim_base import subject_for

        anchor = info.sentence.start + (cue.start() if not info.header else 0)
        listed = _LISTED_AFTER.match(info.text, cue.end()) if not info.header else None
        if listed is not None and re.search(r"[A-Z][a-z]", listed.group(1)):
            # "those still cited as good law (*Baker*, *Reynolds*)": the status is said of the
            # cases in the parenthesis right after it, not of the case named before it
            return [
                _good_law(info, cr, s, kb, domain, cue.group(0).lower(), s[0].start)
                for s in subjects
                if info.sentence.start + listed.start(1) <= s[0].start
                and s[0].end <= info.sentence.start + listed.end(1)
            ]
        subj = subject_for(info, anchor, anchor, subjects, from_context)
        c = base_claim(info, cr, subj, kb, domain, cue.group(0).lower(), None, anchor)
        c.date = claim_date(info, anchor)
        out.append(c)
        return out
    base = info.sentence.start
    text = info.text
    for m, eid in info.mentions_of(_CASE):
        if m.start < base:
            continue
        s, e = m.start - base, m.end - base
        tail = _CITE_TAIL.match(text, e)
        tail_start = tail.end() if tail else e
        clause_after = re.split(
            r"[;]|\.\s|\bbut\b|\bwhile\b|\bwhereas\b", text[tail_start:], maxsplit=1
        )[0]
        lead = text[max(0, s - 40) : s]
        clause_before = re.split(r"[;:]|\.\s|\bbut\b|\bwhile\b|\bwhereas\b", text[:s])[-1]
        verbs = f"{clause_before} {clause_after[:120]}"
        relied = bool(
            (_UNDER.search(lead) and _PRESENT.search(verbs))
            or _GOVERNS_AFTER.match(text[e : e + 40])
            # "Chevron U.S.A. v. NRDC, 467 U.S. 837 (1984), still requires courts to defer"
            or (
                tail_start > e
                and _GOVERNS_AFTER.match(text[tail_start : tail_start + 40])
                and not _names_overruler(info, eid, kb)  # an answer that tells the overruling
            )
        )
        cite_only = _CITATION_SENTENCE.match(text[:s]) and not text[tail_start:].strip(" .*_")
        if not relied and cite_only and info.previous_text:
            # "Any waiver ... is invalid. *Michigan v. Jackson*, 475 U.S. 625 (1986)." — a
            # citation sentence after a present-tense proposition cites its authority
            verbs = info.previous_text
            relied = (
                bool(_PRESENT.search(verbs))
                and not _ACCOUNT.search(text)  # the proposition is checked below
                and not _names_overruler(info, eid, kb)
            )
        if not relied:
            continue
        if _PAST_OR_DENIED.search(verbs) or _PAST_OR_DENIED.search(lead):
            continue
        c = base_claim(info, cr, (m, eid), kb, domain, "relied on as governing law", None, m.start)
        c.qualifiers["implied"] = "relied on in the present tense"
        # a negation belongs to the holding relied on ("under Quill, a state may not require
        # ..."), never to the reliance: it does not make this "no longer good law"
        c.negated = False
        if c.qualifiers.get("asserts") == "absence":
            del c.qualifiers["asserts"]
        c.date = claim_date(info, m.start)
        out.append(c)
        break
    return out


__all__ = ["authority_claims"]
