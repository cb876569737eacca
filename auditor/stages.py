"""The audit core as three public stage verbs over one extraction.

>>> from auditor import get_auditor
>>> a = get_auditor()
>>> ex = extract(a, "Adults can take up to 8,000 mg of acetaminophen a day.", domain="medical")
>>> checked = verify(a, ex)
>>> score(a, ex, checked).counts
{'supported': 0, 'contradicted': 1, 'unverifiable': 0}

* :func:`extract` — the text, once per domain, into sentences with their layout, mentions,
  quantities, dates, citations and the claim frames the rule packs assemble;
* :func:`verify` — every check dispatched by its rule's check type: claim checks through
  :data:`auditor.verify.VERIFIERS`, and the checks that read the text themselves (brand
  appositions, citations, identifiers) through :data:`TEXT_CHECKS`;
* :func:`score` — FER, citation confidence, coverage, counts and the calibrated risk, into the
  one :class:`~auditor.types.AuditResult` that the API, batch and chat all return.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import date
from typing import TYPE_CHECKING, Any, Protocol

from auditor.errors import UsageError
from auditor.extract import Extraction, extract_claims
from auditor.extract.clauses import clause_at
from auditor.extract.fuzzy.evidence import annotate_claims
from auditor.extract.garbled import garbled
from auditor.score import score as score_claims
from auditor.types import AuditResult, CitationCheck, Claim, Mention
from auditor.verify import Context, verify_claims
from auditor.verify.common import unverifiable
from auditor.verify.literal import brand_claims
from auditor.version import AUDITOR_VERSION
from knowledge_graphs.model import DOMAINS

if TYPE_CHECKING:
    from auditor.extract.fuzzy import DomainLinker
    from auditor.extract.linker import Linker
    from auditor.types import CitationRef
    from knowledge_graphs.store import KnowledgeBase
    from rules.loader import RuleSet
    from rules.schema import Rule

DOMAIN_CHOICES = (*DOMAINS, "auto")


class Auditor(Protocol):
    """What the stage verbs read from the auditor that runs them
    (:class:`auditor.pipeline.Auditor` is one): the graphs, the rule packs, the linkers and
    the input and citation checks. The pipeline imports the stages, never the reverse."""

    kb: KnowledgeBase
    rules: RuleSet
    rules_by_id: dict[str, Rule]
    fallback_linker: Any
    risk: bool

    def linker(self) -> Linker: ...

    def linker_for(self, domain: str) -> Linker | DomainLinker: ...

    def check_text(self, text: object) -> str: ...

    def check_citations(self, citations: list[str] | None) -> list[str]: ...

    def pick_domains(self, text: str) -> list[str]: ...

    def check_citations_in(
        self, ex: Extraction, caller: list[str], day: date, domains: list[str]
    ) -> tuple[list[Claim], list[CitationCheck]]: ...

    def case_name_ok(self, name: str, cid: str) -> bool: ...

    def resolve_case(self, ref: CitationRef) -> str | None: ...

    def sync_regulation_checks(self, claims: list[Claim], checks: list[CitationCheck]) -> None: ...


@dataclass
class Extracted:
    """What :func:`extract` read: one :class:`Extraction` per domain audited."""

    text: str
    as_of: date
    requested: str  # the domain asked for ("auto" included)
    domains: list[str]
    by_domain: dict[str, Extraction]
    caller_citations: list[str] = field(default_factory=list)

    @property
    def any(self) -> Extraction | None:
        """The last extraction (its sentences, citations and identifiers are the same in every
        domain)."""
        return next(reversed(self.by_domain.values()), None)

    def fuzzy_mentions(self) -> list[Mention]:
        return [
            m
            for ex in self.by_domain.values()
            for info in ex.sentences
            for m in info.mentions
            if m.fuzzy_score is not None
        ]


@dataclass
class Verified:
    claims: list[Claim]
    citations: list[CitationCheck]


def parse_as_of(as_of: str | date | None) -> date:
    if as_of is None or as_of == "":
        return date.today()
    if isinstance(as_of, date):
        return as_of
    if not isinstance(as_of, str):
        raise UsageError(f"as_of must be a date or an ISO date string, not {type(as_of).__name__}")
    try:
        return date.fromisoformat(as_of.strip())
    except ValueError:
        raise UsageError(f"invalid as_of {as_of!r}: expected a date as YYYY-MM-DD") from None


def extract(
    auditor: Auditor,
    text: str,
    *,
    domain: str,
    as_of: date | None = None,
    citations: list[str] | None = None,
) -> Extracted:
    """Read ``text`` for every domain it is audited in (``auto``: the domains it names).
    ``as_of`` is the date the caller parsed (:func:`parse_as_of`, once, in
    ``Auditor.audit``); None: today."""
    day = date.today() if as_of is None else as_of
    text = auditor.check_text(text)
    if domain not in DOMAIN_CHOICES:
        raise UsageError(f"unknown domain {domain!r}; expected one of {', '.join(DOMAIN_CHOICES)}")
    caller = auditor.check_citations(citations)
    domains = auditor.pick_domains(text) if domain == "auto" else [domain]
    domains = [d for d in domains if d in auditor.kb.domains]
    by_domain = {
        d: extract_claims(
            text,
            domain=d,
            kb=auditor.kb,
            rules=auditor.rules.for_domain(d),
            linker=auditor.linker_for(d),  # type: ignore[arg-type]
            fallback_linker=auditor.fallback_linker,
            resolve_case=auditor.resolve_case if d == "legal" else None,
            case_name_ok=auditor.case_name_ok if d == "legal" else None,
        )
        for d in domains
    }
    if not by_domain:  # no domain: citations and identifiers are still read
        by_domain["legal"] = extract_claims(
            text, domain="legal", kb=auditor.kb, rules=[], linker=auditor.linker()
        )
        domains = []
    return Extracted(text, day, domain, domains, by_domain, caller)


TextCheck = Callable[["Auditor", Extracted], tuple[list[Claim], list[CitationCheck]]]


def _brand_check(auditor: Auditor, ex: Extracted) -> tuple[list[Claim], list[CitationCheck]]:
    claims: list[Claim] = []
    for d, extraction in ex.by_domain.items():
        for rule in auditor.rules.for_domain(d):
            if rule.check.type == "brand_generic" and d in ex.domains:
                for info in extraction.sentences:
                    claims += brand_claims(info, auditor.kb, rule, d)
    return claims, []


def _citation_check(auditor: Auditor, ex: Extracted) -> tuple[list[Claim], list[CitationCheck]]:
    extraction = ex.any
    if extraction is None:
        return [], []
    return auditor.check_citations_in(extraction, ex.caller_citations, ex.as_of, ex.domains)


# checks that read the text themselves, by check type (the citation stage covers both the
# citation_validity and the identifier_checksum rules in one pass)
TEXT_CHECKS: dict[str, TextCheck] = {
    "brand_generic": _brand_check,
    "citation_validity": _citation_check,
}


def verify(auditor: Auditor, ex: Extracted) -> Verified:
    """Verdicts for every claim and citation of the extraction."""
    ctx = Context(auditor.kb, ex.as_of)
    claims: list[Claim] = []
    for extraction in ex.by_domain.values():
        verify_claims(extraction.claims, auditor.rules_by_id, ctx)
        claims += extraction.claims if ex.domains else []
    checks: list[CitationCheck] = []
    for text_check in TEXT_CHECKS.values():
        more_claims, more_checks = text_check(auditor, ex)
        claims += more_claims
        checks += more_checks
    auditor.sync_regulation_checks(claims, checks)
    claims = _fold_overruled_citations(claims, checks)
    claims = _fold_glosses(claims)
    _demote_garbled(claims, ex)
    annotate_claims(claims, ex.fuzzy_mentions(), auditor.kb)
    claims = _fold_same_fact(claims, ex.text)
    _scope_supports(claims, ex.text)
    claims.sort(key=lambda c: (c.start, c.end, c.rule_id or "", c.subject or "", str(c.object)))
    checks.sort(key=lambda c: (c.caller_supplied, c.start, c.end, c.text))
    return Verified(claims, checks)


def _fold_overruled_citations(claims: list[Claim], checks: list[CitationCheck]) -> list[Claim]:
    """A case relied on as governing law after it was overruled: its citation there is not
    good authority. Where the reliance claim is contradicted, a citation of the same case
    inside that claim's span is checked ``contradicted`` / ``overruled`` (a citator's red flag:
    the citation is accurate, the authority is not), and the citation's own claim folds into
    the reliance claim (one error, one verdict; the match is kept as its evidence) instead of
    standing beside it as "supported"."""
    relied = [
        c for c in claims
        if c.verdict == "contradicted" and c.predicate == "overruledBy"
        and (c.subject or "").startswith("case:")
    ]  # fmt: skip
    if not relied:
        return claims

    def reliance(cite: str | None, start: int, end: int) -> Claim | None:
        return next(
            (
                r
                for r in relied
                if r.subject == f"case:{cite}" and r.start <= start and end <= r.end
            ),
            None,
        )

    kept: list[Claim] = []
    folded: dict[tuple[int, int], Claim] = {}  # the citation claims' spans: their checks
    for c in claims:
        cite = (c.subject or "").removeprefix("case:")
        r = reliance(cite, c.start, c.end) if c.predicate == "citation" else None
        if r is None or c.verdict != "supported":
            kept.append(c)
            continue
        folded[(c.start, c.end)] = r
        r.evidence.append({"role": "citation_match", "statement": f"{c.text}: {c.reason}"})
    for chk in checks:
        # the check names its case when the case index matched it; a case only the curated
        # graph holds (before the index's first Term) is known by its folded claim's span
        r = reliance((chk.case or {}).get("citation"), chk.start, chk.end) or folded.get(
            (chk.start, chk.end)
        )
        if r is not None and chk.outcome == "verified":
            chk.outcome, chk.reason, chk.score = "contradicted", "overruled", 0.0
            chk.detail = f"{chk.detail}; but relied on as governing law: {r.reason}"
    return kept


_GLOSSES = frozenset({"brandName"})  # naming appositions: how a subject is identified


def _fold_glosses(claims: list[Claim]) -> list[Claim]:
    """A naming apposition ("lorcaserin (Belviq)") inside a sentence whose claim about the same
    drug is contradicted identifies the subject of that error; it is not a second, supported
    statement beside it. It folds into the contradicted claim (kept as ``identified_by``
    evidence), so a wrong sentence is never also reported as partly supported by its own
    naming. Elsewhere the apposition stays a claim of its own (a wrong pairing is
    contradicted)."""
    wrong = [c for c in claims if c.verdict == "contradicted" and c.predicate not in _GLOSSES]

    def host(c: Claim) -> Claim | None:
        if c.verdict != "supported" or c.predicate not in _GLOSSES or not c.subject:
            return None
        return next((w for w in wrong if w.subject == c.subject and _inside(c, w)), None)

    return _fold_into(claims, host, "identified_by") if wrong else claims


def _inside(c: Claim, w: Claim) -> bool:
    return w.start <= c.start and c.end <= w.end


def _fold_into(
    claims: list[Claim], host_of: Callable[[Claim], Claim | None], role: str
) -> list[Claim]:
    """The claims without a host; each claim with one is kept in its host's evidence as
    ``role`` (one error, one verdict)."""
    kept: list[Claim] = []
    for c in claims:
        host = host_of(c)
        if host is None:
            kept.append(c)
        else:
            host.evidence.append({"role": role, "statement": c.reason})
    return kept


_READS_AS_ONE = frozenset({"legal"})  # domains whose supports need a readable sentence


def _demote_garbled(claims: list[Claim], ex: Extracted) -> None:
    """A supported claim read from a sentence that does not read as one statement
    (:func:`auditor.extract.garbled.garbled`) becomes unverifiable: a frame filled from word
    salad asserts nothing."""
    extraction = ex.any
    if extraction is None:
        return
    spans = [(i.sentence.start, i.sentence.end, i.text) for i in extraction.sentences]
    for c in claims:
        if c.verdict != "supported" or c.domain not in _READS_AS_ONE:
            continue
        text = next((t for a, b, t in spans if a <= c.start < b), None)
        if text is not None and garbled(text):
            unverifiable(c, f"the sentence does not read as one statement: {c.reason}")


# where the statement of one value ends: a list separator, a coordinated or contrasting
# clause, a parenthetical, a dash, a table cell or the sentence's end
_VALUE_END = re.compile(
    r"[,;:|()\[\]]|\s[—–-]\s|—|\.(?:\s|$)|\s(?:or|and|but|while|whereas|versus|vs\.?|to|from|then|until)\s|\s+respectively\b",
    re.IGNORECASE,
)


def _value_span(c: Claim, text: str, *, clause: bool = True) -> tuple[int, int] | None:
    """Where the value a supported claim certifies is stated: its quantity, or the date that
    is its object ("signed on October 26, 2001"), with the words that qualify it up to the next
    list item or clause ("**7% CET1**" in "requirements of 7% CET1, 8.5% Tier 1 and 10% total
    capital"); else (``clause``) the clause holding the frame's trigger when it occurs once in
    the span ("expressly overruled *Adkins*" after a citation)."""
    q = c.quantity
    d = c.date if c.date is not None and c.object == c.date.first.isoformat() else None
    for v in (q, d):
        if v is not None and c.start <= v.start < v.end <= c.end:
            m = _VALUE_END.search(text, v.end, c.end)
            stop = m.start() if m else c.end
            return v.start, v.end + len(text[v.end : stop].rstrip(" *_"))
    trigger = c.frame.trigger if c.frame is not None else None
    if not clause or not trigger or q is not None:
        return None
    hits = [
        m.start() for m in re.finditer(rf"\b{re.escape(trigger)}\b", text[c.start : c.end], re.I)
    ]
    if len(hits) != 1:
        return None
    a, b = clause_at(text[c.start : c.end], hits[0])
    said = text[c.start + a : c.start + b]
    lead = len(said) - len(said.lstrip(" *_,;:"))
    return c.start + a + lead, c.start + a + len(said.rstrip(" *_.,;"))


def _scope_supports(claims: list[Claim], text: str) -> None:
    """A supported claim's span is the statement of the value it certifies
    (:func:`_value_span`), not the whole sentence: "supported" vouches for that value only,
    and a wrong value beside it in the same sentence is not shown as covered by it.
    Contradicted and unverifiable claims keep their clause or cell: a conflict can lie in any
    slot of the frame, and the reviewer reads all of it."""
    for c in claims:
        if c.verdict == "supported" and (span := _value_span(c, text)) is not None:
            c.start, c.end = span


def _facts(c: Claim, role: str) -> set[str]:
    return {str(e["fact"]) for e in c.evidence if e.get("role") == role and e.get("fact")}


def _fold_same_fact(claims: list[Claim], text: str) -> list[Claim]:
    """One fact, one verdict per statement: a supported claim whose value has no place of its
    own in the sentence (a direction, "lowered") folds into a contradicted claim of the same
    sentence that conflicts with the very fact it was supported by ("lowered the range by
    25 bp, to 4.50%–4.75%": the December decision is misstated), kept there as evidence."""
    wrong = [c for c in claims if c.verdict == "contradicted" and _facts(c, "conflicts")]

    def host(c: Claim) -> Claim | None:
        if c.verdict != "supported" or _value_span(c, text, clause=False) is not None:
            return None
        used = _facts(c, "supports")
        return next((w for w in wrong if used & _facts(w, "conflicts") and _inside(c, w)), None)

    return _fold_into(claims, host, "consistent_part") if wrong else claims


def score(auditor: Auditor, ex: Extracted, checked: Verified) -> AuditResult:
    """The scores and the result every interface returns (risk annotated when enabled)."""
    s = score_claims(checked.claims, checked.citations)
    primary = ex.requested if ex.requested != "auto" else (ex.domains[0] if ex.domains else "auto")
    result = AuditResult(
        domain=primary,
        as_of=ex.as_of,
        claims=checked.claims,
        citations=checked.citations,
        fer=s["fer"],
        citation_confidence=s["citation_confidence"],
        joint_score=s["joint_score"],
        coverage=s["coverage"],
        counts=s["counts"],
        hallucination_types=s["hallucination_types"],
        kg_version=auditor.kb.kg_version,
        rules_version=auditor.rules.version,
        auditor_version=AUDITOR_VERSION,
        domains=ex.domains or [primary],
    )
    if auditor.risk:
        from auditor.risk import annotate_risk

        annotate_risk(result)
    return result


__all__ = ["TEXT_CHECKS", "Extracted", "Verified", "extract", "score", "verify"]
