"""Citation checks: case citations, statutes, regulation identifiers, financial identifiers.

Every check has an ``outcome`` — ``verified``, ``contradicted`` or ``unverified`` — and a
``reason`` code. **Unverified means "could not be checked", never "fabricated".**

============  ======================  =====================================================
outcome       reason                  meaning
============  ======================  =====================================================
verified      in_index                the SCDB case index has this case at this citation
                                      (name and year agree)
verified      in_graph                the curated graph has it (cases, statutes, regulations)
verified      pinpoint                a short form inside the named case's pages
verified      resolved                Id. / supra / short form / parallel citation of a
                                      verified citation
verified      online                  CourtListener's citation lookup found the case
contradicted  misattributed           the citation belongs to another case (both named), or
                                      a statute / act identifier is cited for another subject
contradicted  nonexistent             no case begins at that page (inside another's span)
contradicted  wrong_year              the case was decided in another year
contradicted  impossible_date         the reporter, the U.S. Reports volume or the court did
                                      not exist in the cited year
contradicted  court_reporter_mismatch the reporter does not report that court
contradicted  invalid_checksum        an identifier fails its checksum
contradicted  resolved                a back-reference to a contradicted citation
unverified    not_in_index            well formed, but no source here holds the case
unverified    valid_format            identifier checksum valid (issuance cannot be checked)
unverified    parallel_mismatch       a parallel citation disagrees with SCDB's (SCDB's
                                      parallel cites have known errors: never contradicts)
unverified    unresolved              a short form / Id. / supra with no antecedent found
unverified    name_mismatch           a bare name written before the citation ("in Roe,
                                      505 U.S. 833") is not the case there (it may be no
                                      case name at all, so it does not contradict)
unverified    resolved                a back-reference to an unverified citation
============  ======================  =====================================================

Scores feeding citation confidence (:mod:`auditor.score`): verified 1.0, unverified 0.6,
contradicted 0.0.
"""

from __future__ import annotations

import re
from dataclasses import replace
from datetime import date
from typing import Any

from auditor.types import CitationCheck, CitationRef, Claim
from auditor.verify.common import contradict, evidence, label_of, support, unverifiable
from auditor.verify.legal.index import LegalIndex, tokens
from auditor.verify.legal.lower import impossible
from auditor.verify.legal.names import same_case, sides
from auditor.verify.legal.scotus import SCOTUS_REPORTERS, ScotusVerdict, check_scotus
from auditor.verify.legal.statute_subject import SubjectMatch, compare, scope_of
from knowledge_graphs.scotus import SOURCE, reporter_key, us_volume
from knowledge_graphs.store import KnowledgeBase
from rules.schema import Rule

OUTCOMES = ("verified", "contradicted", "unverified")
SCORES = {"verified": 1.0, "unverified": 0.6, "contradicted": 0.0}
REASONS = {
    "verified": frozenset({"in_index", "in_graph", "pinpoint", "resolved", "online"}),
    "contradicted": frozenset(
        {
            "misattributed",
            "nonexistent",
            "wrong_year",
            "impossible_date",
            "court_reporter_mismatch",
            "invalid_checksum",
            "overruled",
            "resolved",
        }
    ),
    "unverified": frozenset(
        {
            "not_in_index",
            "valid_format",
            "parallel_mismatch",
            "unresolved",
            "resolved",
            "name_mismatch",
            "garbled",
        }
    ),
}
HALLUCINATION = {
    "misattributed": "fabricated_citation",
    "nonexistent": "fabricated_citation",
    "wrong_year": "wrong_date",
    "impossible_date": "impossible_citation",
    "court_reporter_mismatch": "impossible_citation",
}
SCDB_URL = "http://supremecourtdatabase.org"
_CITE_LITERAL = re.compile(r"^\s*(\d+)\s+(.+?)\s+(\d+)\s*$")

_SECTION_RUN = re.compile(r"§§|\d\s*[-‐–—]\s*\d|\bet\s+seq\b", re.I)
_ET_SEQ = re.compile(r"[\s,]*et\s+seq\b", re.I)


