"""Export the chain for third-party verification: one JSON line per event, as hashed.

Line shape::

    {"seq", "kind", "audit_id", "tenant_id", "created_at", "record_hash", "prev_hash",
     "hash", "hash_version", "audit": {AUDIT_FIELDS}, "claims": [{CLAIM_FIELDS}, ...]}

and for a reviewer's decision (kind ``review.recorded``) ``"review": {REVIEW_FIELDS}`` instead
of ``audit`` / ``claims``.

Values are those the hashes were computed over (timestamps ``...Z``, dates ISO, ids as
strings). ``docs/trail_verify.py`` recomputes every hash and link from such a file with
nothing but the standard library and an RFC 8785 implementation.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import TYPE_CHECKING, Any

from sqlalchemy import select

from trail.canonical import AUDIT_FIELDS, CLAIM_FIELDS, format_timestamp
from trail.models import Audit, AuditClaim, Review, TrailEvent
from trail.records import column_values
from trail.reviews import REVIEW_FIELDS, REVIEW_KIND

if TYPE_CHECKING:
    from trail.core import TrailCore

_BATCH = 500


def _plain(value: Any) -> Any:
    from datetime import date, datetime
    from uuid import UUID

    if isinstance(value, datetime):
        return format_timestamp(value)
    if isinstance(value, date):
        return value.isoformat()
    if isinstance(value, UUID):
        return str(value)
    return value


def export_trail(trail: TrailCore, out: Path) -> int:
    """Write every event of ``trail`` (oldest first) to ``out``; returns how many."""
    n, last = 0, 0
    with out.open("w", encoding="utf-8") as f, trail.session(snapshot=True) as s:
        while True:
            events = (
                s.execute(
                    select(TrailEvent)
                    .where(TrailEvent.seq > last)
                    .order_by(TrailEvent.seq)
                    .limit(_BATCH)
                )
                .scalars()
                .all()
            )
            if not events:
                return n
            ids = [e.audit_id for e in events]
            audits = {a.id: a for a in s.execute(select(Audit).where(Audit.id.in_(ids))).scalars()}
            claims: dict[Any, list[dict[str, Any]]] = {}
            for c in s.execute(select(AuditClaim).where(AuditClaim.audit_id.in_(ids))).scalars():
                claims.setdefault(c.audit_id, []).append(column_values(c))
            review_seqs = [e.seq for e in events if e.kind == REVIEW_KIND]
            reviews = {
                r.seq: r
                for r in s.execute(select(Review).where(Review.seq.in_(review_seqs))).scalars()
            }
            for ev in events:
                if ev.kind == REVIEW_KIND:  # a reviewer's decision, not an audit
                    line = {k: _plain(v) for k, v in column_values(ev).items()}
                    r = reviews.get(ev.seq)
                    line["review"] = (
                        {k: _plain(getattr(r, k)) for k in REVIEW_FIELDS} if r is not None else None
                    )
                    f.write(json.dumps(line, ensure_ascii=False, allow_nan=False) + "\n")
                    n, last = n + 1, ev.seq
                    continue
                a = audits.get(ev.audit_id)
                row = column_values(a) if a is not None else {}
                line = {k: _plain(v) for k, v in column_values(ev).items()}
                line["audit"] = {k: _plain(row.get(k)) for k in AUDIT_FIELDS} if row else None
                line["claims"] = [
                    {k: _plain(c.get(k)) for k in CLAIM_FIELDS}
                    for c in sorted(claims.get(ev.audit_id, []), key=lambda c: c["idx"])
                ]
                f.write(json.dumps(line, ensure_ascii=False, allow_nan=False) + "\n")
                n, last = n + 1, ev.seq
            s.expunge_all()


__all__ = ["export_trail"]
