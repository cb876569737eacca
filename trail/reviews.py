"""Reviewers' decisions on an audit's items, appended to the same hash chain as the audits.

An audit's *items* are its claims (``claim:<idx>``) and citations (``citation:<idx>``). An
item is *open* (it needs a person) when it is a contradicted claim, a citation whose outcome
is not ``verified``, or an unverifiable claim of an answer whose risk is at least the review
threshold. A decision is one of::

    confirm   the machine verdict stands            (closes the item)
    overturn  the machine verdict is wrong; reason required   (closes the item)
    note      a remark; the item stays as it was

Each decision is a ``reviews`` row and the ``review.recorded`` chain event of the same
``seq``, whose ``record_hash`` is :func:`review_hash` of the row's ``REVIEW_FIELDS``; so
``kgaudit trail verify`` detects a rewritten, deleted or forged decision. The newest
confirm/overturn of an item is its state; every decision stays in the trail.

The review queue reads the ``review_items`` table (:func:`item_rows`): the items that may need
a person, with their state, written with each audit and updated with each decision in the same
transaction (:func:`apply_decisions`). It is derived data, in no hash: the hash format is that
of the audits and reviews alone.
"""

from __future__ import annotations

import uuid
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import TYPE_CHECKING, Any

from sqlalchemy import Connection, bindparam, select

from auditor.errors import UsageError
from trail import db, tree
from trail.canonical import (
    GENESIS_HASH,
    HASH_VERSION,
    canonical_json,
    event_hash,
    format_timestamp,
    sha256_hex,
)
from trail.models import HEAD_ROW_ID, Audit, Review, ReviewItem, TrailEvent, TrailHead, table
from trail.records import check_strings, parse_audit_id

if TYPE_CHECKING:
    from trail.core import TrailCore

REVIEW_KIND = "review.recorded"
DECISIONS: tuple[str, ...] = ("confirm", "overturn", "note")
REVIEW_FIELDS: tuple[str, ...] = (
    "seq",
    "audit_id",
    "tenant_id",
    "created_at",
    "reviewer",
    "item",
    "decision",
    "verdict",
    "reason",
)
MAX_REASON_CHARS = 4000
_R, _E, _H = table(Review), table(TrailEvent), table(TrailHead)
_RI = table(ReviewItem)
_SET_STATUS = (
    _RI.update()
    .where(_RI.c.audit_id == bindparam("aid"), _RI.c.item == bindparam("key"))
    .values(status=bindparam("new_status"))
)


def review_hash(row: Mapping[str, Any], *, version: int = HASH_VERSION) -> str:
    """``sha256(canonical({"v", "review": {REVIEW_FIELDS}}))`` of one review row."""
    payload = {"v": version, "review": {f: _plain(row.get(f)) for f in REVIEW_FIELDS}}
    return sha256_hex(canonical_json(payload, version=version))


def _plain(value: Any) -> Any:
    if isinstance(value, datetime):
        return format_timestamp(value)
    if isinstance(value, uuid.UUID):
        return str(value)
    return value


@dataclass(frozen=True, slots=True)
class Item:
    """One reviewable item of an audit: a claim or a citation, with its machine verdict."""

    key: str  # "claim:3", "citation:0"
    kind: str  # "claim" | "citation"
    idx: int
    verdict: str  # the claim's verdict or the citation's outcome
    text: str
    needs_review: bool  # open unless decided


def audit_items(result: Mapping[str, Any], *, risk_threshold: float) -> list[Item]:
    """Every claim and citation of a stored result, each marked whether it needs a person."""
    risk = result.get("risk")
    risky = isinstance(risk, (int, float)) and risk >= risk_threshold
    items = []
    for i, c in enumerate(result.get("claims") or []):
        verdict = str(c.get("verdict", ""))
        needs = verdict == "contradicted" or (verdict == "unverifiable" and risky)
        items.append(Item(f"claim:{i}", "claim", i, verdict, str(c.get("text", "")), needs))
    for i, c in enumerate(result.get("citations") or []):
        outcome = str(c.get("outcome", ""))
        items.append(
            Item(
                f"citation:{i}",
                "citation",
                i,
                outcome,
                str(c.get("text", "")),
                outcome != "verified",
            )
        )
    return items