def check_case(
    ref: CitationRef,
    kb: KnowledgeBase,
    ix: LegalIndex,
    rule: Rule,
    as_of: date,
    domain: str,
    named_hint: str | None = None,
    online: Any = None,
    hint_is_name: bool = False,
) -> tuple[Claim, CitationCheck]:
    """Check one full or short-form case citation; ``named_hint`` is the curated case the
    linker found in its name, ``online`` an optional CourtListener client; ``hint_is_name``:
    the hint is the whole name the text gives a citation that has no parsed name."""
    claim = Claim(
        text=ref.text,
        start=ref.start,
        end=ref.end,
        domain=domain,
        rule_id=rule.id,
        subject=None,
        subject_label=ref.case_name,
        predicate="citation",
        object=f"{ref.volume} {ref.reporter} {ref.page}",
        severity=rule.severity,
    )
    if ref.year:
        claim.object += f" ({ref.year})"  # type: ignore[operator]
    if ref.form == "garbled":  # "556 U.S. 129 S. Ct. 1937": no page of its own to check
        why = "garbled citation: its page is the next citation's volume, so it cannot be checked"
        unverifiable(claim, why)
        return claim, _check(ref, "unverified", "garbled", why)
    if ref.short_form:
        return _check_short_form(ref, kb, ix, claim)
    if (us := us_volume(ref.volume or 0, ref.reporter or "")) is not None:
        ref = replace(ref, volume=us, reporter="U.S.")  # "6 Wheat. 264" is 19 U.S. 264
    if named_hint and ref.case_name and not _same_case(ref.case_name, named_hint, kb):
        named_hint = None  # a (fuzzy) link that the written name does not bear out
    if not ref.case_name and not hint_is_name and ref.written_name:
        return _check_written_name(ref, kb, ix, rule, as_of, domain, online)
    if named_hint and hint_is_name and not ref.case_name:
        # "Miranda (347 U.S. 483)", "in Miranda, 347 U.S. 483": the name the text gives the
        # citation is the case named right before it, and is compared like a parsed name
        ref = replace(ref, case_name=label_of(kb, named_hint))
    proof = impossible(ref, kb, ix)
    if proof:
        reason, why = proof
        contradict(claim, [], kb, why, HALLUCINATION[reason], rule)
        return claim, _check(ref, "contradicted", reason, why)
    key = (ref.volume or 0, reporter_key(ref.reporter or ""), ref.page or 0)
    if (cid := ix.by_cite.get(key)) is not None:
        return _in_graph(ref, kb, ix, cid, claim, rule)
    verdict = check_scotus(ref.case_name, ref.volume or 0, ref.reporter or "", ref.page or 0,
                           ref.year, ix.scotus)  # fmt: skip
    if verdict is not None:
        return _scotus(ref, verdict, claim, rule)
    named = ix.by_name.get(" ".join(tokens(ref.case_name))) if ref.case_name else None
    if (named := named or named_hint) is not None:
        got = _named_in_graph(ref, kb, named, claim, rule)
        if got is not None:
            return got
    if online is not None and (found := online.check(ref)) is not None:
        outcome, reason, why, case = found
        _set_claim(claim, outcome, reason, why, rule, case, "CourtListener citation lookup")
        return claim, _check(ref, outcome, reason, why, case)
    why = "well-formed citation that no source here holds: it could not be checked"
    unverifiable(claim, why)
    return claim, _check(ref, "unverified", "not_in_index", why)


def _check_written_name(
    ref: CitationRef,
    kb: KnowledgeBase,
    ix: LegalIndex,
    rule: Rule,
    as_of: date,
    domain: str,
    online: Any,
) -> tuple[Claim, CitationCheck]:
    """A bare name before the citation ("in Roe, 505 U.S. 833"): checked as the case name; a
    match verifies it, but a mismatch — the name may be a judge, a party or no name at all —
    leaves it unverified (``name_mismatch``), never verified under another case's name."""
    named = replace(ref, case_name=ref.written_name, written_name=None)
    claim, chk = check_case(named, kb, ix, rule, as_of, domain, None, online)
    if chk.outcome == "contradicted" and chk.reason == "misattributed":
        why = (f"the name written before the citation ('{ref.written_name}') does not fit it: "
               f"{chk.detail}")  # fmt: skip
        unverifiable(claim, why)
        chk = _check(ref, "unverified", "name_mismatch", why, chk.case)
    return claim, chk


def _scotus(
    ref: CitationRef, v: ScotusVerdict, claim: Claim, rule: Rule
) -> tuple[Claim, CitationCheck]:
    case = v.case_dict()
    claim.subject_label = ref.case_name or (case or {}).get("name")
    _set_claim(claim, v.outcome, v.reason, v.detail, rule, case, SOURCE)
    return claim, _check(ref, v.outcome, v.reason, v.detail, case)


