"""Request and response models of the REST API (they make the OpenAPI document)."""

from __future__ import annotations

from datetime import date, datetime
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field

from auditor.types import Verdict

Domain = Literal["finance", "medical", "legal", "auto"]
KgDomain = Literal["finance", "medical", "legal"]
VerdictName = Verdict
Role = Literal["viewer", "reviewer", "auditor", "admin"]

EXAMPLE_TEXT = "Adults should not take more than 4,000 mg of acetaminophen a day."
EXAMPLE_CLAIM: dict[str, Any] = {
    "text": "not take more than 4,000 mg of acetaminophen a day",
    "start": 14,
    "end": 65,
    "subject": "drug:acetaminophen",
    "predicate": "maxDailyDose",
    "object": "4000 mg/day",
    "verdict": "supported",
    "evidence": [{"fact": "med:apap-max-daily", "source": "FDA label"}],
    "rule_id": "medical.max_daily_dose",
    "hallucination_type": None,
}
EXAMPLE_RESULT: dict[str, Any] = {
    "domain": "medical",
    "domains": ["medical"],
    "as_of": "2026-01-15",
    "claims": [EXAMPLE_CLAIM],
    "citations": [],
    "fer": 0.0,
    "citation_confidence": None,
    "joint_score": None,
    "coverage": 1.0,
    "counts": {"supported": 1, "contradicted": 0, "unverifiable": 0},
    "hallucination_types": {},
    "kg_version": "kg-3f2a9c1d0b7e4a55",
    "rules_version": "rules-1.0.0",
    "auditor_version": "kgaudit-auditor/0.1.0",
}
_ID = "0b6f1c2e-8d3a-4f7b-9c1e-2a5d7e9f1b3c"
_HASH = "9f2c4b1e" * 8


class ErrorDetail(BaseModel):
    loc: list[str]
    msg: str
    type: str


class ErrorBody(BaseModel):
    code: str = Field(examples=["not_found"])
    message: str = Field(examples=["no audit with this id"])
    request_id: str | None = Field(examples=["5b1e0c8f3d2a4e6b9a7c1d3e5f7a9b0c"])
    details: list[ErrorDetail] | None = None


class ErrorResponse(BaseModel):
    """The one error shape of every 4xx and 5xx response."""

    error: ErrorBody


class AuditRequest(BaseModel):
    model_config = ConfigDict(
        extra="forbid",
        json_schema_extra={
            "examples": [
                {
                    "text": EXAMPLE_TEXT,
                    "domain": "medical",
                    "as_of": "2026-01-15",
                    "metadata": {"model": "gpt-x", "conversation": "c-42"},
                    "external_id": "c-42/7",
                }
            ]
        },
    )

    text: str = Field(min_length=1, description="The text to audit (e.g. an LLM answer).")
    domain: Domain = Field(description="Graph to audit against; `auto` detects it.")
    as_of: date | None = Field(
        default=None, description="Judge claims at this date (default: today)."
    )
    citations: list[str] | None = Field(
        default=None,
        max_length=200,
        description="Extra citations to check (e.g. the sources an LLM listed).",
    )
    metadata: dict[str, Any] | None = Field(
        default=None, description="Stored with the audit, returned as is (model, prompt id, ...)."
    )
    external_id: str | None = Field(
        default=None,
        min_length=1,
        max_length=256,
        description="Your id for this audit; a repeat with the same "
        "id returns the stored audit (same as Idempotency-Key).",
    )


class Claim(BaseModel):
    model_config = ConfigDict(extra="allow", json_schema_extra={"examples": [EXAMPLE_CLAIM]})

    text: str
    start: int
    end: int
    subject: str | None = None
    predicate: str | None = None
    object: Any = None
    verdict: VerdictName
    evidence: list[Any] = Field(default_factory=list)
    rule_id: str | None = None
    hallucination_type: str | None = None