def item_rows(
    result: Mapping[str, Any],
    *,
    audit_id: uuid.UUID,
    audit_seq: int,
    tenant: str,
    created_at: datetime,
    domain: str,
) -> list[dict[str, Any]]:
    """The ``review_items`` rows of one stored result, all ``open``: its contradicted and
    unverifiable claims (whether an unverifiable one is open depends on the risk threshold,
    so the queue compares ``risk`` when it reads) and its citations not ``verified``."""
    risk = result.get("risk")
    common = {
        "audit_id": audit_id,
        "audit_seq": audit_seq,
        "tenant_id": tenant,
        "created_at": created_at,
        "domain": domain,
        "risk": float(risk) if isinstance(risk, (int, float)) else None,
        "status": "open",
    }
    claims = result.get("claims") or []
    out = []
    for it in audit_items(result, risk_threshold=-float("inf")):
        if not it.needs_review:
            continue
        rule = claims[it.idx].get("rule_id") if it.kind == "claim" else None
        out.append(
            {
                **common,
                "item": it.key,
                "kind": it.kind,
                "verdict": it.verdict[:32],
                "rule_id": None if rule is None else str(rule)[:256],
            }
        )
    return out


def has_item_index(conn: Connection) -> bool:
    """Whether this database has the ``review_items`` table (migration 0008); trails at an
    older revision (the migration tests write them with this code) skip it."""
    return db.has_table(conn, "review_items")


def apply_decisions(conn: Connection, reviews: Sequence[Mapping[str, Any]]) -> None:
    """Set the ``review_items`` state of each item confirmed or overturned in ``reviews``
    (oldest first: the newest decision of an item wins; notes change nothing)."""
    final: dict[tuple[Any, str], str] = {}
    for r in reviews:
        if r["decision"] != "note":
            status = "confirmed" if r["decision"] == "confirm" else "overturned"
            final[(r["audit_id"], r["item"])] = status
    if final:
        conn.execute(
            _SET_STATUS,
            [{"aid": a, "key": k, "new_status": v} for (a, k), v in final.items()],
        )


def item_state(
    items: Sequence[Item], reviews: Iterable[Mapping[str, Any]]
) -> dict[str, dict[str, Any]]:
    """Per item key: ``status`` (open / confirmed / overturned / not_required), the deciding
    review and the notes, from ``reviews`` (oldest first)."""
    out: dict[str, dict[str, Any]] = {
        it.key: {
            "item": it.key,
            "kind": it.kind,
            "idx": it.idx,
            "verdict": it.verdict,
            "status": "open" if it.needs_review else "not_required",
            "decision": None,
            "notes": [],
        }
        for it in items
    }
    for r in reviews:
        st = out.get(r["item"])
        if st is None:
            continue
        if r["decision"] == "note":
            st["notes"].append(r)
        else:
            st["status"] = "confirmed" if r["decision"] == "confirm" else "overturned"
            st["decision"] = r
    return out


def review_summary(
    result: Mapping[str, Any], reviews: Sequence[Mapping[str, Any]], *, risk_threshold: float
) -> dict[str, Any]:
    """The reviewed state of one audit (what ``GET /v1/audits/{id}`` shows as ``review``)."""
    state = item_state(audit_items(result, risk_threshold=risk_threshold), reviews)
    counts = {"open": 0, "confirmed": 0, "overturned": 0}
    for st in state.values():
        if st["status"] in counts:
            counts[st["status"]] += 1
    return {
        "counts": counts,
        "items": [st for st in state.values() if st["status"] != "not_required" or st["notes"]],
        "events": len(reviews),
    }


def review_dict(r: Review) -> dict[str, Any]:
    return {
        "seq": r.seq,
        "audit_id": str(r.audit_id),
        "created_at": format_timestamp(r.created_at),
        "reviewer": r.reviewer,
        "item": r.item,
        "decision": r.decision,
        "verdict": r.verdict,
        "reason": r.reason,
    }


def reviews_of(
    trail: TrailCore, audit_ids: Sequence[uuid.UUID], *, tenant: str
) -> dict[uuid.UUID, list[dict[str, Any]]]:
    """The decisions on each audit (oldest first), of ``tenant`` only."""
    out: dict[uuid.UUID, list[dict[str, Any]]] = {a: [] for a in audit_ids}
    with trail.session() as s:
        for i in range(0, len(audit_ids), 500):
            rows = s.execute(
                select(Review)
                .where(Review.audit_id.in_(audit_ids[i : i + 500]), Review.tenant_id == tenant)
                .order_by(Review.seq)
            ).scalars()
            for r in rows:
                out[r.audit_id].append(review_dict(r))
    return out