def _set_claim(
    claim: Claim,
    outcome: str,
    reason: str,
    why: str,
    rule: Rule,
    case: dict[str, Any] | None,
    source: str,
) -> None:
    """The citation claim's verdict from a check made outside the graph (SCDB, online)."""
    src = {"document": source, "section": (case or {}).get("scdb_id"), "url": SCDB_URL}
    ev = [{"role": "supports" if outcome == "verified" else "conflicts", "source": src,
           "case": case, "statement": why}] if case else []  # fmt: skip
    if outcome == "verified":
        claim.verdict, claim.reason, claim.evidence = "supported", why, ev
    elif outcome == "contradicted":
        claim.verdict, claim.reason = "contradicted", why
        claim.hallucination_type = HALLUCINATION.get(reason, "fabricated_citation")
        claim.evidence = [*ev, {"role": "rule", "rule": rule.id, "detail": why,
                                "citation": rule.citation.model_dump()}]  # fmt: skip
    else:
        unverifiable(claim, why)


def _in_graph(
    ref: CitationRef, kb: KnowledgeBase, ix: LegalIndex, cid: str, claim: Claim, rule: Rule
) -> tuple[Claim, CitationCheck]:
    ent = kb.entity(cid)
    claim.subject, claim.subject_label = cid, ent.label if ent else cid
    facts = kb.facts_about(cid, "citation") + kb.facts_about(cid, "decided")
    if ref.case_name and not _same_case(ref.case_name, cid, kb):
        why = f"{claim.object} is {label_of(kb, cid)}, not {ref.case_name}"
        contradict(claim, facts, kb, why, "fabricated_citation", rule)
        return claim, _check(ref, "contradicted", "misattributed", why)
    year = int(ent.attrs["year"]) if ent else None
    if ref.year and year and ref.year != year:
        why = f"{label_of(kb, cid)} was decided in {year}, not {ref.year}"
        contradict(claim, facts, kb, why, "wrong_date", rule)
        return claim, _check(ref, "contradicted", "wrong_year", why)
    what = "citation" + (", case name" if ref.case_name else "") + (" and year" if ref.year else "")
    support(claim, facts, kb, f"{what} match the graph" if what != "citation" else
            f"the citation is {label_of(kb, cid)} in the graph (no case name or year given)")  # fmt: skip
    scdb = check_scotus(None, ref.volume or 0, ref.reporter or "", ref.page or 0, None, ix.scotus)
    case = scdb.case_dict() if scdb is not None and scdb.outcome == "verified" else None
    return claim, _check(ref, "verified", "in_graph", claim.reason or "", case)


def _named_in_graph(
    ref: CitationRef, kb: KnowledgeBase, named: str, claim: Claim, rule: Rule
) -> tuple[Claim, CitationCheck] | None:
    """A curated case named in the citation, cited at a place the graph does not record for
    it. Only a reporter the graph records for this case can contradict (a case known without
    any citation fact, or cited in a reporter the graph does not hold for it, stays
    unverified): not-in-graph is never contradicted."""
    claim.subject, claim.subject_label = named, label_of(kb, named)
    facts = kb.facts_about(named, "citation")
    same_reporter = [
        f for f in facts
        if (m := _CITE_LITERAL.match(str(f.literal or "")))
        and reporter_key(m.group(2)) == reporter_key(ref.reporter or "")
    ]  # fmt: skip
    ent = kb.entity(named)
    year = int(ent.attrs["year"]) if ent and ent.attrs.get("year") else None
    supreme = reporter_key(ref.reporter or "") in SCOTUS_REPORTERS
    if not same_reporter and supreme and ref.year and year and ref.year != year:
        # only a reporter of the named (Supreme Court) case's court can date it: "In re X,
        # 133 Cal. App. 4th 624 (2005)" names a state case, whatever name it shares
        why = f"{label_of(kb, named)} was decided in {year}, not {ref.year}"
        contradict(claim, kb.facts_about(named, "decided"), kb, why, "wrong_date", rule)
        return claim, _check(ref, "contradicted", "wrong_year", why)
    if not same_reporter:
        return None
    real = next((f.literal for f in same_reporter if f.qualifiers.get("parallel") != "true"),
                same_reporter[0].literal)  # fmt: skip
    why = f"{label_of(kb, named)} is reported at {real}, not {claim.object}"
    contradict(claim, same_reporter, kb, why, "fabricated_citation", rule)
    return claim, _check(ref, "contradicted", "misattributed", why)


