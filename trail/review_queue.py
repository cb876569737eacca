"""The review queue: a tenant's audits with open items, filtered, sorted by risk, paged.

An audit is queued while at least one of its items is open (:func:`trail.reviews.
audit_items`). With a ``verdict`` or ``rule`` filter only the open items with that verdict
(claim verdict or citation outcome) / rule count. The queue is read from the
``review_items`` index (:func:`trail.reviews.item_rows`, kept with each audit and
decision), so filtering, sorting by risk, counting and paging happen in SQL, and only the
page's audits are decoded. ``SCAN_LIMIT`` is kept for callers; nothing is truncated now.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from sqlalchemy import and_, func, or_, select

from trail.canonical import format_timestamp
from trail.models import Audit, ReviewItem
from trail.queries import to_datetime
from trail.records import parse_audit_id
from trail.reviews import audit_items, item_state, reviews_of

if TYPE_CHECKING:
    from trail.core import TrailCore

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


def _queue_where(tenant: str, risk_threshold: float, flt: QueueFilter) -> list[Any]:
    ri = ReviewItem
    cond: list[Any] = [
        ri.tenant_id == tenant,
        ri.status == "open",
        # an unverifiable claim is open only in an answer at or above the risk threshold
        or_(ri.kind != "claim", ri.verdict != "unverifiable", ri.risk >= risk_threshold),
    ]
    if flt.domain:
        cond.append(ri.domain == flt.domain)
    if flt.start:
        cond.append(ri.created_at >= to_datetime(flt.start))
    if flt.end:
        cond.append(ri.created_at < to_datetime(flt.end, end=True))
    if flt.verdict:
        cond.append(ri.verdict == flt.verdict)
    if flt.rule:
        cond.append(ri.kind == "claim")
        cond.append(ri.rule_id == flt.rule)
    return cond


def review_queue(
    trail: TrailCore,
    *,
    tenant: str,
    risk_threshold: float,
    flt: QueueFilter | None = None,
    page: int = 1,
    page_size: int = PAGE_SIZE,
) -> QueuePage:
    """One page of the queue of ``tenant`` (riskiest first, then newest).

    The audits with a matching open item are found, counted, sorted and paged in SQL on the
    ``review_items`` index; only the page's audits are read and decoded.
    """
    flt = flt or QueueFilter()
    cond = _queue_where(tenant, risk_threshold, flt)
    ri = ReviewItem
    total_stmt = select(func.count(func.distinct(ri.audit_id))).where(*cond)
    order_risk = func.coalesce(ri.risk, -1.0)
    page_stmt = (
        select(ri.audit_id)
        .where(*cond)
        .group_by(ri.audit_id, ri.risk, ri.created_at, ri.audit_seq)
        .order_by(order_risk.desc(), ri.created_at.desc(), ri.audit_seq.desc())
    )
    preview = func.substr(Audit.text, 1, 161).label("preview")
    with trail.session() as s:
        total = int(s.execute(total_stmt).scalar_one())
        pages = max(1, -(-total // page_size))
        page = min(max(1, page), pages)
        ids = list(s.execute(page_stmt.limit(page_size).offset((page - 1) * page_size)).scalars())
        found = (
            {
                r.id: r
                for r in s.execute(
                    select(
                        Audit.id, Audit.created_at, Audit.domain, Audit.result, Audit.fer, preview
                    ).where(Audit.id.in_(ids), Audit.tenant_id == tenant)
                ).all()
            }
            if ids
            else {}
        )
    decided = reviews_of(trail, ids, tenant=tenant)
    rows: list[QueueRow] = []
    for aid in ids:
        r = found.get(aid)
        if r is None:
            continue
        items = open_items(r.result, decided[aid], risk_threshold=risk_threshold, flt=flt)
        claims = r.result.get("claims") or []
        risk = r.result.get("risk")
        rules = sorted(
            {
                str(claims[it["idx"]].get("rule_id"))
                for it in items
                if it["kind"] == "claim" and claims[it["idx"]].get("rule_id")
            }
        )
        rows.append(
            QueueRow(
                str(r.id),
                format_timestamp(r.created_at),
                r.domain,
                risk if isinstance(risk, (int, float)) else None,
                r.fer,
                items,
                rules,
                r.preview[:160],
            )
        )
    return QueuePage(rows, total, page, pages, total, False)


def next_in_queue(
    trail: TrailCore,
    *,
    tenant: str,
    risk_threshold: float,
    after: str | None = None,
    backwards: bool = False,
) -> str | None:
    """The queued audit that follows ``after`` in the queue's order (riskiest first, then
    newest), wrapping round to the riskiest; the riskiest when ``after`` is None or has no
    indexed item. Never ``after`` itself; None when no other audit is queued.
    ``backwards``: the one before it instead, wrapping round to the last.

    So "next audit" walks the whole queue, and after an audit's last item is decided it
    goes on from where that audit stood.
    """
    ri = ReviewItem
    cond = _queue_where(tenant, risk_threshold, QueueFilter())
    risk = func.coalesce(ri.risk, -1.0)
    keys = (risk, ri.created_at, ri.audit_seq)
    order = tuple(k.asc() if backwards else k.desc() for k in keys)
    aid = parse_audit_id(after) if after else None
    if aid is not None:
        cond.append(ri.audit_id != aid)
    with trail.session() as s:
        anchor = (
            s.execute(
                select(*keys).where(ri.audit_id == aid, ri.tenant_id == tenant).limit(1)
            ).first()
            if aid is not None
            else None
        )
        found = None
        if anchor is not None:
            found = s.execute(
                select(ri.audit_id)
                .where(*cond, _beyond(keys, tuple(anchor), backwards))
                .order_by(*order)
                .limit(1)
            ).scalar()
        if found is None:
            found = s.execute(select(ri.audit_id).where(*cond).order_by(*order).limit(1)).scalar()
    return str(found) if found is not None else None


def _beyond(keys: tuple[Any, ...], anchor: tuple[Any, ...], backwards: bool) -> Any:
    """Rows after ``anchor`` in descending order of ``keys`` (before it: ``backwards``),
    the lexicographic comparison spelled out (row values are not on every backend)."""
    head, value = keys[0], anchor[0]
    past = head > value if backwards else head < value
    if len(keys) == 1:
        return past
    return or_(past, and_(head == value, _beyond(keys[1:], anchor[1:], backwards)))


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