@dataclass(frozen=True, slots=True)
class Decision:
    """A decision to append on ``item`` (``claim:<idx>`` / ``citation:<idx>``) of an audit;
    the verdict it confirms or overturns is read from the stored audit."""

    audit_id: str
    item: str
    decision: str
    reason: str | None = None


def check_decision(d: Decision) -> None:
    """Refuse a malformed decision with one sentence (a UsageError)."""
    if d.decision not in DECISIONS:
        raise UsageError(
            f"decision {d.decision!r} is invalid; expected one of {', '.join(DECISIONS)}"
        )
    reason = (d.reason or "").strip()
    if d.decision in ("overturn", "note") and not reason:
        raise UsageError(f"a {d.decision} needs a reason (the text of the {d.decision})")
    if len(reason) > MAX_REASON_CHARS:
        raise UsageError(f"the reason is longer than {MAX_REASON_CHARS} characters")
    check_strings(item=d.item, reason=d.reason)


def append_reviews(
    trail: TrailCore, decisions: Sequence[Decision], *, tenant: str, reviewer: str
) -> list[dict[str, Any]]:
    """Append ``decisions`` (on items of audits of ``tenant``; a UsageError otherwise) as
    review events in one transaction, all or nothing; returns the stored reviews."""
    for d in decisions:
        check_decision(d)
    check_strings(reviewer=reviewer, tenant=tenant)
    if not decisions:
        return []
    ids = {d.audit_id: parse_audit_id(d.audit_id) for d in decisions}
    out: list[dict[str, Any]] = []
    with trail.locked_head() as (conn, head_seq, head_hash):
        results: dict[Any, Any] = dict(
            conn.execute(
                select(Audit.id, Audit.result).where(
                    Audit.id.in_([i for i in ids.values() if i is not None]),
                    Audit.tenant_id == tenant,
                )
            ).all()
        )
        missing = [a for a, i in ids.items() if i not in results]
        if missing:
            raise UsageError(f"no audit {missing[0]!r} in this tenant")
        verdicts = {
            (aid, it.key): it.verdict
            for aid, result in results.items()
            for it in audit_items(result, risk_threshold=1.0)
        }
        seq, prev = head_seq, head_hash or GENESIS_HASH
        rows: list[dict[str, Any]] = []
        events: list[dict[str, Any]] = []
        for d in decisions:
            verdict = verdicts.get((ids[d.audit_id], d.item))
            if verdict is None:
                raise UsageError(f"the audit has no item {d.item!r}")
            seq += 1
            now = datetime.now(UTC)
            row: dict[str, Any] = {
                "seq": seq,
                "audit_id": ids[d.audit_id],
                "tenant_id": tenant,
                "created_at": now,
                "reviewer": reviewer,
                "item": d.item,
                "decision": d.decision,
                "verdict": verdict,
                "reason": (d.reason or "").strip() or None,
            }
            rh = review_hash(row)
            h = event_hash(
                seq=seq,
                kind=REVIEW_KIND,
                audit_id=row["audit_id"],
                tenant_id=tenant,
                created_at=now,
                record_hash=rh,
                prev_hash=prev,
            )
            rows.append(row)
            events.append(
                {
                    "seq": seq,
                    "kind": REVIEW_KIND,
                    "audit_id": row["audit_id"],
                    "tenant_id": tenant,
                    "created_at": now,
                    "record_hash": rh,
                    "prev_hash": prev,
                    "hash": h,
                    "hash_version": HASH_VERSION,
                }
            )
            out.append({**{k: _plain(v) for k, v in row.items() if k != "tenant_id"}, "hash": h})
            prev = h
        conn.execute(_R.insert(), rows)
        conn.execute(_E.insert(), events)
        if has_item_index(conn):
            apply_decisions(conn, rows)
        tree.extend(conn, head_seq, [e["hash"] for e in events])
        conn.execute(
            _H.update()
            .where(_H.c.id == HEAD_ROW_ID)
            .values(seq=seq, hash=prev, updated_at=events[-1]["created_at"])
        )
    if trail.checkpoint_policy is not None:
        trail.maybe_checkpoint()
    return out


__all__ = [
    "DECISIONS",
    "REVIEW_FIELDS",
    "REVIEW_KIND",
    "Decision",
    "Item",
    "append_reviews",
    "apply_decisions",
    "audit_items",
    "check_decision",
    "has_item_index",
    "item_rows",
    "item_state",
    "review_dict",
    "review_hash",
    "review_summary",
    "reviews_of",
]
