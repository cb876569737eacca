"""Typed records passed between the auditor's stages, all carrying character spans.

``extract_claims`` produces :class:`Claim` objects (verdict not yet set), ``verify_claims``
fills ``verdict``/``evidence``/``reason``/``hallucination_type``, ``score`` turns them into
an :class:`AuditResult`. ``AuditResult.to_dict()`` is the public JSON contract (DESIGN.md).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import date
from typing import Any, Literal, get_args

Verdict = Literal["supported", "contradicted", "unverifiable"]
VERDICTS: tuple[str, ...] = get_args(Verdict)


@dataclass(frozen=True, slots=True)
class Mention:
    """A linked entity mention: the surface text and every entity it may denote."""

    start: int
    end: int
    text: str
    candidates: tuple[str, ...]  # entity ids, best first
    types: tuple[str, ...]  # entity type of each candidate
    fuzzy_score: float | None = None  # set when linked by the fuzzy fallback

    def of_type(self, types: set[str] | frozenset[str]) -> str | None:
        for cid, t in zip(self.candidates, self.types, strict=True):
            if t in types:
                return cid
        return None


@dataclass(frozen=True, slots=True)
class Quantity:
    """A number with a unit (normalised through pint), possibly a range, possibly per period."""

    start: int
    end: int
    text: str
    value: float
    value_max: float | None
    unit: str | None  # canonical unit code: mg, percent, bp, USD, EUR, IU, tablet, ...
    dimension: str | None  # mass, percent, currency, count, volume, ...
    per: str | None = None  # day | week | hour | 15 min | dose ...


@dataclass(frozen=True, slots=True)
class DateRef:
    """A date or period in the text: a day, a month, a year, or "now"."""

    start: int
    end: int
    text: str
    first: date  # first day covered
    last: date  # last day covered
    precision: Literal["day", "month", "year", "now"]
    role: Literal["point", "since", "until", "by", "after", "current"] = "point"


@dataclass(frozen=True, slots=True)
class CitationRef:
    """A legal citation (case or statute) or a regulation/financial identifier."""

    start: int
    end: int
    text: str
    kind: Literal["case", "statute", "regulation", "identifier"]
    volume: int | None = None
    reporter: str | None = None
    page: int | None = None
    year: int | None = None
    court: str | None = None
    case_name: str | None = None
    name_span: tuple[int, int] | None = None
    title: str | None = None
    section: str | None = None
    scheme: str | None = None  # identifier scheme: isin, lei, iban, bic, cusip
    caller_supplied: bool = False
    short_form: bool = False  # "Roe, 410 U.S. at 153": ``page`` is a pinpoint, not the first page
    form: str = (
        "full"  # full | short | parallel (of the citation before it) | id | supra | slip | garbled
    )
    # a bare name written right before a full citation that has no "A v. B" name ("in Roe,
    # 505 U.S. 833", "Roe (505 U.S. 833)"): compared with the case, but a mismatch alone
    # leaves the citation unverified (it may not be a case name at all)
    written_name: str | None = None


@dataclass(slots=True)
class Frame:
    """What the extractor saw for one claim: the trigger that expresses the predicate, the
    role of the value, the qualifier slots it resolved, and what is missing.

    The verifier gives a verdict other than ``unverifiable`` only to an asserted frame with
    nothing missing (``blocked()`` is None)."""

    family: str  # max_dose | policy_rate | capital_requirement | reporting_threshold | ...
    role: str | None = None  # maximum | start | usual | titration | own_figure | ...
    trigger: str | None = None  # the words that expressed the predicate ("up to", "Maximum")
    slots: dict[str, str] = field(default_factory=dict)  # resolved qualifiers
    missing: tuple[str, ...] = ()  # why a verdict is impossible ("the period per dose or day")
    not_asserted: str | None = None  # "a question, not an assertion", ...

    def blocked(self) -> str | None:
        """The reason no verdict can be given, or None when the frame is complete."""
        if self.not_asserted:
            return self.not_asserted
        if self.missing:
            return "; ".join(self.missing)
        return None

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {"family": self.family, "role": self.role, "trigger": self.trigger}
        out["slots"] = dict(sorted(self.slots.items()))
        if self.missing:
            out["missing"] = list(self.missing)
        if self.not_asserted:
            out["not_asserted"] = self.not_asserted
        return out


@dataclass(slots=True)
class Claim:
    """One checkable statement: ``subject predicate object`` with qualifiers and a span."""

    text: str
    start: int
    end: int
    domain: str
    rule_id: str | None
    subject: str | None
    subject_label: str | None
    predicate: str
    object: str | None
    object_label: str | None = None
    quantity: Quantity | None = None
    date: DateRef | None = None
    citation: CitationRef | None = None
    qualifiers: dict[str, str] = field(default_factory=dict)
    negated: bool = False
    severity: str | None = None
    fuzzy_score: float | None = None
    verdict: Verdict = "unverifiable"
    reason: str | None = None
    evidence: list[dict[str, Any]] = field(default_factory=list)
    hallucination_type: str | None = None
    citation_outcome: str | None = None
    frame: Frame | None = None

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "text": self.text,
            "start": self.start,
            "end": self.end,
            "subject": self.subject,
            "subject_label": self.subject_label,
            "predicate": self.predicate,
            "object": self.object,
            "object_label": self.object_label,
            "qualifiers": dict(sorted(self.qualifiers.items())),
            "negated": self.negated,
            "verdict": self.verdict,
            "reason": self.reason,
            "evidence": self.evidence,
            "rule_id": self.rule_id,
            "severity": self.severity,
            "hallucination_type": self.hallucination_type,
        }
        if self.citation_outcome is not None:
            out["citation_outcome"] = self.citation_outcome
        if self.fuzzy_score is not None:
            out["fuzzy_link_score"] = round(self.fuzzy_score, 4)
        if self.frame is not None:
            out["frame"] = self.frame.to_dict()
        return out


@dataclass(slots=True)
class CitationCheck:
    """The outcome of checking one citation or identifier (feeds citation confidence).

    ``outcome`` is ``verified``, ``contradicted`` or ``unverified`` (could not be checked —
    never "fabricated"); ``reason`` is a short code saying why (see
    :mod:`auditor.verify.citations`). ``resolved_to`` is the text of the citation a short
    form, Id., supra or parallel citation was resolved to: such a check shares that
    citation's verdict and is not counted again in citation confidence.
    """

    text: str
    start: int
    end: int
    kind: str
    outcome: str  # verified | contradicted | unverified
    score: float
    detail: str
    caller_supplied: bool = False
    reason: str = ""
    resolved_to: str | None = None
    case: dict[str, Any] | None = None  # the case the citation was matched to, with its source

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "text": self.text,
            "start": self.start,
            "end": self.end,
            "kind": self.kind,
            "outcome": self.outcome,
            "reason": self.reason,
            "score": self.score,
            "detail": self.detail,
            "caller_supplied": self.caller_supplied,
        }
        if self.resolved_to is not None:
            out["resolved_to"] = self.resolved_to
        if self.case is not None:
            out["case"] = self.case
        return out


@dataclass(slots=True)
class AuditResult:
    """Everything one audit found; ``to_dict()`` is the public, stable JSON shape."""

    domain: str
    as_of: date
    claims: list[Claim]
    citations: list[CitationCheck]
    fer: float | None
    citation_confidence: float | None
    joint_score: float | None
    coverage: float | None
    counts: dict[str, int]
    hallucination_types: dict[str, int]
    kg_version: str
    rules_version: str
    auditor_version: str
    domains: list[str] = field(default_factory=list)
    extra: dict[str, Any] = field(default_factory=dict)

    @property
    def citation_counts(self) -> dict[str, int]:
        """Citations per outcome: verified / contradicted / unverified (could not be checked)."""
        out = dict.fromkeys(("verified", "contradicted", "unverified"), 0)
        for c in self.citations:
            out[c.outcome] = out.get(c.outcome, 0) + 1
        return out

    @property
    def needs_review(self) -> bool:
        """Something material could not be checked: a citation is unverified."""
        return any(c.outcome == "unverified" for c in self.citations)

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "domain": self.domain,
            "domains": self.domains or [self.domain],
            "as_of": self.as_of.isoformat(),
            "claims": [c.to_dict() for c in self.claims],
            "citations": [c.to_dict() for c in self.citations],
            "citation_counts": self.citation_counts,
            "needs_review": self.needs_review,
            "fer": self.fer,
            "citation_confidence": self.citation_confidence,
            "joint_score": self.joint_score,
            "coverage": self.coverage,
            "counts": dict(self.counts),
            "hallucination_types": dict(sorted(self.hallucination_types.items())),
            "kg_version": self.kg_version,
            "rules_version": self.rules_version,
            "auditor_version": self.auditor_version,
        }
        out.update(self.extra)
        return out

    def to_frame(self) -> Any:
        """A pandas DataFrame with one row per claim: text, span, verdict, rule id, evidence,
        source, quote (:mod:`auditor.claim_table`; needs the ``pandas`` extra)."""
        from auditor.claim_table import claim_rows, to_frame

        return to_frame(claim_rows(self))
