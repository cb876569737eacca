"""Turn an audit result into the rows the trail stores, and stored rows back into dicts."""

from __future__ import annotations

import json
import re
import uuid
from collections.abc import Mapping
from dataclasses import dataclass
from datetime import date, datetime
from typing import Any

from auditor.errors import DataError, UsageError
from auditor.types import VERDICTS
from trail.canonical import canonical_json, format_timestamp, sha256_hex
from trail.metadata import answered_at, check_metadata, json_depth, readable_metadata
from trail.models import Audit, Base, TrailEvent

TENANT_RE = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_.-]{0,63}$")
_REQUIRED = (
    "domain",
    "as_of",
    "claims",
    "counts",
    "kg_version",
    "rules_version",
    "auditor_version",
)


@dataclass(frozen=True, slots=True)
class RecordedAudit:
    """What :meth:`Trail.record` returns. ``created`` is False for an idempotent replay."""

    id: str
    seq: int
    hash: str
    created_at: datetime
    created: bool
    request_sha256: str


def check_tenant(tenant: str) -> str:
    if not isinstance(tenant, str) or not TENANT_RE.match(tenant):
        raise UsageError(f"tenant {tenant!r} is invalid: use 1-64 letters, digits, '_', '.' or '-'")
    return tenant


def check_text(text: str, what: str = "text") -> str:
    if not isinstance(text, str):
        raise UsageError(f"{what} must be a string")
    if "\x00" in text:
        raise UsageError(f"{what} contains a NUL character")
    try:
        text.encode("utf-8")
    except UnicodeEncodeError as exc:
        raise UsageError(f"{what} is not valid Unicode (unpaired surrogate)") from exc
    return text


def check_strings(**values: str | None) -> None:
    """``check_text`` for every given value that is not None (names them in the error)."""
    for what, value in values.items():
        if value is not None:
            check_text(value, what)


def canonical_result(result: Any) -> tuple[dict[str, Any], bytes]:
    """``result.to_dict()`` (or a mapping) as plain JSON values, and its sorted-key JSON."""
    raw = result.to_dict() if hasattr(result, "to_dict") else result
    if not isinstance(raw, Mapping):
        raise DataError("the audit result is neither an AuditResult nor a mapping")
    canon = canonical_json(raw, version=1)
    out = json.loads(canon)
    missing = [k for k in _REQUIRED if k not in out]
    if missing:
        raise DataError(f"the audit result lacks the key(s) {', '.join(missing)}")
    return out, canon


def result_dict(result: Any) -> dict[str, Any]:
    """``result.to_dict()`` (or a mapping) as plain JSON values, checked for required keys."""
    return canonical_result(result)[0]


def request_digest(text: str, request: Mapping[str, Any], metadata: Mapping[str, Any]) -> str:
    """Identity of a request, used to tell an idempotent replay from a conflicting reuse
    (hash format 1 always: stored digests of earlier requests must keep matching)."""
    return sha256_hex(
        canonical_json(
            {"text_sha256": sha256_hex(text), "request": request, "metadata": metadata}, version=1
        )
    )


def _score(value: Any, key: str) -> float | None:
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise DataError(f"the audit result's {key!r} is not a number")
    return float(value)


def _str_or_none(value: Any, limit: int | None = None) -> str | None:
    """A string column value; ``limit`` cuts it to the column's length (the untruncated
    value stays in the result JSON; these columns only serve queries)."""
    if value is None:
        return None
    out = value if isinstance(value, str) else canonical_json(value, version=1).decode("utf-8")
    return out[:limit] if limit is not None else out


def _bounded(result: Mapping[str, Any], key: str, limit: int = 128) -> str:
    value = str(result[key])
    if not 0 < len(value) <= limit:
        raise DataError(f"the audit result's {key} must be 1-{limit} characters long")
    return value


def claim_rows(result: Mapping[str, Any]) -> list[dict[str, Any]]:
    rows = []
    for i, c in enumerate(result["claims"]):
        if c.get("verdict") not in VERDICTS:
            raise DataError(
                f"claim {i} has verdict {c.get('verdict')!r}; expected one of {', '.join(VERDICTS)}"
            )
        rows.append(
            {
                "idx": i,
                "text": str(c.get("text") or ""),
                "span_start": int(c.get("start") or 0),
                "span_end": int(c.get("end") or 0),
                "subject": _str_or_none(c.get("subject"), 512),
                "predicate": _str_or_none(c.get("predicate"), 256),
                "object": _str_or_none(c.get("object")),
                "verdict": c["verdict"],
                "hallucination_type": _str_or_none(c.get("hallucination_type"), 64),
                "rule_id": _str_or_none(c.get("rule_id"), 256),
            }
        )
    return rows


