"""The checks that read citations and identifiers in the text itself: every case, statute and
regulation citation of each sentence (and those the caller supplied), and every financial
identifier, into claims and :class:`~auditor.types.CitationCheck` rows.

:class:`CitationChecks` holds what they read — the graph, the legal index, the rules by id and
the optional online client (:mod:`auditor.verify.legal.courtlistener`) — and is built by the
:class:`~auditor.pipeline.Auditor` for each audit.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, replace
from datetime import date
from typing import TYPE_CHECKING

from auditor.deadline import check as check_deadline
from auditor.extract import Extraction
from auditor.extract.citations import find_citations
from auditor.extract.identifiers import find_identifiers
from auditor.types import CitationCheck, CitationRef, Claim, Mention
from auditor.verify.citations import (
    SCORES,
    LegalIndex,
    check_case,
    check_regulation,
    check_statute,
    identifier_claim,
    same_graph_case,
)
from auditor.verify.legal.index import tokens
from auditor.verify.legal.resolve import BACK_REFERENCES, Resolver
from knowledge_graphs.scotus import reporter_key
from knowledge_graphs.store import KnowledgeBase
from rules.schema import Rule

if TYPE_CHECKING:
    from auditor.verify.legal.courtlistener import CourtListener


@dataclass
class CitationChecks:
    """Citation and identifier checks over one graph and rule set."""

    kb: KnowledgeBase
    legal_index: LegalIndex
    rules_by_id: dict[str, Rule]
    online_citations: CourtListener | None = None

    def check(
        self, ex: Extraction, caller: list[str], day: date, domains: list[str]
    ) -> tuple[list[Claim], list[CitationCheck]]:
        claims: list[Claim] = []
        checks: list[CitationCheck] = []
        cite_rule = self.rules_by_id.get("LEG-CITE")
        statute_rule = self.rules_by_id.get("LEG-STATUTE")
        id_rule = self.rules_by_id.get("FIN-ID-CHECK")
        primary = domains[0] if domains else "legal"
        resolver = Resolver(index=self.legal_index.scotus)
        for info in ex.sentences:
            check_deadline()
            spans = sorted((r.start, r.end) for r in info.citations)
            for ref in info.citations:
                self._one_citation(
                    ref,
                    info.text,
                    cite_rule,
                    statute_rule,
                    day,
                    primary,
                    claims,
                    checks,
                    mentions=info.mentions,
                    resolver=resolver,
                    spans=(spans, info.sentence.start),
                )
            for ident in info.identifiers:
                if id_rule is not None:
                    c, chk = identifier_claim(ident, id_rule, primary)
                    claims.append(c)
                    checks.append(chk)
        for raw in caller:
            refs = [_as_caller(r) for r in find_citations(raw) if r.form in {"full", "short"}]
            idents = find_identifiers(raw)
            for ref in refs:
                self._one_citation(
                    ref,
                    raw,
                    cite_rule,
                    statute_rule,
                    day,
                    primary,
                    claims,
                    checks,
                    record_claim=False,
                )
            for ident in idents:
                if id_rule is not None:
                    chk = identifier_claim(ident, id_rule, primary)[1]
                    chk.caller_supplied = True
                    checks.append(chk)
            if not refs and not idents:
                checks.append(self._name_only(raw))
        return claims, checks

    def _one_citation(
        self,
        ref: CitationRef,
        sentence: str,
        cite_rule: Rule | None,
        statute_rule: Rule | None,
        day: date,
        domain: str,
        claims: list[Claim],
        checks: list[CitationCheck],
        *,
        record_claim: bool = True,
        mentions: list[Mention] | None = None,
        resolver: Resolver | None = None,
        spans: tuple[list[tuple[int, int]], int] | None = None,
    ) -> None:
        if ref.kind == "case" and ref.form == "slip":
            return  # a slip-opinion cite has no page: nothing to check
        if ref.kind == "case" and cite_rule is not None:
            if resolver is not None and ref.form in BACK_REFERENCES:
                shared = resolver.shared(ref)
                if shared is not None:  # shares its antecedent's verdict; no second claim
                    checks.append(shared)
                    resolver.add(ref, shared)
                    return
                if ref.form in {"id", "supra"}:
                    return  # "Id." after a statute, or nothing to point at: not a case cite
            hint = self._named_case(ref, mentions)
            c, chk = check_case(
                ref,
                self.kb,
                self.legal_index,
                cite_rule,
                day,
                domain,
                hint,
                online=self.online_citations,
                hint_is_name=hint is not None
                and self._names_alone(ref, mentions, sentence, spans[1] if spans else 0),
            )
            if resolver is not None:
                resolver.add(ref, chk)
        elif ref.kind == "statute" and statute_rule is not None:
            where, offset = spans or (None, 0)
            c, chk = check_statute(ref, sentence, self.kb, self.legal_index, statute_rule, domain,
                                   where, offset)  # fmt: skip
        elif ref.kind == "regulation":
            checks.append(check_regulation(ref, self.kb))
            return
        else:
            return
        if record_claim:
            claims.append(c)
        checks.append(chk)

    def _named_case(self, ref: CitationRef, mentions: list[Mention] | None) -> str | None:
        """The curated case the linker found in the name right before a citation ("Roe v. Wade,
        410 U.S. 113"). A mention of one party inside a fuller name that is another case
        ("Meyer" in "Meyer v. Uber Technologies, Inc., 868 F.3d 66") names nothing."""
        for m in mentions or []:
            if "Case" not in m.types:
                continue
            in_name = (
                ref.name_span is not None
                and m.start < ref.name_span[1]
                and ref.name_span[0] < m.end
            )
            adjacent = 0 <= ref.start - m.end <= 3
            if not (in_name or adjacent):
                continue
            cid = m.of_type({"Case"})
            if cid and ref.case_name and not same_graph_case(ref.case_name, cid, self.kb):
                return None
            return cid
        return None

    @staticmethod
    def _names_alone(
        ref: CitationRef, mentions: list[Mention] | None, sentence: str, offset: int
    ) -> bool:
        """The case mention right before a citation with no parsed name is the whole name
        the text gives it: an exact link (not fuzzy: "Roemer" is not Romer v. Evans), not
        the second side of an unparsed "A v. B" name."""
        if ref.case_name:
            return False
        for m in mentions or []:
            if "Case" in m.types and 0 <= ref.start - m.end <= 3:
                if m.fuzzy_score is not None:
                    return False
                head = sentence[: max(0, m.start - offset)]
                return not re.search(r"\bv(?:s)?\.?\s+[*_]*$", head)
        return False

    def case_name_ok(self, name: str, cid: str) -> bool:
        """Whether the full case name ``name`` can denote the curated case ``cid``."""
        return same_graph_case(name, cid, self.kb)

    def resolve_case(self, ref: CitationRef) -> str | None:
        """The curated case at this citation, unless the citation names another case."""
        cid = self.legal_index.by_cite.get(
            (ref.volume or 0, reporter_key(ref.reporter or ""), ref.page or 0)
        )
        if cid is not None and ref.case_name and not same_graph_case(ref.case_name, cid, self.kb):
            return None
        return cid

    def _name_only(self, raw: str) -> CitationCheck:
        """A caller citation that is just a case name: verified if the graph or SCDB knows it."""
        from auditor.verify.legal.scotus import describe, named_elsewhere

        ix = self.legal_index
        cid = ix.by_name.get(" ".join(tokens(raw)))
        if cid:
            outcome, reason, detail = "verified", "in_graph", f"{raw} is {cid}"
        elif hits := named_elsewhere(raw, ix.scotus, limit=1):
            outcome, reason, detail = "verified", "in_index", f"{raw} is {describe(hits[0])}"
        else:
            outcome, reason = "unverified", "not_in_index"
            detail = "not a parseable citation, and no case of that name is known here"
        return CitationCheck(
            raw, 0, 0, "case_name", outcome, SCORES[outcome], detail, True, reason=reason
        )

    @staticmethod
    def sync_regulation_checks(claims: list[Claim], checks: list[CitationCheck]) -> None:
        """A regulation identifier contradicted by its claim counts as a wrong citation."""
        for c in claims:
            if c.citation is None or c.citation.kind != "regulation":
                continue
            for chk in checks:
                if (
                    chk.start == c.citation.start
                    and chk.end == c.citation.end
                    and not chk.caller_supplied
                ):
                    if c.verdict == "contradicted":
                        chk.outcome, chk.reason = "contradicted", "misattributed"
                        chk.score, chk.detail = 0.0, c.reason or ""
                    elif c.verdict == "supported":
                        chk.outcome, chk.reason, chk.score = "verified", "in_graph", 1.0


def _as_caller(ref: CitationRef) -> CitationRef:
    return replace(ref, caller_supplied=True)
