"""The review queue: a tenant's audits with open items, filtered, sorted by risk, paged.

The newest ``SCAN_LIMIT`` audits matching the SQL filters (domain, date range, a claim with
the verdict / rule) are read with their decisions; an audit is queued while at least one of
its items is open (:func:`auditor.trail.reviews.audit_items`). With a ``verdict`` or ``rule``
filter only the open items with that verdict (claim verdict or citation outcome) / rule count.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime
from typing import TYPE_CHECKING, Any

from sqlalchemy import exists, func, or_, select

from auditor.trail.canonical import format_timestamp
from auditor.trail.models import Audit, AuditClaim
from auditor.trail.queries import to_datetime
from auditor.trail.reviews import audit_items, item_state, reviews_of

if TYPE_CHECKING:
    from auditor.trail.store import Trail

SCAN_LIMIT = 5000
PAGE_SIZE = 25


@dataclass(frozen=True, slots=True)
class QueueFilter:
    """What the queue shows; every field optional."""

    domain: str | None = None
    rule: str | None = None
    verdict: str | None = None
    start: str | None = None
    end: str | None = None


@dataclass(slots=True)
class QueueRow:
    id: str
    created_at: str
    domain: str
    risk: float | None
    fer: float | None
    open_items: list[dict[str, Any]] = field(default_factory=list)
    rules: list[str] = field(default_factory=list)
    preview: str = ""


@dataclass(slots=True)
class QueuePage:
    rows: list[QueueRow]
    total: int
    page: int
    pages: int
    scanned: int
    truncated: bool


def _matches(it: dict[str, Any], claim: dict[str, Any] | None, f: QueueFilter) -> bool:
    if f.verdict and it["verdict"] != f.verdict:
        return False
    return not f.rule or (claim is not None and claim.get("rule_id") == f.rule)


def open_items(
    result: dict[str, Any],
    reviews: list[dict[str, Any]],
    *,
    risk_threshold: float,
    flt: QueueFilter | None = None,
) -> list[dict[str, Any]]:
    """The open items of one audit (matching ``flt``), in item order."""
    flt = flt or QueueFilter()
    claims = result.get("claims") or []
    needing = [it for it in audit_items(result, risk_threshold=risk_threshold) if it.needs_review]
    if not needing:  # the common case of the queue's scan: no per-item state to build
        return []
    state = item_state(needing, reviews)
    out = []
    for st in state.values():
        if st["status"] != "open":
            continue
        claim = claims[st["idx"]] if st["kind"] == "claim" else None
        if _matches(st, claim, flt):
            out.append(st)
    return out


def review_queue(
    trail: Trail,
    *,
    tenant: str,
    risk_threshold: float,
    flt: QueueFilter | None = None,
    page: int = 1,
    page_size: int = PAGE_SIZE,
) -> QueuePage:
    """One page of the queue of ``tenant`` (riskiest first, then newest)."""
    flt = flt or QueueFilter()
    preview = func.substr(Audit.text, 1, 161).label("preview")
    stmt = select(Audit.id, Audit.created_at, Audit.domain, Audit.result, Audit.fer, preview)
    stmt = stmt.where(Audit.tenant_id == tenant)
    if flt.domain:
        stmt = stmt.where(Audit.domain == flt.domain)
    if flt.start:
        stmt = stmt.where(Audit.created_at >= to_datetime(flt.start))
    if flt.end:
        stmt = stmt.where(Audit.created_at < to_datetime(flt.end, end=True))
    if flt.rule:
        stmt = stmt.where(
            exists().where(AuditClaim.audit_id == Audit.id, AuditClaim.rule_id == flt.rule)
        )
    if flt.verdict in ("supported", "contradicted", "unverifiable"):
        stmt = stmt.where(
            exists().where(AuditClaim.audit_id == Audit.id, AuditClaim.verdict == flt.verdict)
        )
    elif not flt.verdict:
        # an audit with neither a doubtful claim nor a citation has nothing to review
        stmt = stmt.where(
            or_(
                Audit.n_contradicted > 0,
                Audit.n_unverifiable > 0,
                Audit.citation_confidence.isnot(None),
            )
        )
    stmt = stmt.order_by(Audit.seq.desc()).limit(SCAN_LIMIT + 1)
    with trail.session() as s:
        found = s.execute(stmt).all()
    truncated = len(found) > SCAN_LIMIT
    found = found[:SCAN_LIMIT]
    decided = reviews_of(trail, [r.id for r in found], tenant=tenant)
    rows: list[tuple[float, datetime, QueueRow]] = []
    for r in found:
        items = open_items(r.result, decided[r.id], risk_threshold=risk_threshold, flt=flt)
        if not items:
            continue
        claims = r.result.get("claims") or []
        risk = r.result.get("risk")
        rules = sorted(
            {
                str(claims[it["idx"]].get("rule_id"))
                for it in items
                if it["kind"] == "claim" and claims[it["idx"]].get("rule_id")
            }
        )
        row = QueueRow(
            str(r.id),
            format_timestamp(r.created_at),
            r.domain,
            risk if isinstance(risk, (int, float)) else None,
            r.fer,
            items,
            rules,
            r.preview[:160],
        )
        rows.append((row.risk if row.risk is not None else -1.0, r.created_at, row))
    rows.sort(key=lambda t: (t[0], t[1]), reverse=True)
    total = len(rows)
    pages = max(1, -(-total // page_size))
    page = min(max(1, page), pages)
    chosen = [t[2] for t in rows[(page - 1) * page_size : page * page_size]]
    return QueuePage(chosen, total, page, pages, len(found), truncated)


def next_in_queue(
    trail: Trail, *, tenant: str, risk_threshold: float, after: str | None = None
) -> str | None:
    """The riskiest queued audit other than ``after``, or None when the queue is empty."""
    q = review_queue(trail, tenant=tenant, risk_threshold=risk_threshold, page_size=2)
    for row in q.rows:
        if row.id != after:
            return row.id
    return None


__all__ = [
    "PAGE_SIZE",
    "SCAN_LIMIT",
    "QueueFilter",
    "QueuePage",
    "QueueRow",
    "next_in_queue",
    "open_items",
    "review_queue",
]
