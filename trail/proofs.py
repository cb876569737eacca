"""Inclusion and consistency proof documents: built from the database, checked offline.

An inclusion proof's leaf is recomputed from the audit as stored *now* (its record hash from
the audit row and claims, then its event hash): an audit or event edited in the database
yields a leaf the signed root does not contain, so the proof fails. The document format is
in docs/trail.md ("Proofs"); :func:`check_document` needs only the public key.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PublicKey
from sqlalchemy import select

from auditor.errors import UsageError
from trail import merkle, tree
from trail.canonical import HASH_VERSIONS, event_hash, format_timestamp, record_hash
from trail.models import HEAD_ROW_ID, Audit, AuditClaim, TrailEvent, TrailHead
from trail.records import column_values, parse_audit_id
from trail.tree_heads import head_problem, latest_tree_head

if TYPE_CHECKING:
    from trail.core import TrailCore

INCLUSION = "kgaudit.inclusion_proof"
CONSISTENCY = "kgaudit.consistency_proof"
EVENT_FIELDS = ("seq", "kind", "audit_id", "tenant_id", "created_at", "record_hash", "prev_hash")


def _event_now(ev: TrailEvent, audit: Audit | None, claims: list[AuditClaim]) -> dict[str, Any]:
    """The event as the stored rows make it now: record hash and hash recomputed."""
    v = ev.hash_version or 1
    rh = (
        record_hash(column_values(audit), [column_values(c) for c in claims], version=v)
        if audit is not None and v in HASH_VERSIONS
        else ev.record_hash
    )
    fields = {
        "seq": ev.seq,
        "kind": ev.kind,
        "audit_id": str(ev.audit_id),
        "tenant_id": ev.tenant_id,
        "created_at": format_timestamp(ev.created_at),
        "record_hash": rh,
        "prev_hash": ev.prev_hash,
        "hash_version": v,
    }
    return {**fields, "hash": _event_hash(fields)}


def _event_hash(fields: Mapping[str, Any]) -> str:
    from datetime import datetime

    created = datetime.fromisoformat(str(fields["created_at"]).replace("Z", "+00:00"))
    return event_hash(
        seq=int(fields["seq"]),
        kind=str(fields["kind"]),
        audit_id=str(fields["audit_id"]),
        tenant_id=str(fields["tenant_id"]),
        created_at=created,
        record_hash=str(fields["record_hash"]),
        prev_hash=str(fields["prev_hash"]),
        version=int(fields["hash_version"]),
    )


def audit_seq(trail: TrailCore, audit_id: str, *, tenant: str | None) -> int | None:
    """The chain position of ``audit_id`` (of ``tenant``; None: any tenant), or None."""
    aid = parse_audit_id(audit_id)
    if aid is None:
        return None
    stmt = select(TrailEvent.seq).join(Audit, TrailEvent.seq == Audit.seq)
    stmt = stmt.where(Audit.id == aid)
    if tenant is not None:
        stmt = stmt.where(Audit.tenant_id == tenant)
    with trail.session() as s:
        return s.execute(stmt).scalar_one_or_none()


def covering_head(trail: TrailCore, seq: int) -> dict[str, Any] | None:
    """The newest signed tree head, or a new one when it does not reach ``seq`` yet (None
    when it does not and the trail has no signing key)."""
    head = latest_tree_head(trail)
    if head is not None and int(head["tree_size"]) >= seq:
        return head
    return trail.sign_tree_head() if trail.tree_signer is not None else None


def prove_audit(trail: TrailCore, audit_id: str, *, tenant: str | None) -> dict[str, Any] | None:
    """The inclusion proof of an audit under the newest signed tree head (one is signed when
    none covers the audit yet); None when ``tenant`` has no such audit. A UsageError when
    no head covers it and there is no signing key."""
    seq = audit_seq(trail, audit_id, tenant=tenant)
    if seq is None:
        return None
    head = covering_head(trail, seq)
    if head is None:
        raise UsageError(
            "no signed tree head covers this audit yet and there is no tree signing key "
            "('kgaudit trail tree-keygen', or KGAUDIT_TREE_KEY)"
        )
    return inclusion_document(trail, audit_id, tenant=tenant, head=head)


def inclusion_document(
    trail: TrailCore, audit_id: str, *, tenant: str | None, head: Mapping[str, Any]
) -> dict[str, Any] | None:
    """The inclusion proof of ``audit_id`` (of ``tenant``; None: any) under ``head``, or None
    when there is no such audit or ``head`` does not cover it yet."""
    aid = parse_audit_id(audit_id)
    if aid is None:
        return None
    with trail.session(snapshot=True) as s:
        stmt = select(Audit, TrailEvent).join(TrailEvent, TrailEvent.seq == Audit.seq)
        stmt = stmt.where(Audit.id == aid)
        if tenant is not None:
            stmt = stmt.where(Audit.tenant_id == tenant)
        found = s.execute(stmt).first()
        if found is None or found[1].seq > int(head["tree_size"]):
            return None
        audit, ev = found
        claims = list(s.execute(select(AuditClaim).where(AuditClaim.audit_id == aid)).scalars())
        event = _event_now(ev, audit, claims)
        path = tree.inclusion_path(s.connection(), ev.seq - 1, int(head["tree_size"]))
    return {
        "v": 1,
        "type": INCLUSION,
        "leaf_index": event["seq"] - 1,
        "event": event,
        "path": [p.hex() for p in path],
        "tree_head": dict(head),
    }


def prove_consistency(trail: TrailCore, first: int, second: int | None = None) -> dict[str, Any]:
    """The consistency proof from size ``first`` to ``second`` (default: the newest signed
    head's size), with the stored signed heads of both sizes; a UsageError for sizes the
    tree does not have."""
    if second is None:
        head = latest_tree_head(trail)
        if head is None and trail.tree_signer is not None:
            head = trail.sign_tree_head()
        if head is None:
            raise UsageError("there is no signed tree head yet; give 'to' explicitly")
        second = int(head["tree_size"])
    with trail.session() as s:
        size = s.execute(select(TrailHead.seq).where(TrailHead.id == HEAD_ROW_ID)).scalar_one()
    if not 0 <= first <= second <= size:
        raise UsageError(
            f"no consistency proof from {first} to {second}: sizes must satisfy "
            f"0 <= from <= to <= {size} (the tree's size)"
        )
    return consistency_document(
        trail,
        first,
        second,
        latest_tree_head(trail, size=first),
        latest_tree_head(trail, size=second),
    )


def consistency_document(
    trail: TrailCore,
    first: int,
    second: int,
    first_head: Mapping[str, Any] | None,
    second_head: Mapping[str, Any] | None,
) -> dict[str, Any]:
    with trail.session(snapshot=True) as s:
        conn = s.connection()
        proof = tree.consistency_path(conn, first, second)
        roots = tree.root(conn, first).hex(), tree.root(conn, second).hex()
    return {
        "v": 1,
        "type": CONSISTENCY,
        "first": first,
        "second": second,
        "first_root": roots[0],
        "second_root": roots[1],
        "proof": [p.hex() for p in proof],
        "first_head": dict(first_head) if first_head else None,
        "second_head": dict(second_head) if second_head else None,
    }


def _hexes(values: Any, what: str) -> list[bytes]:
    if not isinstance(values, list):
        raise UsageError(f"{what} must be a list of hex strings")
    try:
        out = [bytes.fromhex(v) for v in values]
    except (TypeError, ValueError) as exc:
        raise UsageError(f"{what} must be a list of hex strings") from exc
    if any(len(b) != 32 for b in out):
        raise UsageError(f"every hash in {what} must be 32 bytes")
    return out


def _hex32(value: Any, what: str) -> bytes:
    return _hexes([value], what)[0]


def _check_inclusion(doc: Mapping[str, Any], public: Ed25519PublicKey) -> list[str]:
    head, event = doc.get("tree_head"), doc.get("event")
    if not isinstance(event, dict) or not isinstance(head, dict):
        raise UsageError("an inclusion proof needs 'event' and 'tree_head' objects")
    try:
        index, size = int(doc["leaf_index"]), int(head["tree_size"])
        recomputed = _event_hash(event)
        claimed = _hex32(event["hash"], "event.hash")
    except (KeyError, TypeError, ValueError) as exc:
        raise UsageError(f"the inclusion proof is malformed ({exc.__class__.__name__})") from exc
    path, root = _hexes(doc.get("path"), "path"), _hex32(head.get("root_hash"), "root_hash")
    problems = [p for p in [head_problem(head, public)] if p]
    if recomputed != event["hash"]:
        problems.append("the event's fields do not hash to its 'hash'")
    if int(event["seq"]) != index + 1:
        problems.append(f"leaf_index {index} is not event seq {event['seq']} - 1")
    if not merkle.verify_inclusion(index, size, merkle.leaf_hash(claimed), path, root):
        problems.append(f"the path does not lead from leaf {index} to the root of size {size}")
    return problems


def _check_consistency(
    doc: Mapping[str, Any], public: Ed25519PublicKey, kept: Sequence[Mapping[str, Any]]
) -> list[str]:
    try:
        first, second = int(doc["first"]), int(doc["second"])
        roots = _hex32(doc["first_root"], "first_root"), _hex32(doc["second_root"], "second_root")
    except (KeyError, TypeError, ValueError) as exc:
        raise UsageError(f"the consistency proof is malformed ({exc.__class__.__name__})") from exc
    proof = _hexes(doc.get("proof"), "proof")
    problems = []
    for label, size, root in (("first", first, roots[0]), ("second", second, roots[1])):
        heads = [h for h in [doc.get(f"{label}_head"), *kept] if isinstance(h, dict)]
        heads = [h for h in heads if str(h.get("tree_size")) == str(size)]
        if not heads:
            problems.append(f"no signed tree head of size {size} vouches for the {label} root")
        for h in heads:
            reason = head_problem(h, public)
            if reason:
                problems.append(reason)
            elif h.get("root_hash") != root.hex():
                problems.append(f"the signed head of size {size} has another root")
    if not merkle.verify_consistency(first, second, roots[0], roots[1], proof):
        problems.append(f"the tree of size {second} is not an extension of the one of size {first}")
    return problems


def check_document(
    doc: Any, public: Ed25519PublicKey, kept_heads: Sequence[Mapping[str, Any]] = ()
) -> list[str]:
    """Why ``doc`` (a proof document) does not verify; [] when it does. ``kept_heads``:
    tree heads the verifier kept themselves (they must agree with the proof's roots).
    A malformed document is a UsageError."""
    if not isinstance(doc, dict) or doc.get("v") != 1:
        raise UsageError("not a kgaudit proof document (version 1)")
    if doc.get("type") == INCLUSION:
        return _check_inclusion(doc, public)
    if doc.get("type") == CONSISTENCY:
        return _check_consistency(doc, public, kept_heads)
    raise UsageError(f"unknown proof type {doc.get('type')!r}")


__all__ = [
    "CONSISTENCY",
    "INCLUSION",
    "check_document",
    "consistency_document",
    "inclusion_document",
]
