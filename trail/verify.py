"""Walk the hash chain and report the first record that does not check out.

Detected: any changed field of an audit, its claims, a reviewer's decision
(:mod:`trail.reviews`) or its event (record/event hash), a
deleted event (sequence gap) or audit, reordered events (hash and link mismatch), an event
inserted in the middle (link mismatch), an audit row that is not in the chain (forged
insert), a truncated tail (head row), and a Merkle tree or signed tree head that no longer
matches the chain (:mod:`trail.tree_check`). With the checkpoint key: a rewrite of the whole
chain (a signed checkpoint no longer matches), and a deleted stored checkpoint (it is still in
the checkpoint log outside the database).

Two modes. ``full=True`` recomputes every record from the first. ``full=False``
(incremental) starts after the newest valid signed checkpoint: that checkpoint vouches for
the chain up to its ``seq`` (it was signed only after the chain verified), so only the
records after it are recomputed; every checkpoint is still checked against the chain, and the
orphan and head checks still cover the whole table. Without a key there is no trusted
checkpoint and both modes walk everything.

Reasons name sequence numbers only; audit ids are in the ``audit_id`` field, which the API
withholds from other tenants.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from sqlalchemy import exists, select

from trail.canonical import GENESIS_HASH, HASH_VERSIONS, event_hash, record_hash
from trail.models import HEAD_ROW_ID, Audit, AuditClaim, Review, TrailEvent, TrailHead
from trail.records import column_values
from trail.reviews import REVIEW_KIND, review_hash
from trail.tree_check import TreeChecker

if TYPE_CHECKING:
    from trail.core import TrailCore

BATCH = 500
MAX_PROBLEMS = 100
Progress = Callable[[int], None]


@dataclass(frozen=True, slots=True)
class VerifyReport:
    """``first_broken``: ``{"seq", "audit_id", "code", "reason"}`` of the earliest problem;
    ``from_seq``: records after it were recomputed (0: all of them)."""

    ok: bool
    checked: int
    head_hash: str | None
    first_broken: dict[str, Any] | None
    problems: list[dict[str, Any]] = field(default_factory=list)
    from_seq: int = 0
    full: bool = True

    def to_dict(self) -> dict[str, Any]:
        return {
            "ok": self.ok,
            "checked": self.checked,
            "head_hash": self.head_hash,
            "first_broken": self.first_broken,
            "problems": self.problems,
            "from_seq": self.from_seq,
            "full": self.full,
        }


def _problem(seq: int | None, audit_id: Any, code: str, reason: str) -> dict[str, Any]:
    return {
        "seq": seq,
        "audit_id": str(audit_id) if audit_id is not None else None,
        "code": code,
        "reason": reason,
    }


def _check_event(
    ev: TrailEvent,
    audit: Audit | None,
    claims: list[AuditClaim],
    expected_seq: int,
    prev_hash: str,
    review: Review | None = None,
) -> list[dict[str, Any]]:
    out = []
    v = ev.hash_version or 1
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
    recomputed = (
        event_hash(
            seq=ev.seq,
            kind=ev.kind,
            audit_id=ev.audit_id,
            tenant_id=ev.tenant_id,
            created_at=ev.created_at,
            record_hash=ev.record_hash,
            prev_hash=ev.prev_hash,
            version=v,
        )
        if v in HASH_VERSIONS
        else None
    )
    if recomputed != ev.hash:
        out.append(
            _problem(
                ev.seq,
                ev.audit_id,
                "event_altered",
                f"event {ev.seq} was altered: its hash does not match its fields",
            )
        )
    elif ev.prev_hash != prev_hash and ev.seq == expected_seq:
        out.append(
            _problem(
                ev.seq,
                ev.audit_id,
                "broken_link",
                f"event {ev.seq} does not follow event {ev.seq - 1}: records were "
                "reordered, inserted or replaced",
            )
        )
    if ev.kind == REVIEW_KIND:
        out += _check_review(ev, review, recomputed is not None)
    elif audit is None:
        out.append(
            _problem(
                ev.seq, ev.audit_id, "missing_audit", f"the audit of event {ev.seq} is missing"
            )
        )
    elif (
        recomputed is not None
        and record_hash(column_values(audit), [column_values(c) for c in claims], version=v)
        != ev.record_hash
    ):
        out.append(
            _problem(
                ev.seq,
                ev.audit_id,
                "record_altered",
                f"the audit at seq {ev.seq} was altered: the stored audit or its "
                "claims differ from what was hashed",
            )
        )
    return out


def _check_review(ev: TrailEvent, review: Review | None, hashable: bool) -> list[dict[str, Any]]:
    """A review event's decision must exist and hash to the event's ``record_hash``."""
    if review is None:
        return [
            _problem(
                ev.seq,
                ev.audit_id,
                "missing_review",
                f"the review decision of event {ev.seq} is missing",
            )
        ]
    row = column_values(review)
    if hashable and (
        review_hash(row, version=ev.hash_version or 1) != ev.record_hash
        or review.audit_id != ev.audit_id
        or review.tenant_id != ev.tenant_id
    ):
        return [
            _problem(
                ev.seq,
                ev.audit_id,
                "review_altered",
                f"the review decision at seq {ev.seq} was altered: the stored decision "
                "differs from what was hashed",
            )
        ]
    return []


def _checkpoint_problems(
    trail: TrailCore, key: bytes
) -> tuple[list[dict[str, Any]], dict[str, Any] | None]:
    """Problems of the stored and logged checkpoints, and the newest valid one."""
    from trail.checkpoints import chain_problem, signature_problem

    stored = trail.checkpoints()
    logged = trail.checkpoint_log.read() if trail.checkpoint_log is not None else []
    problems = [
        _problem(
            None,
            None,
            "checkpoint_log_malformed",
            f"line {cp['malformed']} of the checkpoint log is not JSON",
        )
        for cp in logged
        if "malformed" in cp
    ]
    logged = [cp for cp in logged if "malformed" not in cp]
    signed = {(cp.get("seq"), cp.get("signature")) for cp in stored}
    for cp in logged:
        if (cp.get("seq"), cp.get("signature")) not in signed:
            problems.append(
                _problem(
                    cp.get("seq"),
                    None,
                    "checkpoint_missing",
                    f"the checkpoint of seq {cp.get('seq')} signed at "
                    f"{cp.get('created_at')} is in the checkpoint log but no "
                    "longer in the database: stored checkpoints were deleted",
                )
            )
    candidates: list[dict[str, Any]] = []
    for cp in [*stored, *logged]:
        reason = signature_problem(cp, key)
        if reason is None:
            candidates.append(cp)
        else:
            problems.append(_problem(cp.get("seq"), None, "checkpoint_mismatch", reason))
    seqs = sorted({int(cp["seq"]) for cp in candidates if int(cp["seq"]) > 0})
    hashes: dict[int, str] = {}
    with trail.session() as s:
        for i in range(0, len(seqs), BATCH):
            rows = s.execute(
                select(TrailEvent.seq, TrailEvent.hash).where(
                    TrailEvent.seq.in_(seqs[i : i + BATCH])
                )
            )
            hashes.update({r.seq: r.hash for r in rows})
    valid, seen = [], set()
    for cp in candidates:
        reason = chain_problem(cp, hashes.get(int(cp["seq"])))
        if reason is None:
            valid.append(cp)
        elif (cp["seq"], cp.get("signature")) not in seen:
            seen.add((cp["seq"], cp.get("signature")))
            problems.append(_problem(int(cp["seq"]), None, "checkpoint_mismatch", reason))
    anchor = max(valid, key=lambda cp: int(cp["seq"]), default=None)
    return problems, anchor


def verify_chain(
    trail: TrailCore,
    *,
    key: bytes | None = None,
    full: bool = True,
    progress: Progress | None = None,
) -> VerifyReport:
    """Check the chain (see the module docstring); ``progress`` gets the records checked so
    far after every batch."""
    problems: list[dict[str, Any]] = []
    anchor = None
    if key is not None:
        problems, anchor = _checkpoint_problems(trail, key)
    start = 0 if full or anchor is None or problems else int(anchor["seq"])
    checked, last_seq = 0, start
    last_hash = GENESIS_HASH if start == 0 else str(anchor["head_hash"])  # type: ignore[index]
    with trail.session(snapshot=True) as s:  # appends may go on meanwhile
        head = s.get(TrailHead, HEAD_ROW_ID)
        trees = TreeChecker(trail, s.connection(), start)
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
            review_seqs = [e.seq for e in events if e.kind == REVIEW_KIND]
            reviews = (
                {
                    r.seq: r
                    for r in s.execute(select(Review).where(Review.seq.in_(review_seqs))).scalars()
                }
                if review_seqs
                else {}
            )
            trees.check(events)
            for ev in events:
                problems += _check_event(
                    ev,
                    audits.get(ev.audit_id),
                    claims.get(ev.audit_id, []),
                    last_seq + 1,
                    last_hash,
                    reviews.get(ev.seq),
                )
                checked, last_seq, last_hash = checked + 1, ev.seq, ev.hash
            s.expunge_all()
            if progress is not None:
                progress(checked)
        head_hash = None if last_seq == 0 else last_hash
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
                f"the audit at seq {o.seq} is not in the chain: inserted without an event",
            )
            for o in orphans
        ]
        forged = s.execute(
            select(Review.seq, Review.audit_id)
            .where(~exists().where(TrailEvent.seq == Review.seq, TrailEvent.kind == REVIEW_KIND))
            .order_by(Review.seq)
            .limit(MAX_PROBLEMS)
        ).all()
        problems += [
            _problem(
                r.seq,
                r.audit_id,
                "review_not_in_chain",
                f"the review decision at seq {r.seq} is not in the chain: inserted without "
                "an event",
            )
            for r in forged
        ]
        tree_problems = trees.finish() if complete else trees.problems
    problems.sort(key=lambda p: (p["seq"] is None, p["seq"] or 0))
    # the tree's problems after the chain's: a broken chain breaks the tree too, and the
    # chain's problem names the cause
    problems += sorted(tree_problems, key=lambda p: (p["seq"] is None, p["seq"] or 0))
    return VerifyReport(
        ok=not problems,
        checked=checked,
        head_hash=head_hash,
        first_broken=problems[0] if problems else None,
        problems=problems,
        from_seq=start,
        full=start == 0,
    )


__all__ = ["VerifyReport", "verify_chain"]
