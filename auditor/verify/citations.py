"""Citation checks: case citations, statutes, regulation identifiers, financial identifiers.

Outcomes and their citation-confidence scores (documented in README "Methodology"):

=================  =====  ===========================================================  ============
outcome            score  meaning                                                      verdict
=================  =====  ===========================================================  ============
verified           1.0    found; name and year match the graph                         supported
valid_format       0.7    identifier checksum valid (issuance cannot be verified)      unverifiable
not_found          0.25   well formed, but no such case/section in the graph           unverifiable
year_mismatch      0.1    found, but the year is wrong                                 contradicted
name_mismatch      0.0    the citation belongs to another case, or the case has        contradicted
                          another citation
impossible         0.0    reporter or court did not exist in that year, volume and     contradicted
                          year cannot go together
invalid_checksum   0.0    identifier fails its checksum                                contradicted
=================  =====  ===========================================================  ============
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from datetime import date

from auditor.types import CitationCheck, CitationRef, Claim
from auditor.verify.common import contradict, evidence, label_of, support, unverifiable
from knowledge_graphs.store import KnowledgeBase
from rules.schema import Rule

SCORES = {
    "verified": 1.0,
    "valid_format": 0.7,
    "not_found": 0.25,
    "year_mismatch": 0.1,
    "name_mismatch": 0.0,
    "impossible": 0.0,
    "invalid_checksum": 0.0,
}
CONTRADICTING = {"year_mismatch", "name_mismatch", "impossible", "invalid_checksum"}
_STOP = {
    "v",
    "vs",
    "the",
    "of",
    "and",
    "inc",
    "co",
    "corp",
    "corporation",
    "company",
    "et",
    "al",
    "united",
    "states",
    "in",
    "re",
    "ex",
    "parte",
    "city",
    "county",
    "board",
    "state",
}


_NON_WORD = re.compile(r"[^a-z0-9 ]+")
_SPACE_DOT = re.compile(r"[\s.]+")


_CITE_LITERAL = re.compile(r"^\s*(\d+)\s+(.+?)\s+(\d+)\s*$")


def _tokens(name: str) -> list[str]:
    return [t for t in _NON_WORD.sub(" ", name.lower().replace("’", "'")).split() if t]


def _reporter_key(r: str) -> str:
    return _SPACE_DOT.sub("", r).lower()


@dataclass
class LegalIndex:
    """Lookups over the legal graph built once per knowledge base."""

    by_cite: dict[tuple[int, str, int], str] = field(default_factory=dict)
    by_name: dict[str, str] = field(default_factory=dict)
    us_years: list[tuple[int, int]] = field(default_factory=list)  # (volume, year), sorted
    statutes: dict[tuple[str, str, str], str] = field(default_factory=dict)
    subjects: dict[str, set[str]] = field(default_factory=dict)  # phrase -> statute ids
    subject_pattern: re.Pattern[str] | None = None
    reporters: dict[str, str] = field(default_factory=dict)

    @classmethod
    def build(cls, kb: KnowledgeBase) -> LegalIndex:
        ix = cls()
        for f in kb.facts:
            if f.predicate == "citation" and f.qualifiers.get("volume"):
                q = f.qualifiers
                ix.by_cite[(int(q["volume"]), _reporter_key(q["reporter"]), int(q["page"]))] = (
                    f.subject
                )
            elif f.predicate in {"statuteSubject", "sectionHeading"} and f.literal:
                for phrase in _phrases(f.literal):
                    ix.subjects.setdefault(phrase, set()).add(f.subject)
        for e in kb.entities.values():
            if e.type == "Case":
                for n in (e.label, *e.aliases):
                    ix.by_name.setdefault(" ".join(_tokens(n)), e.id)
                vol = int(str(e.attrs.get("primary_citation", "0 x 0")).split()[0])
                if str(e.attrs.get("primary_citation", "")).split(" ")[1:2] == ["U.S."]:
                    ix.us_years.append((vol, int(e.attrs["year"])))
            elif e.type == "Statute":
                ix.statutes[
                    (str(e.attrs["title"]), str(e.attrs["code"]), str(e.attrs["section"]).lower())
                ] = e.id
            elif e.type == "Reporter":
                for n in (e.label, *e.aliases):
                    ix.reporters.setdefault(_reporter_key(n), e.id)
                ix.reporters[_reporter_key(str(e.attrs.get("abbreviation", "")))] = e.id
        ix.us_years.sort()
        phrases = sorted((p for p in ix.subjects if len(p) > 6), key=len, reverse=True)
        if phrases:
            ix.subject_pattern = re.compile(
                r"(?<!\w)(?:" + "|".join(re.escape(p) for p in phrases) + r")(?!\w)"
            )
        return ix

    def us_year_bounds(self, volume: int) -> tuple[int, int] | None:
        """Years a U.S. Reports volume can plausibly carry, from the dated cases around it."""
        lower = [y for v, y in self.us_years if v < volume]
        upper = [y for v, y in self.us_years if v > volume]
        if not lower and not upper:
            return None
        return (max(lower) - 1 if lower else 1789, min(upper) + 1 if upper else 9999)


def _phrases(text: str) -> list[str]:
    """Subject phrases of a statute: its subject and heading, lower-cased, minus boilerplate."""
    t = text.lower().replace("-", " ").strip().rstrip(".")
    bare = re.sub(r"\s*\([^)]*\)", "", t).strip()
    parts = re.split(r";|,|\band\b|\bor\b", bare)
    out = [t, bare] + [p.strip() for p in parts if len(p.strip()) > 4]
    return [p for p in dict.fromkeys(out) if p]


def check_case(
    ref: CitationRef,
    kb: KnowledgeBase,
    ix: LegalIndex,
    rule: Rule,
    as_of: date,
    domain: str,
    named_hint: str | None = None,
) -> tuple[Claim, CitationCheck]:
    """Check one case citation; ``named_hint`` is the case the linker found in its name."""
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
    if ref.short_form:
        return _check_short_form(ref, kb, ix, claim)
    cid = ix.by_cite.get((ref.volume or 0, _reporter_key(ref.reporter or ""), ref.page or 0))
    named = ix.by_name.get(" ".join(_tokens(ref.case_name))) if ref.case_name else None
    named = named or named_hint
    if cid is not None:
        ent = kb.entity(cid)
        claim.subject, claim.subject_label = cid, ent.label if ent else cid
        facts = kb.facts_about(cid, "citation") + kb.facts_about(cid, "decided")
        if ref.case_name and named_hint != cid and not _same_case(ref.case_name, cid, kb):
            contradict(
                claim,
                facts,
                kb,
                f"{claim.object} is {label_of(kb, cid)}, not {ref.case_name}",
                "fabricated_citation",
                rule,
            )
            return claim, _check(ref, "name_mismatch", claim.reason or "")
        year = int(ent.attrs["year"]) if ent else None
        if ref.year and year and abs(ref.year - year) > 0:
            contradict(
                claim,
                facts,
                kb,
                f"{label_of(kb, cid)} was decided in {year}, not {ref.year}",
                "wrong_date",
                rule,
            )
            return claim, _check(ref, "year_mismatch", claim.reason or "")
        support(claim, facts, kb, "citation, case name and year match the graph")
        return claim, _check(ref, "verified", claim.reason or "")
    if named is not None:
        claim.subject, claim.subject_label = named, label_of(kb, named)
        facts = kb.facts_about(named, "citation")
        # Only a reporter the graph records for this case can contradict: a case known without
        # any citation fact, or cited in a reporter the graph does not hold for it (S. Ct. when
        # only U.S. is recorded), stays unverifiable -- not-in-graph is never contradicted.
        same_reporter = [
            f
            for f in facts
            if (m := _CITE_LITERAL.match(str(f.literal or "")))
            and _reporter_key(m.group(2)) == _reporter_key(ref.reporter or "")
        ]
        ent = kb.entity(named)
        year = int(ent.attrs["year"]) if ent and ent.attrs.get("year") else None
        if not same_reporter and ref.year and year and ref.year != year:
            contradict(
                claim,
                kb.facts_about(named, "decided"),
                kb,
                f"{label_of(kb, named)} was decided in {year}, not {ref.year}",
                "wrong_date",
                rule,
            )
            return claim, _check(ref, "year_mismatch", claim.reason or "")
        if not same_reporter:
            recorded = ", ".join(str(f.literal) for f in facts) or "no reporter citation"
            unverifiable(
                claim,
                f"the graph records {label_of(kb, named)} at {recorded}; "
                f"{claim.object} cannot be checked against it",
            )
            return claim, _check(ref, "not_found", claim.reason or "")
        facts = same_reporter
        real = next(
            (f.literal for f in facts if f.qualifiers.get("parallel") != "true"), facts[0].literal
        )
        contradict(
            claim,
            facts,
            kb,
            f"{label_of(kb, named)} is reported at {real}, not {claim.object}",
            "fabricated_citation",
            rule,
        )
        return claim, _check(ref, "name_mismatch", claim.reason or "")
    why = _impossible(ref, kb, ix)
    if why:
        contradict(claim, [], kb, why, "impossible_citation", rule)
        return claim, _check(ref, "impossible", why)
    unverifiable(claim, "well-formed citation, but no such case in the graph: it may be fabricated")
    return claim, _check(ref, "not_found", claim.reason or "")


def _check_short_form(
    ref: CitationRef, kb: KnowledgeBase, ix: LegalIndex, claim: Claim
) -> tuple[Claim, CitationCheck]:
    """A short-form citation ("Roe, 410 U.S. at 153") points into a case that starts on an
    earlier page of the same volume; it is verified when the graph's case starting nearest
    before the pinpoint is the one the short name names."""
    key = (ref.volume or 0, _reporter_key(ref.reporter or ""))
    starts = [(page, cid) for (v, r, page), cid in ix.by_cite.items() if (v, r) == key]
    before = [(page, cid) for page, cid in starts if page <= (ref.page or 0)]
    if before and ref.case_name:
        page, cid = max(before)
        if _same_case(ref.case_name, cid, kb):
            claim.subject, claim.subject_label = cid, label_of(kb, cid)
            facts = kb.facts_about(cid, "citation")
            support(claim, facts, kb, f"a pinpoint in {label_of(kb, cid)}, which starts at "
                    f"{ref.volume} {ref.reporter} {page}")  # fmt: skip
            return claim, _check(ref, "verified", claim.reason or "")
    unverifiable(claim, "a short-form citation whose case the graph cannot identify")
    return claim, _check(ref, "not_found", claim.reason or "")


def _same_case(name: str, cid: str, kb: KnowledgeBase) -> bool:
    ent = kb.entity(cid)
    if ent is None:
        return True
    claimed = [t for t in _tokens(name) if t not in _STOP]
    if not claimed:
        return True
    for n in (ent.label, *ent.aliases, str(ent.attrs.get("short_name") or "")):
        have = {t for t in _tokens(n) if t not in _STOP}
        if have and (
            claimed[0] in have or len(set(claimed) & have) >= max(1, len(set(claimed)) // 2)
        ):
            return True
    return False


def _impossible(ref: CitationRef, kb: KnowledgeBase, ix: LegalIndex) -> str | None:
    if not ref.year:
        return None
    rid = ix.reporters.get(_reporter_key(ref.reporter or ""))
    rep = kb.entity(rid) if rid else None
    if rep is not None:
        start, end = rep.attrs.get("start"), rep.attrs.get("end")
        nominative = rep.attrs.get("nominative_through_volume")
        exempt = nominative is not None and (ref.volume or 0) <= int(nominative)
        if start and ref.year < int(start[:4]) and not exempt:
            return (
                f"{ref.reporter} began in {start[:4]}; no {ref.year} decision can be reported in it"
            )
        if end and ref.year > int(end[:4]) + 1:
            return (
                f"{ref.reporter} ended in {end[:4]}; no {ref.year} decision can be reported in it"
            )
    if _reporter_key(ref.reporter or "") == "us" and ref.volume:
        bounds = ix.us_year_bounds(ref.volume)
        if bounds and not bounds[0] <= ref.year <= bounds[1]:
            return (
                f"volume {ref.volume} of U.S. Reports holds decisions of about "
                f"{bounds[0] + 1}–{bounds[1] - 1}, not {ref.year}"
            )
    if ref.court:
        court = kb.entity(f"court:{ref.court}")
        spans = kb.facts_about(f"court:{ref.court}", "courtExists")
        if (
            court
            and spans
            and not any(
                (f.valid_from is None or f.valid_from.year <= ref.year)
                and (f.valid_to is None or ref.year <= f.valid_to.year)
                for f in spans
            )
        ):
            first = min((f.valid_from for f in spans if f.valid_from), default=None)
            return f"the {court.label} did not exist in {ref.year} (it exists from {first})"
    return None


def check_statute(
    ref: CitationRef, sentence: str, kb: KnowledgeBase, ix: LegalIndex, rule: Rule, domain: str
) -> tuple[Claim, CitationCheck]:
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
        return claim, _check(ref, "not_found", claim.reason or "")
    facts = kb.facts_about(sid, "sectionHeading") + kb.facts_about(sid, "statuteSubject")
    low = sentence.lower().replace("-", " ")
    said = _phrases_in(low, ix)
    own = [p for p in said if sid in ix.subjects[p]]
    foreign = [p for p in said if sid not in ix.subjects[p]]
    if said:
        claim.object = (own or foreign)[0]
    if foreign and not own:
        others = sorted({s for p in foreign for s in ix.subjects[p]})
        contradict(
            claim,
            facts,
            kb,
            f"{label_of(kb, sid)} is about {facts[0].literal if facts else '?'}; "
            f"'{foreign[0]}' is {', '.join(label_of(kb, o) for o in others[:2])}",
            "wrong_entity",
            rule,
        )
        return claim, _check(ref, "name_mismatch", claim.reason or "")
    support(claim, facts, kb, "the section exists" + (" and its subject matches" if own else ""))
    return claim, _check(ref, "verified", claim.reason or "")


def _phrases_in(low: str, ix: LegalIndex) -> list[str]:
    """Every statute subject phrase in the sentence (overlapping phrases included)."""
    if ix.subject_pattern is None:
        return []
    found = {m.group(0) for m in ix.subject_pattern.finditer(low)}
    # shorter phrases inside a longer match ("wire fraud" in "mail or wire fraud") count too
    found |= {p for p in ix.subjects if len(p) > 6 and any(p in f for f in found)}
    return sorted(found)


def check_regulation(ref: CitationRef, kb: KnowledgeBase) -> CitationCheck:
    want = re.sub(r"[^a-z0-9/]+", "", (ref.section or "").lower().replace("no.", ""))
    for f in kb.facts_with("officialIdentifier"):
        if f.literal and re.sub(r"[^a-z0-9/]+", "", f.literal.lower().replace("no.", "")) == want:
            return _check(ref, "verified", f"{f.literal} is {label_of(kb, f.subject)}")
    return _check(ref, "not_found", "no regulation with this identifier in the graph")


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
        outcome = "valid_format"
    else:
        claim.verdict, claim.reason, claim.hallucination_type = (
            "contradicted",
            ident.detail,
            rule.hallucination_type,
        )
        outcome = "invalid_checksum"
    check = CitationCheck(
        ident.text,
        ident.start,
        ident.end,
        f"identifier:{ident.scheme}",
        outcome,
        SCORES[outcome],
        ident.detail,
    )
    return claim, check


def _check(ref: CitationRef, outcome: str, detail: str) -> CitationCheck:
    return CitationCheck(
        ref.text,
        ref.start,
        ref.end,
        ref.kind,
        outcome,
        SCORES[outcome],
        detail,
        ref.caller_supplied,
    )


__all__ = [
    "CONTRADICTING",
    "SCORES",
    "LegalIndex",
    "check_case",
    "check_regulation",
    "check_statute",
    "evidence",
    "identifier_claim",
]
