"""Signed checkpoints: an HMAC-SHA256 signature over the chain head at a point in time.

A checkpoint exported to a place the database's writers cannot touch (a ticket, an e-mail,
a WORM bucket) proves later that the chain up to ``seq`` is unchanged: a rewrite of the
whole chain with recomputed hashes changes the hash at ``seq`` and no longer matches.

Signed payload (canonical JSON): ``{"v", "alg", "key_id", "seq", "head_hash", "created_at"}``;
``key_id`` is the first 16 hex digits of SHA-256("kgaudit-checkpoint-key:" + key), so a
verifier can tell which key signed without learning it.
"""

from __future__ import annotations

import hashlib
import hmac
from collections.abc import Mapping
from datetime import UTC, datetime
from typing import TYPE_CHECKING, Any

from sqlalchemy import select

from auditor.errors import DataError, UsageError
from auditor.trail.canonical import canonical_json, format_timestamp
from auditor.trail.models import TrailCheckpoint, TrailEvent

if TYPE_CHECKING:
    from auditor.trail.store import Trail

ALG = "HMAC-SHA256"
VERSION = 1
_SIGNED = ("v", "alg", "key_id", "seq", "head_hash", "created_at")


def key_id(key: bytes) -> str:
    return hashlib.sha256(b"kgaudit-checkpoint-key:" + key).hexdigest()[:16]


def _check_key(key: bytes) -> bytes:
    if not isinstance(key, bytes) or len(key) < 16:
        raise UsageError("the checkpoint key must be at least 16 bytes; set KGAUDIT_CHECKPOINT_KEY")
    return key


def sign(payload: Mapping[str, Any], key: bytes) -> str:
    body = canonical_json({k: payload.get(k) for k in _SIGNED})
    return hmac.new(_check_key(key), body, hashlib.sha256).hexdigest()


def create_checkpoint(trail: Trail, key: bytes, *, verify_first: bool = True) -> dict[str, Any]:
    _check_key(key)
    if verify_first:
        report = trail.verify()
        if not report.ok:
            broken = report.first_broken or {}
            raise DataError(f"refusing to sign a broken chain: {broken.get('reason')}")
    with trail.session(write=True) as s:
        last = s.execute(
            select(TrailEvent.seq, TrailEvent.hash).order_by(TrailEvent.seq.desc()).limit(1)
        ).first()
        payload: dict[str, Any] = {
            "v": VERSION,
            "alg": ALG,
            "key_id": key_id(key),
            "seq": last.seq if last else 0,
            "head_hash": last.hash if last else None,
            "created_at": format_timestamp(datetime.now(UTC)),
        }
        payload["signature"] = sign(payload, key)
        row = TrailCheckpoint(
            seq=payload["seq"],
            head_hash=payload["head_hash"],
            alg=ALG,
            created_at=datetime.fromisoformat(payload["created_at"].replace("Z", "+00:00")),
            key_id=payload["key_id"],
            signature=payload["signature"],
        )
        s.add(row)
        s.flush()
        return {"id": row.id, **payload}


def list_checkpoints(trail: Trail) -> list[dict[str, Any]]:
    with trail.session() as s:
        rows = s.execute(select(TrailCheckpoint).order_by(TrailCheckpoint.id)).scalars().all()
        return [
            {
                "id": r.id,
                "v": VERSION,
                "alg": r.alg,
                "key_id": r.key_id,
                "seq": r.seq,
                "head_hash": r.head_hash,
                "created_at": format_timestamp(r.created_at),
                "signature": r.signature,
            }
            for r in rows
        ]


def check_checkpoint(trail: Trail, cp: Mapping[str, Any], key: bytes) -> str | None:
    """None when ``cp`` is valid for ``key`` and the chain; else the reason it is not."""
    try:
        seq = int(cp["seq"])
        expected = sign(cp, key)
    except (KeyError, TypeError, ValueError) as exc:
        return f"checkpoint is malformed: {exc.__class__.__name__}"
    if cp.get("alg") != ALG:
        return f"checkpoint algorithm {cp.get('alg')!r} is not {ALG}"
    if not hmac.compare_digest(expected, str(cp.get("signature", ""))):
        return (
            f"checkpoint at seq {seq} has an invalid signature (altered, or signed with "
            "another key)"
        )
    if seq == 0:
        return None
    with trail.session() as s:
        h = s.execute(select(TrailEvent.hash).where(TrailEvent.seq == seq)).scalar_one_or_none()
    if h is None:
        return f"the chain has no event {seq}, which the checkpoint signed"
    if h != cp.get("head_hash"):
        return f"event {seq} no longer has the hash the checkpoint signed: the chain was rewritten"
    return None


__all__ = ["ALG", "check_checkpoint", "create_checkpoint", "key_id", "list_checkpoints", "sign"]
