"""Walk the hash chain and report the first record that does not check out.

Detected: any changed field of an audit, its claims or its event (record/event hash), a
deleted event (sequence gap) or audit, reordered events (hash and link mismatch), an event
inserted in the middle (link mismatch), an audit row that is not in the chain (forged
insert), and a truncated tail (head row). A rewrite of the whole chain with recomputed
hashes is caught by the signed checkpoints (``key``).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from sqlalchemy import exists, select

from auditor.trail.canonical import GENESIS_HASH, event_hash, record_hash
from auditor.trail.models import HEAD_ROW_ID, Audit, AuditClaim, TrailEvent, TrailHead
from auditor.trail.records import column_values

if TYPE_CHECKING:
    from auditor.trail.store import Trail

BATCH = 500
MAX_PROBLEMS = 100


@dataclass(frozen=True, slots=True)
class VerifyReport:
    """``first_broken``: ``{"seq", "audit_id", "code", "reason"}`` of the earliest problem."""

    ok: bool
    checked: int
    head_hash: str | None
    first_broken: dict[str, Any] | None
    problems: list[dict[str, Any]] = field(default_factory=list)

    def to_dict(self) -> dict[str, Any]:
        return {
            "ok": self.ok,
            "checked": self.checked,
            "head_hash": self.head_hash,
            "first_broken": self.first_broken,
            "problems": self.problems,
        }


def _problem(seq: int | None, audit_id: Any, code: str, reason: str) -> dict[str, Any]:
    return {
        "seq": seq,
        "audit_id": str(audit_id) if audit_id is not None else None,
        "code": code,
        "reason": reason,
    }


def _check_event(
    ev: TrailEvent, audit: Audit | None, claims: list[AuditClaim], expected_seq: int, prev_hash: str
) -> list[dict[str, Any]]:
    out = []
    if ev.seq != expected_seq:
        span = f"{expected_seq}" if ev.seq == expected_seq + 1 else f"{expected_seq}-{ev.seq - 1}"
        out.append(
            _problem(
                expected_seq,
                None,
                "missing_event",
                f"event(s) {span} are missing: the chain jumps from seq "
                f"{expected_seq - 1} to {ev.seq}",
            )
        )
    recomputed = event_hash(
        seq=ev.seq,
        kind=ev.kind,
        audit_id=ev.audit_id,
        tenant_id=ev.tenant_id,
        created_at=ev.created_at,
        record_hash=ev.record_hash,
        prev_hash=ev.prev_hash,
    )
    if recomputed != ev.hash:
        out.append(
            _problem(
                ev.seq,
                ev.audit_id,
                "event_altered",
                f"event {ev.seq} (audit {ev.audit_id}) was altered: its hash "
                "does not match its fields",
            )
        )
    elif ev.prev_hash != prev_hash and ev.seq == expected_seq:
        out.append(
            _problem(
                ev.seq,
                ev.audit_id,
                "broken_link",
                f"event {ev.seq} (audit {ev.audit_id}) does not follow event "
                f"{ev.seq - 1}: records were reordered, inserted or replaced",
            )
        )
    if audit is None:
        out.append(
            _problem(
                ev.seq,
                ev.audit_id,
                "missing_audit",
                f"audit {ev.audit_id} of event {ev.seq} is missing",
            )
        )
    elif record_hash(column_values(audit), [column_values(c) for c in claims]) != ev.record_hash:
        out.append(
            _problem(
                ev.seq,
                ev.audit_id,
                "record_altered",
                f"audit {ev.audit_id} (seq {ev.seq}) was altered: the stored "
                "audit or its claims differ from what was hashed",
            )
        )
    return out


def verify_chain(trail: Trail, *, key: bytes | None = None) -> VerifyReport:
    problems: list[dict[str, Any]] = []
    checked, last_seq, last_hash = 0, 0, GENESIS_HASH
    with trail.session(snapshot=True) as s:  # appends may go on meanwhile
        head = s.get(TrailHead, HEAD_ROW_ID)
        complete = False  # stop early once MAX_PROBLEMS are found: the report is long enough
        while len(problems) < MAX_PROBLEMS:
            events = (
                s.execute(
                    select(TrailEvent)
                    .where(TrailEvent.seq > last_seq)
                    .order_by(TrailEvent.seq)
                    .limit(BATCH)
                )
                .scalars()
                .all()
            )
            if not events:
                complete = True
                break
            ids = [e.audit_id for e in events]
            audits = {a.id: a for a in s.execute(select(Audit).where(Audit.id.in_(ids))).scalars()}
            claims: dict[Any, list[AuditClaim]] = {}
            for c in s.execute(select(AuditClaim).where(AuditClaim.audit_id.in_(ids))).scalars():
                claims.setdefault(c.audit_id, []).append(c)
            for ev in events:
                problems += _check_event(
                    ev,
                    audits.get(ev.audit_id),
                    claims.get(ev.audit_id, []),
                    last_seq + 1,
                    last_hash,
                )
                checked, last_seq, last_hash = checked + 1, ev.seq, ev.hash
            s.expunge_all()
        head_hash = None if checked == 0 else last_hash
        if head is None:
            problems.append(_problem(None, None, "missing_head", "the trail_head row is missing"))
        elif complete and (head.seq, head.hash) != (last_seq, head_hash):
            problems.append(
                _problem(
                    min(head.seq, last_seq) + 1,
                    None,
                    "head_mismatch",
                    f"the head row records seq {head.seq} but the chain ends at seq {last_seq}: "
                    "events were deleted or added at the end outside the trail, or the head row "
                    "was altered",
                )
            )
        orphans = s.execute(
            select(Audit.id, Audit.seq)
            .where(~exists().where(TrailEvent.audit_id == Audit.id))
            .order_by(Audit.seq)
            .limit(MAX_PROBLEMS)
        ).all()
        problems += [
            _problem(
                o.seq,
                o.id,
                "not_in_chain",
                f"audit {o.id} (seq {o.seq}) is not in the chain: inserted without an event",
            )
            for o in orphans
        ]
    if key is not None:
        from auditor.trail.checkpoints import check_checkpoint

        for cp in trail.checkpoints():
            reason = check_checkpoint(trail, cp, key)
            if reason is not None:
                problems.append(_problem(cp["seq"], None, "checkpoint_mismatch", reason))
    problems.sort(key=lambda p: (p["seq"] is None, p["seq"] or 0))
    return VerifyReport(
        ok=not problems,
        checked=checked,
        head_hash=head_hash,
        first_broken=problems[0] if problems else None,
        problems=problems,
    )


__all__ = ["VerifyReport", "verify_chain"]