def _check_short_form(
    ref: CitationRef, kb: KnowledgeBase, ix: LegalIndex, claim: Claim
) -> tuple[Claim, CitationCheck]:
    """A short form with no antecedent in the text ("Roe, 410 U.S. at 153"): verified when the
    case starting nearest before the pinpoint (curated graph, else SCDB) is the one named."""
    key = (ref.volume or 0, reporter_key(ref.reporter or ""))
    starts = [(page, cid) for (v, r, page), cid in ix.by_cite.items() if (v, r) == key]
    before = [(page, cid) for page, cid in starts if page <= (ref.page or 0)]
    if before and ref.case_name:
        page, cid = max(before)
        if _same_case(ref.case_name, cid, kb):
            claim.subject, claim.subject_label = cid, label_of(kb, cid)
            why = f"a pinpoint in {label_of(kb, cid)}, which starts at {ref.volume} {ref.reporter} {page}"
            support(claim, kb.facts_about(cid, "citation"), kb, why)
            return claim, _check(ref, "verified", "pinpoint", why)
    holder = ix.scotus.containing(ref.reporter or "", ref.volume or 0, ref.page or 0)
    if holder and ref.case_name and same_case(ref.case_name, holder.name, holder.aliases):
        v = ScotusVerdict("verified", "pinpoint", f"a pinpoint in {holder.name} ({holder.cite})",
                          [holder])  # fmt: skip
        claim.verdict, claim.reason = "supported", v.detail
        src = {"document": SOURCE, "section": holder.id, "url": SCDB_URL}
        claim.evidence = [{"role": "supports", "source": src, "case": v.case_dict(),
                           "statement": v.detail}]  # fmt: skip
        return claim, _check(ref, "verified", "pinpoint", v.detail, v.case_dict())
    why = "a short-form citation whose case could not be identified"
    unverifiable(claim, why)
    return claim, _check(ref, "unverified", "unresolved", why)


def same_graph_case(name: str, cid: str, kb: KnowledgeBase) -> bool:
    """Whether ``name`` can denote the curated case ``cid`` (its label, aliases, short name)."""
    return _same_case(name, cid, kb)


def _same_case(name: str, cid: str, kb: KnowledgeBase) -> bool:
    ent = kb.entity(cid)
    if ent is None:
        return True
    names = [n for n in (ent.label, *ent.aliases, str(ent.attrs.get("short_name") or "")) if n]
    if len(sides(name)) >= 2:  # a full name ("Meyer v. Uber Techs.") is matched to full names,
        full = [n for n in names if len(sides(n)) >= 2]  # never to a short one ("Meyer")
        names = full or names
    return any(same_case(name, n) for n in names)


