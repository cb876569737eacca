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

from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import date
from typing import TYPE_CHECKING

from auditor.errors import UsageError
from auditor.extract import Extraction, extract_claims
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
    from auditor.pipeline import Auditor

DOMAIN_CHOICES = (*DOMAINS, "auto")


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
    """Read ``text`` for every domain it is audited in (``auto``: the domains it names)."""
    day = parse_as_of(as_of)
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

    for chk in checks:
        r = reliance((chk.case or {}).get("citation"), chk.start, chk.end)
        if r is not None and chk.outcome == "verified":
            chk.outcome, chk.reason, chk.score = "contradicted", "overruled", 0.0
            chk.detail = f"{chk.detail}; but relied on as governing law: {r.reason}"
    kept: list[Claim] = []
    for c in claims:
        cite = (c.subject or "").removeprefix("case:")
        r = reliance(cite, c.start, c.end) if c.predicate == "citation" else None
        if r is None or c.verdict != "supported":
            kept.append(c)
            continue
        r.evidence.append({"role": "citation_match", "statement": f"{c.text}: {c.reason}"})
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
    if not wrong:
        return claims
    kept: list[Claim] = []
    for c in claims:
        host = None
        if c.verdict == "supported" and c.predicate in _GLOSSES and c.subject:
            host = next(
                (w for w in wrong
                 if w.subject == c.subject and w.start <= c.start and c.end <= w.end),
                None,
            )  # fmt: skip
        if host is None:
            kept.append(c)
            continue
        host.evidence.append({"role": "identified_by", "statement": c.reason})
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
        citation_confidence=s["citation_confidence"],  # type: ignore[arg-type]
        joint_score=s["joint_score"],
        coverage=s["coverage"],  # type: ignore[arg-type]
        counts=s["counts"],
        hallucination_types=s["hallucination_types"],  # type: ignore[arg-type]
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