class AuditResult(BaseModel):
    """Exactly ``AuditResult.to_dict()`` of the auditor (more keys may appear)."""

    model_config = ConfigDict(extra="allow", json_schema_extra={"examples": [EXAMPLE_RESULT]})

    domain: str
    domains: list[str] = Field(default_factory=list)
    as_of: str
    claims: list[Claim]
    citations: list[dict[str, Any]] = Field(
        default_factory=list,
        description="One entry per citation: outcome verified | contradicted (failed) | "
        "unverified (could not be checked, never 'fabricated'), with a reason code.",
    )
    citation_counts: dict[str, int] = Field(
        default_factory=dict,
        description="Citations per outcome: verified, contradicted, unverified.",
    )
    needs_review: bool = Field(
        default=False, description="A citation could not be checked (apart from failing)."
    )
    fer: float | None
    citation_confidence: float | None
    joint_score: float | None
    coverage: float | None
    counts: dict[str, int]
    hallucination_types: dict[str, int] = Field(default_factory=dict)
    kg_version: str
    rules_version: str
    auditor_version: str


class Counts(BaseModel):
    supported: int
    contradicted: int
    unverifiable: int


EXAMPLE_SUMMARY: dict[str, Any] = {
    "id": _ID,
    "seq": 42,
    "hash": _HASH,
    "tenant": "acme",
    "external_id": "c-42/7",
    "source": "api",
    "requester": "key:4f1a2b3c4d5e",
    "created_at": "2026-01-15T09:30:00.000000Z",
    "domain": "medical",
    "as_of": "2026-01-15",
    "fer": 0.0,
    "citation_confidence": None,
    "joint_score": None,
    "coverage": 1.0,
    "counts": {"supported": 1, "contradicted": 0, "unverifiable": 0},
    "kg_version": "kg-3f2a9c1d0b7e4a55",
    "rules_version": "rules-1.0.0",
    "auditor_version": "kgaudit-auditor/0.1.0",
    "metadata": {"model": "gpt-x"},
}


class AuditSummary(BaseModel):
    model_config = ConfigDict(json_schema_extra={"examples": [EXAMPLE_SUMMARY]})

    id: str
    seq: int = Field(description="Position in the tamper-evident chain.")
    hash: str | None = Field(description="Chain hash of this record's event.")
    tenant: str
    external_id: str | None
    source: str
    requester: str | None
    created_at: str
    answered_at: str | None = Field(
        default=None, description="When the text was said: `metadata.answered_at`, in UTC."
    )
    domain: str
    as_of: str
    fer: float | None
    citation_confidence: float | None
    joint_score: float | None
    coverage: float | None
    counts: Counts
    kg_version: str
    rules_version: str
    auditor_version: str
    metadata: dict[str, Any]


class ReviewCounts(BaseModel):
    open: int
    confirmed: int
    overturned: int


class ReviewState(BaseModel):
    """Reviewer decisions on an audit's items (see docs/review.md)."""

    counts: ReviewCounts
    items: list[dict[str, Any]] = Field(
        description="Items that need review or have notes: `item`, `kind`, `idx`, `verdict`, "
        "`status` (open, confirmed, overturned, not_required), `decision`, `notes`."
    )
    events: int = Field(description="Review events of this audit in the trail.")


class AuditRecord(AuditSummary):
    """A stored audit: the request, the full result and its place in the chain."""

    model_config = ConfigDict(
        json_schema_extra={
            "examples": [
                {
                    **EXAMPLE_SUMMARY,
                    "prev_hash": _HASH,
                    "record_hash": _HASH,
                    "text": EXAMPLE_TEXT,
                    "text_sha256": _HASH,
                    "request": {"domain": "medical", "as_of": "2026-01-15", "citations": None},
                    "request_sha256": _HASH,
                    "result": EXAMPLE_RESULT,
                }
            ]
        }
    )

    prev_hash: str | None
    record_hash: str | None
    text: str
    text_sha256: str
    request: dict[str, Any]
    request_sha256: str
    result: AuditResult
    review: ReviewState | None = Field(
        default=None,
        description="The reviewed state (`GET /v1/audits/{id}` only): open / confirmed / "
        "overturned items and each item's deciding review and notes.",
    )