def check_statute(
    ref: CitationRef,
    sentence: str,
    kb: KnowledgeBase,
    ix: LegalIndex,
    rule: Rule,
    domain: str,
    spans: list[tuple[int, int]] | None = None,
    offset: int = 0,
) -> tuple[Claim, CitationCheck]:
    """Check a statute citation: the section exists, and what the sentence says it is for is
    its subject (:mod:`auditor.verify.legal.statute_subject`). ``spans`` are the text offsets
    of every citation in the sentence, in order (this one included), ``offset`` the
    sentence's own; without spans the citation's text is looked up in the sentence."""
    section = (ref.section or "").lower()
    base = re.sub(r"\(.*$", "", section)
    sid = ix.statutes.get((str(ref.title), ref.reporter or "", section)) or ix.statutes.get(
        (str(ref.title), ref.reporter or "", base)
    )
    claim = Claim(
        text=ref.text,
        start=ref.start,
        end=ref.end,
        domain=domain,
        rule_id=rule.id,
        subject=sid,
        subject_label=label_of(kb, sid) if sid else ref.text,
        predicate="statuteSubject",
        object=None,
        severity=rule.severity,
    )
    if sid is None:
        unverifiable(claim, "no such section in the graph")
        return claim, _check(ref, "unverified", "not_in_index", claim.reason or "")
    facts = kb.facts_about(sid, "sectionHeading") + kb.facts_about(sid, "statuteSubject")
    heading = " ".join(str(f.literal or "") for f in facts)
    ent = kb.entity(sid)
    own_phrases = {a for a in (ent.aliases if ent else ()) if not a[:1].isdigit()}
    local = [(a - offset, b - offset) for a, b in spans or []]
    here = next((i for i, (a, _) in enumerate(local) if a == ref.start - offset), None)
    if here is None:
        at = sentence.find(ref.text)
        local = [(at, at + len(ref.text))] if at >= 0 else [(len(sentence), len(sentence))]
        here = 0
    after = sentence[ref.end - offset : ref.end - offset + 12] if spans else ""
    if _SECTION_RUN.search(ref.text) or _ET_SEQ.match(after):
        # "§§ 5311–5332", "§ 1961 et seq.": a run of sections (an act's place in the code), not
        # one section's subject; what the sentence says is about the run, so only the first
        # section's existence is checked
        match = SubjectMatch("unstated", said="run")
    else:
        match = compare(scope_of(sentence, local, here), sid, heading, own_phrases, ix)
    claim.object = match.phrase
    about = facts[-1].literal if facts else "?"
    if match.kind == "foreign":
        contradict(
            claim,
            facts,
            kb,
            f"{label_of(kb, sid)} is about {about}; "
            f"'{match.phrase}' is {', '.join(label_of(kb, o) for o in match.others[:2])}",
            "wrong_entity",
            rule,
        )
        return claim, _check(ref, "contradicted", "misattributed", claim.reason or "")
    if match.kind in {"uncompared", "mixed"}:
        why = (f"what the text says the section is for ('{match.said}') could not be "
               f"matched to its subject ({about})") if match.kind == "uncompared" else (
               f"the text names both its subject ('{match.phrase}') and another section's "
               f"('{match.said}', {label_of(kb, match.others[0])}): which one it is cited "
               "for cannot be told")  # fmt: skip
        unverifiable(claim, f"the section exists, but {why}")
        return claim, _check(ref, "verified", "in_graph", f"the section exists; {why}")
    tail = (
        " and its subject matches"
        if match.kind == "own"
        else " (the first of a run of sections: no one section's subject is compared)"
        if match.said == "run"
        else " (nothing is said of its subject)"
    )
    support(claim, facts, kb, "the section exists" + tail)
    return claim, _check(ref, "verified", "in_graph", claim.reason or "")


def check_regulation(ref: CitationRef, kb: KnowledgeBase) -> CitationCheck:
    want = re.sub(r"[^a-z0-9/]+", "", (ref.section or "").lower().replace("no.", ""))
    for f in kb.facts_with("officialIdentifier"):
        if f.literal and re.sub(r"[^a-z0-9/]+", "", f.literal.lower().replace("no.", "")) == want:
            return _check(ref, "verified", "in_graph", f"{f.literal} is {label_of(kb, f.subject)}")
    return _check(
        ref, "unverified", "not_in_index", "no regulation with this identifier in the graph"
    )


def identifier_claim(ident, rule: Rule, domain: str) -> tuple[Claim, CitationCheck]:  # type: ignore[no-untyped-def]
    claim = Claim(
        text=ident.text,
        start=ident.start,
        end=ident.end,
        domain=domain,
        rule_id=rule.id,
        subject=None,
        subject_label=ident.text,
        predicate="identifierChecksum",
        object=ident.scheme.upper(),
        severity=rule.severity,
    )
    claim.evidence = [
        {
            "role": "rule",
            "rule": rule.id,
            "detail": ident.detail,
            "citation": rule.citation.model_dump(),
        }
    ]
    if ident.valid:
        claim.verdict, claim.reason = (
            "unverifiable",
            f"{ident.detail}; whether it was issued cannot be checked",
        )
        outcome, reason = "unverified", "valid_format"
    else:
        claim.verdict, claim.reason, claim.hallucination_type = (
            "contradicted",
            ident.detail,
            rule.hallucination_type,
        )
        outcome, reason = "contradicted", "invalid_checksum"
    check = CitationCheck(
        ident.text,
        ident.start,
        ident.end,
        f"identifier:{ident.scheme}",
        outcome,
        SCORES[outcome],
        ident.detail,
        reason=reason,
    )
    return claim, check


def _check(
    ref: CitationRef, outcome: str, reason: str, detail: str, case: dict[str, Any] | None = None
) -> CitationCheck:
    if reason not in REASONS[outcome]:
        raise ValueError(f"reason {reason!r} is not one of the {outcome} reasons")
    return CitationCheck(
        ref.text,
        ref.start,
        ref.end,
        ref.kind,
        outcome,
        SCORES[outcome],
        detail,
        ref.caller_supplied,
        reason=reason,
        case=case,
    )


__all__ = [
    "OUTCOMES",
    "REASONS",
    "SCORES",
    "LegalIndex",
    "check_case",
    "check_regulation",
    "check_statute",
    "evidence",
    "identifier_claim",
]
