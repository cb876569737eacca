"""Signed checkpoints: an HMAC-SHA256 signature over the chain head at a point in time.

A checkpoint proves later that the chain up to ``seq`` is unchanged: a rewrite of the whole
chain with recomputed hashes changes the hash at ``seq`` and no longer matches. Each one is
stored in the database *and* appended to a checkpoint log file outside it
(:class:`CheckpointLog`, default ``<home>/checkpoints.jsonl``), so deleting the stored
checkpoints is itself detected (``checkpoint_missing``). :class:`CheckpointPolicy` signs one
automatically every N records or T seconds.

Signed payload (canonical JSON): ``{"v", "alg", "key_id", "seq", "head_hash", "created_at"}``.
``key_id`` is ``HMAC-SHA256(key, "kgaudit checkpoint key id")`` cut to 16 hex digits: it tells
a verifier which key signed, and, unlike a plain hash of the key, cannot be used to test key
guesses offline without also knowing the key. Keys must be random (at least 32 characters, 16
distinct, not a repeated pattern): ``kgaudit trail keygen`` makes one.
"""

from __future__ import annotations

import hashlib
import hmac
import json
import os
import secrets
from collections.abc import Mapping
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import TYPE_CHECKING, Any

from sqlalchemy import select

from auditor.errors import DataError, UsageError
from trail.canonical import canonical_json, format_timestamp, sha256_hex
from trail.models import TrailCheckpoint, TrailEvent

if TYPE_CHECKING:
    from trail.core import TrailCore

ALG = "HMAC-SHA256"
VERSION = 1
MIN_KEY_CHARS = 32
MIN_DISTINCT = 16
_SIGNED = ("v", "alg", "key_id", "seq", "head_hash", "created_at")
_KEY_ID_LABEL = b"kgaudit checkpoint key id"


def key_id(key: bytes) -> str:
    return hmac.new(key, _KEY_ID_LABEL, hashlib.sha256).hexdigest()[:16]


def generate_key() -> str:
    """A new random checkpoint key (256 bits, URL-safe text)."""
    return secrets.token_urlsafe(32)


