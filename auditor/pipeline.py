"""The auditor: extract → verify → score, over one knowledge base and one rule set.

An :class:`Auditor` is built once (graphs, rule packs, linkers, indexes) and then audits
any number of texts; ``auditor.audit`` uses a process-wide one built from the settings.
"""

from __future__ import annotations

import gc
import threading
from collections import Counter
from datetime import date
from functools import cached_property
from pathlib import Path
from typing import TYPE_CHECKING

from auditor import stages, telemetry
from auditor.errors import UsageError
from auditor.extract import Extraction
from auditor.extract.citations import find_citations
from auditor.extract.fuzzy import DomainLinker, FuzzyLinker
from auditor.extract.identifiers import find_identifiers
from auditor.extract.linker import Linker
from auditor.types import AuditResult, CitationCheck, CitationRef, Claim
from auditor.verify.citation_checks import CitationChecks
from auditor.verify.citations import LegalIndex
from knowledge_graphs.store import KnowledgeBase
from rules.loader import RuleSet
from rules.schema import Rule

if TYPE_CHECKING:
    from auditor.verify.legal.courtlistener import CourtListener

DOMAIN_CHOICES = stages.DOMAIN_CHOICES
MAX_CALLER_CITATIONS = 200


class Auditor:
    """Audits texts against ``kb`` with ``rules``; thread-safe after construction."""

    def __init__(
        self,
        kb: KnowledgeBase,
        rules: RuleSet,
        *,
        max_text_chars: int = 200_000,
        cache_dir: Path | None = None,
        fuzzy: bool = True,
        risk: bool = True,
    ) -> None:
        self.kb = kb
        self.rules = rules
        self.max_text_chars = max_text_chars
        self.cache_dir = cache_dir
        self.rules_by_id: dict[str, Rule] = {r.id: r for p in rules.packs for r in p.rules}
        self._linker: Linker | None = None
        self._lock = threading.Lock()
        self.fallback_linker = None  # an extra linker hook (see extract_claims)
        self.fuzzy_linker = FuzzyLinker(kb, cache_dir=cache_dir) if fuzzy else None
        self.risk = risk
        self.online_citations: CourtListener | None = None  # optional online citation check

    # -- cached resources ----------------------------------------------------------------

    def linker(self) -> Linker:
        """The entity linker (one automaton for every domain), built on first use."""
        with self._lock:
            if self._linker is None:
                self._linker = Linker.cached(self.kb, self.cache_dir)
            return self._linker

    @cached_property
    def legal_index(self) -> LegalIndex:
        return LegalIndex.build(self.kb)

    def warm_up(self) -> None:
        """Build every lazily-built structure now (servers call this before serving)."""
        self.linker()
        from auditor.verify.legal.scotus import party_word_index

        party_word_index(self.legal_index.scotus)  # the name index of every Supreme Court case
        if self.fuzzy_linker is not None:
            self.fuzzy_linker.index()
        self.audit(
            "Warm-up: the maximum is 1 mg of aspirin a day; 347 U.S. 483 (1954); Smith v. Jones, "
            "925 F.3d 1339 (11th Cir. 2019); ISIN US0378331005; the Fed cut rates to 4%.",
            domain="auto",
        )
        from auditor.extract.citations import warm_reporters

        warm_reporters()
        # the graphs are hundreds of thousands of long-lived objects: keep them out of the
        # cyclic collector's full passes, which otherwise pause a random audit for ~0.1 s
        gc.collect()
        gc.freeze()

    # -- the audit -----------------------------------------------------------------------

    def audit(
        self,
        text: str,
        *,
        domain: str,
        as_of: str | date | None = None,
        citations: list[str] | None = None,
    ) -> AuditResult:
        """extract → verify → score (:mod:`auditor.stages`), one span each
        (:mod:`auditor.telemetry`)."""
        with telemetry.span(
            "kgaudit.audit",
            **{
                telemetry.SPAN_KIND: "EVALUATOR",
                telemetry.INPUT_VALUE: telemetry.input_text(text),
                "kgaudit.domain": domain,
            },
        ) as sp:
            with telemetry.span("kgaudit.extract", **{telemetry.SPAN_KIND: "CHAIN"}) as sx:
                ex = stages.extract(
                    self, text, domain=domain, as_of=stages.parse_as_of(as_of), citations=citations
                )
                telemetry.set_attributes(sx, {"kgaudit.domains": ex.domains})
            with telemetry.span("kgaudit.verify", **{telemetry.SPAN_KIND: "CHAIN"}) as sv:
                checked = stages.verify(self, ex)
                telemetry.set_attributes(
                    sv,
                    {
                        "kgaudit.claims": len(checked.claims),
                        "kgaudit.citations": len(checked.citations),
                    },
                )
            with telemetry.span("kgaudit.score", **{telemetry.SPAN_KIND: "CHAIN"}):
                result = stages.score(self, ex, checked)
            if sp.is_recording():
                telemetry.set_attributes(sp, telemetry.result_attributes(result))
            return result

    def linker_for(self, domain: str) -> Linker | DomainLinker:
        """The exact linker, with the fuzzy fallback for ``domain`` when enabled."""
        if self.fuzzy_linker is None:
            return self.linker()
        return self.fuzzy_linker.bind(self.linker(), domain, self.rules.for_domain(domain))

    def check_text(self, text: object) -> str:
        if isinstance(text, bytes | bytearray):
            try:
                text = bytes(text).decode("utf-8")
            except UnicodeDecodeError:
                raise UsageError("the text is not valid UTF-8") from None
        if not isinstance(text, str):
            raise UsageError(f"text must be a string, not {type(text).__name__}")
        if len(text) > self.max_text_chars:
            raise UsageError(
                f"the text has {len(text):,} characters; the limit is "
                f"{self.max_text_chars:,} (setting KGAUDIT_MAX_TEXT_CHARS)"
            )
        return text.replace("\x00", " ")

    @staticmethod
    def check_citations(citations: list[str] | None) -> list[str]:
        if citations is None:
            return []
        if isinstance(citations, str) or not all(isinstance(c, str) for c in citations):
            raise UsageError("citations must be a list of strings")
        if len(citations) > MAX_CALLER_CITATIONS:
            raise UsageError(f"at most {MAX_CALLER_CITATIONS} citations can be checked per audit")
        return [c for c in citations if c.strip()]

    def pick_domains(self, text: str) -> list[str]:
        mentions = self.linker().link(text)
        votes: Counter[str] = Counter()
        for m in mentions:
            ent = self.kb.entity(m.candidates[0])
            if ent is not None:
                votes[ent.domain] += 1
        if any(c.kind in {"case", "statute"} for c in find_citations(text)):
            votes["legal"] += 2
        if find_identifiers(text):
            votes["finance"] += 1
        return [d for d, _ in sorted(votes.items(), key=lambda kv: (-kv[1], kv[0]))]

    # -- citations (auditor.verify.citation_checks) --------------------------------------

    def citation_checks(self) -> CitationChecks:
        """The citation and identifier checks over this auditor's graph, index and rules."""
        return CitationChecks(self.kb, self.legal_index, self.rules_by_id, self.online_citations)

    def check_citations_in(
        self, ex: Extraction, caller: list[str], day: date, domains: list[str]
    ) -> tuple[list[Claim], list[CitationCheck]]:
        return self.citation_checks().check(ex, caller, day, domains)

    def case_name_ok(self, name: str, cid: str) -> bool:
        """Whether the full case name ``name`` can denote the curated case ``cid``."""
        return self.citation_checks().case_name_ok(name, cid)

    def resolve_case(self, ref: CitationRef) -> str | None:
        """The curated case at this citation, unless the citation names another case."""
        return self.citation_checks().resolve_case(ref)

    @staticmethod
    def sync_regulation_checks(claims: list[Claim], checks: list[CitationCheck]) -> None:
        """A regulation identifier contradicted by its claim counts as a wrong citation."""
        CitationChecks.sync_regulation_checks(claims, checks)


_DEFAULT: Auditor | None = None
_DEFAULT_LOCK = threading.Lock()


def default_auditor() -> Auditor:
    """The process-wide auditor built from :func:`auditor.settings.get_settings`."""
    global _DEFAULT
    with _DEFAULT_LOCK:
        if _DEFAULT is None:
            from auditor.settings import get_settings
            from knowledge_graphs import load_graphs
            from rules.loader import load_rules

            s = get_settings()
            kb = load_graphs(cache_dir=s.kg_cache_dir, extra_sources=s.graphs)
            _DEFAULT = Auditor(
                kb,
                load_rules(s.rule_packs),
                max_text_chars=s.max_text_chars,
                cache_dir=s.kg_cache_dir,
            )
            if s.courtlistener_token is not None:  # opt-in online citation lookups
                from auditor.verify.legal.courtlistener import CourtListener

                _DEFAULT.online_citations = CourtListener(
                    s.courtlistener_token.get_secret_value(), s.courtlistener_url, s.db_url
                )
        return _DEFAULT
