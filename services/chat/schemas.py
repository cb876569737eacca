"""Request and response models of ``POST /v1/chat/completions`` (OpenAI's chat format).

Unknown OpenAI fields (``user``, ``frequency_penalty``, ``logit_bias``, ...) are accepted and
ignored; fields whose meaning the engine cannot honour are refused (``n`` > 1, a
``response_format`` other than ``text`` / ``json_object``). kgaudit adds ``kg_constraint``,
``domain``, ``radius`` and ``as_of`` to the request and a ``kgaudit`` object (the audit of the
answer and what the constraint allowed) to the response.
"""

from __future__ import annotations

from datetime import date
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field

from auditor.types import Verdict

Role = Literal["system", "developer", "user", "assistant", "tool"]


class ContentPart(BaseModel):
    model_config = ConfigDict(extra="ignore")

    type: Literal["text"]
    text: str = Field(max_length=20_000)


class ChatMessage(BaseModel):
    model_config = ConfigDict(extra="ignore")

    role: Role
    content: str | list[ContentPart] | None = Field(default=None)

    def text(self) -> str:
        if isinstance(self.content, list):
            return "\n".join(p.text for p in self.content)
        return self.content or ""


class ResponseFormat(BaseModel):
    model_config = ConfigDict(extra="ignore")

    type: Literal["text", "json_object"] = "text"


class StreamOptions(BaseModel):
    model_config = ConfigDict(extra="ignore")

    include_usage: bool = False


class ChatRequest(BaseModel):
    model_config = ConfigDict(
        extra="ignore",
        json_schema_extra={
            "examples": [
                {
                    "model": "default",
                    "messages": [
                        {
                            "role": "user",
                            "content": "What is the maximum daily dose of ibuprofen for adults?",
                        }
                    ],
                    "max_tokens": 40,
                    "kg_constraint": True,
                }
            ]
        },
    )

    model: str = Field(default="default", max_length=200, description="Served model: `default`.")
    messages: list[ChatMessage] = Field(min_length=1, max_length=64)
    temperature: float | None = Field(
        default=None, ge=0.0, le=2.0, description="Default 0 (greedy)."
    )
    top_p: float | None = Field(default=None, gt=0.0, le=1.0)
    max_tokens: int | None = Field(default=None, ge=1, le=256)
    max_completion_tokens: int | None = Field(default=None, ge=1, le=256)
    stop: str | list[str] | None = Field(default=None)
    stream: bool = False
    stream_options: StreamOptions | None = None
    response_format: ResponseFormat | None = None
    seed: int | None = Field(default=None, ge=0, le=2**63 - 1)
    n: int = Field(default=1, ge=1, le=1, description="Only one choice is generated.")
    kg_constraint: bool = Field(
        default=True,
        description="Constrain entity and value spans "
        "to the prompt's knowledge-graph neighbourhood.",
    )
    domain: Literal["finance", "medical", "legal", "auto"] = "auto"
    radius: int = Field(
        default=1,
        ge=0,
        le=2,
        description="Neighbourhood radius (hops); giving it selects the neighbourhood "
        "constraint instead of the answer slot.",
    )
    as_of: date | None = Field(default=None, description="Audit the answer at this date.")

    def stops(self) -> list[str]:
        stop = [self.stop] if isinstance(self.stop, str) else list(self.stop or [])
        return [s for s in stop if s][:4]


class AuditedClaim(BaseModel):
    text: str
    verdict: Verdict
    subject: str | None = None
    predicate: str | None = None
    object: Any = None
    rule_id: str | None = None
    hallucination_type: str | None = None


class ConstraintInfo(BaseModel):
    enabled: bool
    config: str | None = Field(
        default=None,
        description="The constraint used: `slot` (the answer slot, the default) or `kg-r1` / "
        "`kg-r2` (the neighbourhood of that radius, when the request gives `radius`).",
    )
    answer_slot: dict[str, Any] | None = Field(
        default=None, description="The answer slot's subjects, predicates and values."
    )
    domains: list[str] = Field(default_factory=list)
    seeds: list[str] = Field(default_factory=list)
    radius: int | None = None
    allowed_entities: int = 0
    allowed_forms: int = 0
    build_ms: float = 0.0


class ChatAudit(BaseModel):
    """The audit of the answer, as recorded in the trail."""

    audit_id: str | None = None
    domain: str
    fer: float | None
    citation_confidence: float | None
    joint_score: float | None = None
    coverage: float | None = None
    counts: dict[str, int]
    claims: list[AuditedClaim]
    constraint: ConstraintInfo
    policy: Literal["annotate", "block", "review"] = Field(
        default="annotate", description="The tenant's gateway policy (docs/gateway.md)."
    )
    status: Literal["delivered", "blocked", "review"] = Field(
        default="delivered",
        description="delivered; blocked (the answer was replaced by a refusal naming the "
        "contradicted claims); review (delivered, and the audit marked for review).",
    )
    upstream: str = Field(
        default="engine", description="Who answered: `engine`, or the upstream's base URL."
    )


class AssistantMessage(BaseModel):
    role: Literal["assistant"] = "assistant"
    content: str


class Choice(BaseModel):
    index: int = 0
    message: AssistantMessage
    finish_reason: Literal["stop", "length"]
    logprobs: None = None


class Usage(BaseModel):
    prompt_tokens: int
    completion_tokens: int
    total_tokens: int


class ChatCompletion(BaseModel):
    id: str
    object: Literal["chat.completion"] = "chat.completion"
    created: int
    model: str
    choices: list[Choice]
    usage: Usage
    kgaudit: ChatAudit


class ModelCard(BaseModel):
    id: str
    object: Literal["model"] = "model"
    created: int = 0
    owned_by: str = "kgaudit"


class ModelList(BaseModel):
    object: Literal["list"] = "list"
    data: list[ModelCard]