class AuditPage(BaseModel):
    items: list[AuditSummary]
    next_cursor: str | None = Field(
        description="Pass as `cursor` for the next page; null at the end."
    )


class ClaimItem(Claim):
    idx: int = Field(description="Position of the claim in the result.")


class ClaimPage(BaseModel):
    audit_id: str
    items: list[ClaimItem]


class Problem(BaseModel):
    seq: int | None
    audit_id: str | None
    code: str = Field(examples=["record_altered"])
    reason: str


class VerifyReport(BaseModel):
    model_config = ConfigDict(
        json_schema_extra={
            "examples": [
                {
                    "ok": True,
                    "checked": 200,
                    "head_hash": _HASH,
                    "first_broken": None,
                    "problems": [],
                    "from_seq": 1000,
                    "full": False,
                }
            ]
        }
    )

    ok: bool
    checked: int = Field(description="Records recomputed (those after `from_seq`).")
    head_hash: str | None
    first_broken: Problem | None
    problems: list[Problem]
    from_seq: int = Field(
        default=0,
        description="Records up to this seq are vouched for by a "
        "valid signed checkpoint and were not recomputed (0: none).",
    )
    full: bool = Field(default=True, description="Every record was recomputed.")


class Checkpoint(BaseModel):
    model_config = ConfigDict(
        json_schema_extra={
            "examples": [
                {
                    "id": 3,
                    "v": 1,
                    "alg": "HMAC-SHA256",
                    "key_id": "564e7d547cd6ef4d",
                    "seq": 1200,
                    "head_hash": _HASH,
                    "created_at": "2026-01-15T10:00:00.000000Z",
                    "signature": _HASH,
                }
            ]
        }
    )

    id: int | None
    v: int
    alg: str
    key_id: str
    seq: int
    head_hash: str | None
    created_at: str
    signature: str


class Entity(BaseModel):
    model_config = ConfigDict(extra="allow")

    id: str = Field(examples=["drug:acetaminophen"])
    domain: str
    type: str = Field(examples=["Drug"])
    label: str = Field(examples=["acetaminophen"])
    aliases: list[str]


class EntityPage(BaseModel):
    domain: str
    query: str
    items: list[Entity]


class Health(BaseModel):
    status: Literal["ok"]


class Ready(BaseModel):
    status: Literal["ready", "not_ready"]
    checks: dict[str, str] = Field(examples=[{"database": "ok", "schema": "ok"}])


class KeyCreate(BaseModel):
    model_config = ConfigDict(extra="forbid")

    tenant: str = Field(pattern=r"^[A-Za-z0-9][A-Za-z0-9_.-]{0,63}$", examples=["acme"])
    role: Role
    name: str | None = Field(default=None, max_length=256, examples=["ci pipeline"])
    expires_at: datetime | None = Field(
        default=None,
        description="When the key stops working (ISO 8601; without an offset, UTC). "
        "Default: never.",
    )


class KeyInfo(BaseModel):
    id: int
    prefix: str
    tenant: str
    role: Role
    name: str | None
    created_at: str
    revoked_at: str | None
    expires_at: str | None = None


class KeyCreated(KeyInfo):
    key: str = Field(description="The API key. Shown once; only its hash is stored.")


class TenantCreate(BaseModel):
    model_config = ConfigDict(extra="forbid")

    id: str = Field(pattern=r"^[A-Za-z0-9][A-Za-z0-9_.-]{0,63}$", examples=["acme"])
    name: str | None = Field(default=None, max_length=256, examples=["ACME Bank compliance"])


class TenantInfo(BaseModel):
    id: str
    name: str | None
    created_at: str
