"""Filtered, cursor-paginated reads of the trail (used by ``Trail.list_audits``/``iter_audits``)."""

from __future__ import annotations

import base64
import binascii
from collections.abc import Iterator
from datetime import UTC, date, datetime, time, timedelta
from typing import TYPE_CHECKING, Any

from sqlalchemy import Select, exists, func, select
from sqlalchemy.orm import defer

from auditor.errors import UsageError
from auditor.types import VERDICTS
from trail.models import Audit, AuditClaim, TrailEvent
from trail.records import check_strings, full_dict, summary_dict

if TYPE_CHECKING:
    from trail.core import TrailCore

MAX_LIMIT = 500
MAX_SEQ = 2**63 - 1  # the largest BIGINT: a sequence number beyond it cannot exist
_PAGE = 200


def encode_cursor(seq: int) -> str:
    return base64.urlsafe_b64encode(f"seq:{seq}".encode()).decode().rstrip("=")


def decode_cursor(cursor: str) -> int:
    try:
        raw = base64.urlsafe_b64decode(cursor + "=" * (-len(cursor) % 4)).decode()
        kind, _, value = raw.partition(":")
        if kind != "seq" or not value.isdigit() or len(value) > 19 or int(value) > MAX_SEQ:
            raise ValueError(raw)
        return int(value)
    except (ValueError, binascii.Error, UnicodeDecodeError) as exc:
        raise UsageError("cursor is invalid; pass the next_cursor of a previous page") from exc


def to_datetime(value: datetime | date | str | None, *, end: bool = False) -> datetime | None:
    """A UTC datetime bound; a plain date as an ``end`` bound means the end of that day."""
    if value is None:
        return None
    if isinstance(value, str):
        try:
            value = (
                datetime.fromisoformat(value.replace("Z", "+00:00"))
                if "T" in value
                else date.fromisoformat(value)
            )
        except ValueError as exc:
            raise UsageError(f"{value!r} is not an ISO date or timestamp") from exc
    try:
        if not isinstance(value, datetime):
            day = value + timedelta(days=1) if end else value
            return datetime.combine(day, time(), tzinfo=UTC)
        return value.replace(tzinfo=UTC) if value.tzinfo is None else value.astimezone(UTC)
    except OverflowError as exc:  # 9999-12-31 as an end bound, or a UTC year before 1
        raise UsageError(
            f"{value} is out of range: dates must lie between 0001-01-01 and 9999-12-30"
        ) from exc


BY_CHOICES = ("recorded", "answered")


def day_column(by: str) -> Any:
    """What a period filters on: ``recorded`` (when the trail stored the audit) or
    ``answered`` (when the text was said, ``metadata.answered_at``; an audit without one
    counts as answered when it was recorded)."""
    if by == "recorded":
        return Audit.created_at
    if by == "answered":
        return func.coalesce(Audit.answered_at, Audit.created_at)
    raise UsageError(f"by {by!r} is invalid; expected one of {', '.join(BY_CHOICES)}")


def _filtered(
    stmt: Select[*tuple[Any, ...]],
    *,
    tenant: str | None,
    domain: str | None,
    start: Any,
    end: Any,
    fer_min: float | None = None,
    fer_max: float | None = None,
    verdict: str | None = None,
    hallucination_type: str | None = None,
    rule_id: str | None = None,
    by: str = "recorded",
) -> Select[*tuple[Any, ...]]:
    check_strings(
        tenant=tenant, domain=domain, hallucination_type=hallucination_type, rule_id=rule_id
    )
    if tenant is not None:
        stmt = stmt.where(Audit.tenant_id == tenant)
    if domain is not None:
        stmt = stmt.where(Audit.domain == domain)
    lo, hi = to_datetime(start), to_datetime(end, end=True)
    when = day_column(by)
    if lo is not None:
        stmt = stmt.where(when >= lo)
    if hi is not None:
        stmt = stmt.where(when < hi)
    if fer_min is not None:
        stmt = stmt.where(Audit.fer >= fer_min)
    if fer_max is not None:
        stmt = stmt.where(Audit.fer <= fer_max)
    if verdict is not None:
        if verdict not in VERDICTS:
            raise UsageError(
                f"verdict {verdict!r} is invalid; expected one of {', '.join(VERDICTS)}"
            )
        stmt = stmt.where(
            exists().where(AuditClaim.audit_id == Audit.id, AuditClaim.verdict == verdict)
        )
    if hallucination_type is not None:
        stmt = stmt.where(
            exists().where(
                AuditClaim.audit_id == Audit.id, AuditClaim.hallucination_type == hallucination_type
            )
        )
    if rule_id is not None:
        stmt = stmt.where(
            exists().where(AuditClaim.audit_id == Audit.id, AuditClaim.rule_id == rule_id)
        )
    return stmt


def list_audits(
    trail: TrailCore,
    *,
    tenant: str,
    cursor: str | None,
    limit: int,
    include_result: bool,
    **filters: Any,
) -> tuple[list[dict[str, Any]], str | None]:
    if not 1 <= limit <= MAX_LIMIT:
        raise UsageError(f"limit must be between 1 and {MAX_LIMIT}")
    stmt = _filtered(
        select(Audit, TrailEvent).join(TrailEvent, TrailEvent.seq == Audit.seq, isouter=True),
        tenant=tenant,
        **filters,
    )
    if cursor:
        stmt = stmt.where(Audit.seq < decode_cursor(cursor))
    stmt = stmt.order_by(Audit.seq.desc()).limit(limit + 1)
    if not include_result:
        stmt = stmt.options(defer(Audit.result), defer(Audit.text), defer(Audit.request))
    with trail.session() as s:
        rows = s.execute(stmt).all()
        items = [(full_dict if include_result else summary_dict)(a, ev) for a, ev in rows[:limit]]
    next_cursor = encode_cursor(rows[limit - 1][0].seq) if len(rows) > limit else None
    return items, next_cursor


def iter_audits(
    trail: TrailCore,
    *,
    tenant: str | None,
    start: Any,
    end: Any,
    domain: str | None,
    by: str = "recorded",
) -> Iterator[dict[str, Any]]:
    last = 0
    while True:
        stmt = _filtered(
            select(Audit, TrailEvent).join(TrailEvent, TrailEvent.seq == Audit.seq, isouter=True),
            tenant=tenant,
            domain=domain,
            start=start,
            end=end,
            by=by,
        )
        stmt = stmt.where(Audit.seq > last).order_by(Audit.seq).limit(_PAGE)
        with trail.session() as s:
            page = [full_dict(a, ev) for a, ev in s.execute(stmt).all()]
        yield from page
        if len(page) < _PAGE:
            return
        last = page[-1]["seq"]


def count(trail: TrailCore, *, tenant: str | None) -> int:
    stmt = select(func.count()).select_from(Audit)
    if tenant is not None:
        stmt = stmt.where(Audit.tenant_id == tenant)
    with trail.session() as s:
        return int(s.execute(stmt).scalar_one())


__all__ = [
    "BY_CHOICES",
    "MAX_LIMIT",
    "day_column",
    "decode_cursor",
    "encode_cursor",
    "iter_audits",
    "list_audits",
    "to_datetime",
]