def check_key_strength(key: bytes) -> bytes:
    """``key`` if it looks random enough to sign checkpoints with; else a UsageError."""
    hint = "; generate one with 'kgaudit trail keygen' and set KGAUDIT_CHECKPOINT_KEY"
    if not isinstance(key, bytes) or len(key) < MIN_KEY_CHARS:
        raise UsageError(f"the checkpoint key must be at least {MIN_KEY_CHARS} bytes{hint}")
    if len(set(key)) < MIN_DISTINCT:
        raise UsageError(
            f"the checkpoint key uses fewer than {MIN_DISTINCT} distinct "
            f"characters: it is too easy to guess{hint}"
        )
    for period in range(1, len(key) // 2 + 1):
        if key == (key[:period] * (len(key) // period + 1))[: len(key)]:
            raise UsageError(f"the checkpoint key is a repeated pattern{hint}")
    return key


def sign(payload: Mapping[str, Any], key: bytes) -> str:
    body = canonical_json({k: payload.get(k) for k in _SIGNED}, version=1)
    return hmac.new(key, body, hashlib.sha256).hexdigest()


class CheckpointLog:
    """An append-only JSONL file of signed checkpoints, kept outside the database.

    Several trails may share one file: each line names its trail (a digest of the database
    URL, password left out), and :meth:`read` returns the lines of this trail only.
    """

    def __init__(self, path: Path, trail_label: str) -> None:
        self.path, self.label = Path(path), trail_label

    @staticmethod
    def label_for(url: str) -> str:
        return sha256_hex(url)[:16]

    def append(self, cp: Mapping[str, Any]) -> None:
        line = (
            json.dumps(
                {"trail": self.label, **{k: v for k, v in cp.items() if k != "id"}},
                sort_keys=True,
                separators=(",", ":"),
            )
            + "\n"
        )
        self.path.parent.mkdir(parents=True, exist_ok=True)
        fd = os.open(self.path, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o600)
        try:
            os.write(fd, line.encode("utf-8"))
            os.fsync(fd)
        finally:
            os.close(fd)

    def read(self) -> list[dict[str, Any]]:
        """This trail's checkpoints, oldest first; an unreadable line is returned as
        ``{"malformed": line number}`` so the verifier reports it."""
        try:
            lines = self.path.read_text(encoding="utf-8").splitlines()
        except FileNotFoundError:
            return []
        except OSError as exc:
            raise DataError(
                f"cannot read the checkpoint log: {exc}", location=str(self.path)
            ) from exc
        out: list[dict[str, Any]] = []
        for n, line in enumerate(lines, 1):
            if not line.strip():
                continue
            try:
                entry = json.loads(line)
            except ValueError:
                out.append({"malformed": n})
                continue
            if isinstance(entry, dict) and entry.get("trail") == self.label:
                out.append({k: v for k, v in entry.items() if k != "trail"})
            elif not isinstance(entry, dict):
                out.append({"malformed": n})
        return out


@dataclass(frozen=True, slots=True)
class CheckpointPolicy:
    """Sign a checkpoint automatically after ``every_records`` new records, or when the
    newest is older than ``every_s`` seconds and records were added since (0 turns either
    trigger off); ``log`` receives a copy of every checkpoint."""

    key: bytes
    log: Path | None = None
    every_records: int = 1000
    every_s: float = 600.0

    def __post_init__(self) -> None:
        check_key_strength(self.key)

    @classmethod
    def from_settings(cls, settings: Any) -> CheckpointPolicy | None:
        if settings.checkpoint_key is None:
            return None
        return cls(
            settings.checkpoint_key.get_secret_value().encode("utf-8"),
            settings.checkpoint_log_path,
            settings.checkpoint_every_records,
            settings.checkpoint_every_s,
        )

    def due(self, head_seq: int, last: Mapping[str, Any] | None, now: datetime) -> bool:
        last_seq = int(last["seq"]) if last else 0
        if head_seq <= last_seq:
            return False
        if self.every_records and head_seq - last_seq >= self.every_records:
            return True
        if not self.every_s:
            return False
        if last is None:
            return True
        made = datetime.fromisoformat(str(last["created_at"]).replace("Z", "+00:00"))
        return (now - made).total_seconds() >= self.every_s


def create_checkpoint(trail: TrailCore, key: bytes, *, verify_first: bool = True) -> dict[str, Any]:
    check_key_strength(key)
    if verify_first:
        report = trail.verify(key=key, full=False)
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
        cp = {"id": row.id, **payload}
    if trail.checkpoint_log is not None:
        trail.checkpoint_log.append(cp)
    if trail.tree_signer is not None:  # a signed tree head with every checkpoint
        trail.sign_tree_head()
    return cp


def list_checkpoints(trail: TrailCore) -> list[dict[str, Any]]:
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


def latest_checkpoint(trail: TrailCore) -> dict[str, Any] | None:
    with trail.session() as s:
        r = s.execute(
            select(TrailCheckpoint.seq, TrailCheckpoint.created_at)
            .order_by(TrailCheckpoint.seq.desc(), TrailCheckpoint.id.desc())
            .limit(1)
        ).first()
    return {"seq": r.seq, "created_at": format_timestamp(r.created_at)} if r else None


def signature_problem(cp: Mapping[str, Any], key: bytes) -> str | None:
    """None when ``cp`` is well formed and signed by ``key``; else the reason it is not."""
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
    return None


def chain_problem(cp: Mapping[str, Any], event_hash: str | None) -> str | None:
    """None when the chain still has, at the checkpoint's seq, the hash it signed."""
    seq = int(cp["seq"])
    if seq == 0:
        return None
    if event_hash is None:
        return f"the chain has no event {seq}, which the checkpoint signed"
    if event_hash != cp.get("head_hash"):
        return f"event {seq} no longer has the hash the checkpoint signed: the chain was rewritten"
    return None


def check_checkpoint(trail: TrailCore, cp: Mapping[str, Any], key: bytes) -> str | None:
    """None when ``cp`` is valid for ``key`` and the chain; else the reason it is not."""
    reason = signature_problem(cp, key)
    if reason is not None or int(cp["seq"]) == 0:
        return reason
    with trail.session() as s:
        h = s.execute(
            select(TrailEvent.hash).where(TrailEvent.seq == int(cp["seq"]))
        ).scalar_one_or_none()
    return chain_problem(cp, h)


__all__ = [
    "ALG",
    "CheckpointLog",
    "CheckpointPolicy",
    "chain_problem",
    "check_checkpoint",
    "check_key_strength",
    "create_checkpoint",
    "generate_key",
    "key_id",
    "latest_checkpoint",
    "list_checkpoints",
    "sign",
    "signature_problem",
]
