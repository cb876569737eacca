"""The rule-pack schema (pydantic). A pack is data: the auditor interprets it.

A rule says which claims it applies to (subject entity types, relation, the kind of object
the claim carries), the words that signal such a claim in a sentence (``cues``), how the
claim is checked (``check``), what hallucination type a failure is reported as, the
regulation / label section / statute it encodes (``citation``), and examples that must and
must not fire. The models below are the field reference; ``kgaudit rules validate``
checks a pack against them.
"""

from __future__ import annotations

import re
from typing import Literal, get_args

from pydantic import BaseModel, ConfigDict, Field, field_validator, model_validator

Severity = Literal["critical", "high", "medium", "low"]
ObjectKind = Literal[
    "quantity", "entity", "date", "literal", "identifier", "citation", "status", "frequency", "none"
]
CheckType = Literal[
    "kg_quantity",
    "kg_dose",
    "kg_policy_rate",
    "kg_rate_effective",
    "kg_requirement",
    "kg_threshold",
    "kg_relation",
    "kg_date",
    "kg_literal",
    "kg_frequency",
    "kg_washout",
    "kg_schedule",
    "kg_rx_status",
    "kg_status",
    "identifier_checksum",
    "citation_validity",
    "brand_generic",
]
HallucinationType = Literal[
    "numeric_error",
    "unit_error",
    "wrong_entity",
    "wrong_date",
    "fabricated_citation",
    "impossible_citation",
    "outdated_fact",
    "negation_flip",
    "wrong_relation",
    "invalid_identifier",
    "unsupported_claim",
]
HALLUCINATION_TYPES: tuple[str, ...] = get_args(HallucinationType)


class Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class Citation(Strict):
    """What the rule encodes: regulation, label section or statute, with a URL to read it."""

    text: str = Field(min_length=5)
    url: str = Field(pattern=r"^https?://")


class AppliesTo(Strict):
    subject_types: list[str] = Field(default_factory=list)
    relation: str | None = None
    object: ObjectKind = "none"
    object_types: list[str] = Field(default_factory=list)
    dimensions: list[str] = Field(default_factory=list)
    units: list[str] = Field(default_factory=list)
    ignore_values_near: list[str] = Field(
        default_factory=list,
        description="Regexes: a value with one of these within a few words is about something "
        "else (e.g. 'inflation' next to a percentage in a policy-rate sentence).",
    )


class Tolerance(Strict):
    relative: float = Field(default=0.0, ge=0.0, le=1.0)
    absolute: float = Field(default=0.0, ge=0.0)


class Check(Strict):
    type: CheckType
    comparator: Literal["eq", "le", "ge", "within", "exists"] = "eq"
    tolerance: Tolerance = Tolerance()
    date_role: list[str] = Field(default_factory=list)
    negation: Literal["grammar", "absence_cues"] = "grammar"


class Examples(Strict):
    fires: list[str] = Field(min_length=1)
    passes: list[str] = Field(min_length=1)
    as_of: str | None = None


class Rule(Strict):
    id: str = Field(pattern=r"^[A-Z]{2,5}(-[A-Z0-9]+)+$")
    title: str = Field(min_length=5)
    severity: Severity
    citation: Citation
    applies_to: AppliesTo
    cues: list[str] = Field(default_factory=list)
    negative_cues: list[str] = Field(default_factory=list)
    qualifiers: dict[str, dict[str, list[str]]] = Field(default_factory=dict)
    check: Check
    hallucination_type: HallucinationType
    description: str | None = None
    examples: Examples

    @model_validator(mode="after")
    def _subjects_needed(self) -> Rule:
        if not self.applies_to.subject_types and self.check.type not in {"identifier_checksum"}:
            raise ValueError("applies_to.subject_types must name at least one entity type")
        return self

    @field_validator("cues", "negative_cues")
    @classmethod
    def _compile(cls, value: list[str]) -> list[str]:
        for cue in value:
            try:
                re.compile(cue)
            except re.error as exc:
                raise ValueError(f"cue {cue!r} is not a valid regular expression: {exc}") from exc
        return value


class RulePack(Strict):
    pack: str = Field(pattern=r"^[a-z][a-z0-9_-]*$")
    domain: Literal["finance", "medical", "legal"]
    version: str = Field(pattern=r"^\d+\.\d+\.\d+$")
    description: str
    rules: list[Rule] = Field(min_length=1)

    @model_validator(mode="after")
    def _unique_ids(self) -> RulePack:
        seen: set[str] = set()
        for r in self.rules:
            if r.id in seen:
                raise ValueError(f"duplicate rule id {r.id}")
            seen.add(r.id)
        return self