def audit_row(
    result: Mapping[str, Any],
    *,
    audit_id: uuid.UUID,
    seq: int,
    tenant: str,
    external_id: str | None,
    source: str,
    requester: str | None,
    created_at: datetime,
    text: str,
    request: dict[str, Any],
    metadata: dict[str, Any],
    request_sha256: str,
) -> dict[str, Any]:
    counts = result.get("counts") or {}
    try:
        as_of = date.fromisoformat(str(result["as_of"]))
    except ValueError as exc:
        raise DataError(f"the audit result's as_of {result['as_of']!r} is not a date") from exc
    return {
        "id": audit_id,
        "seq": seq,
        "tenant_id": tenant,
        "external_id": external_id,
        "source": source,
        "requester": requester,
        "created_at": created_at,
        "answered_at": answered_at(metadata),
        "domain": _bounded(result, "domain", 32),
        "as_of": as_of,
        "text": text,
        "text_sha256": sha256_hex(text),
        "request": request,
        "request_sha256": request_sha256,
        "meta": metadata,
        "result": dict(result),
        **{
            k: _score(result.get(k), k)
            for k in ("fer", "citation_confidence", "joint_score", "coverage")
        },
        "n_supported": int(counts.get("supported", 0)),
        "n_contradicted": int(counts.get("contradicted", 0)),
        "n_unverifiable": int(counts.get("unverifiable", 0)),
        "kg_version": _bounded(result, "kg_version"),
        "rules_version": _bounded(result, "rules_version"),
        "auditor_version": _bounded(result, "auditor_version"),
    }


def column_values(obj: Base) -> dict[str, Any]:
    """The mapped attribute values of an ORM row (attribute names, e.g. ``meta``)."""
    return {attr.key: getattr(obj, attr.key) for attr in obj.__mapper__.column_attrs}


def summary_dict(a: Audit | Any, ev: TrailEvent | Any | None) -> dict[str, Any]:
    """The summary of a stored audit (``a``/``ev``: ORM rows or objects with their fields)."""
    return {
        "id": str(a.id),
        "seq": a.seq,
        "hash": ev.hash if ev else None,
        "tenant": a.tenant_id,
        "external_id": a.external_id,
        "source": a.source,
        "requester": a.requester,
        "created_at": format_timestamp(a.created_at),
        "answered_at": format_timestamp(a.answered_at) if a.answered_at else None,
        "domain": a.domain,
        "as_of": a.as_of.isoformat(),
        "fer": a.fer,
        "citation_confidence": a.citation_confidence,
        "joint_score": a.joint_score,
        "coverage": a.coverage,
        "counts": {
            "supported": a.n_supported,
            "contradicted": a.n_contradicted,
            "unverifiable": a.n_unverifiable,
        },
        "kg_version": a.kg_version,
        "rules_version": a.rules_version,
        "auditor_version": a.auditor_version,
        "metadata": readable_metadata(a.meta),
    }


def full_dict(a: Audit | Any, ev: TrailEvent | Any | None) -> dict[str, Any]:
    return {
        **summary_dict(a, ev),
        "prev_hash": ev.prev_hash if ev else None,
        "record_hash": ev.record_hash if ev else None,
        "text": a.text,
        "text_sha256": a.text_sha256,
        "request": a.request,
        "request_sha256": a.request_sha256,
        "result": a.result,
    }


def parse_audit_id(audit_id: str | uuid.UUID) -> uuid.UUID | None:
    if isinstance(audit_id, uuid.UUID):
        return audit_id
    try:
        return uuid.UUID(str(audit_id))
    except ValueError:
        return None


__all__ = [
    "RecordedAudit",
    "audit_row",
    "canonical_result",
    "check_metadata",
    "check_strings",
    "check_tenant",
    "check_text",
    "claim_rows",
    "column_values",
    "full_dict",
    "json_depth",
    "parse_audit_id",
    "readable_metadata",
    "request_digest",
    "result_dict",
    "summary_dict",
]
