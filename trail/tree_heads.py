"""Signed tree heads (STH): Ed25519 signatures over (tree size, root, time).

The signed message is four lines of ASCII, so any Ed25519 library can check it::

    kgaudit tree head v1\\n<tree_size>\\n<root_hash hex>\\n<timestamp>\\n

``timestamp`` is UTC ``YYYY-MM-DDTHH:MM:SS.ffffffZ``. ``key_id`` is the first 16 hex digits
of SHA-256 of the raw 32-byte public key. The private key comes from ``tree_key`` (settings,
``KGAUDIT_TREE_KEY``: a PEM, or the base64 of a 32-byte seed) or the PEM file
``tree_key_file`` (default ``<home>/tree_key.pem``, made by ``kgaudit trail tree-keygen``);
it is never logged or returned. Each signed head is stored in ``trail_tree_heads``, appended
to the tree-head log (JSON lines, ``fsync``ed, default ``<home>/tree_heads.jsonl``), and, when
``tree_head_witness_url`` is set, POSTed there as JSON.
"""

from __future__ import annotations

import base64
import binascii
import hashlib
import logging
import os
from datetime import UTC, datetime
from pathlib import Path
from typing import TYPE_CHECKING, Any

from cryptography.exceptions import InvalidSignature
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey, Ed25519PublicKey
from sqlalchemy import select

from auditor.errors import UsageError
from trail import tree
from trail.canonical import format_timestamp
from trail.models import HEAD_ROW_ID, TrailHead, TreeHead

if TYPE_CHECKING:
    from trail.core import TrailCore

ALG = "Ed25519"
VERSION = 1
log = logging.getLogger("kgaudit.trail")


def signed_message(tree_size: int, root_hash: str, timestamp: str) -> bytes:
    return f"kgaudit tree head v1\n{tree_size}\n{root_hash}\n{timestamp}\n".encode("ascii")


def raw_public(public: Ed25519PublicKey) -> bytes:
    return public.public_bytes(serialization.Encoding.Raw, serialization.PublicFormat.Raw)


def key_id(public: Ed25519PublicKey) -> str:
    return hashlib.sha256(raw_public(public)).hexdigest()[:16]


def public_pem(public: Ed25519PublicKey) -> str:
    return public.public_bytes(
        serialization.Encoding.PEM, serialization.PublicFormat.SubjectPublicKeyInfo
    ).decode("ascii")


def load_public_key(text: str) -> Ed25519PublicKey:
    """A PEM public key, or the 64 hex digits of a raw one; else a UsageError."""
    text = text.strip()
    try:
        if text.startswith("-----BEGIN"):
            key = serialization.load_pem_public_key(text.encode("ascii"))
            if not isinstance(key, Ed25519PublicKey):
                raise UsageError("the public key is not an Ed25519 key")
            return key
        return Ed25519PublicKey.from_public_bytes(bytes.fromhex(text))
    except (ValueError, UnicodeEncodeError) as exc:
        raise UsageError("the public key is neither an Ed25519 PEM nor 64 hex digits") from exc


def _load_private(text: str) -> Ed25519PrivateKey:
    text = text.strip()
    try:
        if text.startswith("-----BEGIN"):
            key = serialization.load_pem_private_key(text.encode("ascii"), password=None)
            if not isinstance(key, Ed25519PrivateKey):
                raise UsageError("the tree signing key is not an Ed25519 key")
            return key
        seed = base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))
        return Ed25519PrivateKey.from_private_bytes(seed)
    except (ValueError, TypeError, binascii.Error) as exc:  # never echo the key material
        raise UsageError(
            "the tree signing key is neither an Ed25519 PEM nor the base64 of a 32-byte seed"
        ) from exc


class TreeSigner:
    """Signs tree heads with one Ed25519 private key (held here, never printed)."""

    def __init__(self, private: Ed25519PrivateKey) -> None:
        self._private = private
        self.public = private.public_key()
        self.key_id = key_id(self.public)

    def __repr__(self) -> str:
        return f"TreeSigner(key_id={self.key_id!r})"

    @classmethod
    def from_settings(cls, settings: Any) -> TreeSigner | None:
        if settings.tree_key is not None:
            return cls(_load_private(settings.tree_key.get_secret_value()))
        path = settings.tree_key_path
        if path.is_file():
            return cls(_load_private(path.read_text(encoding="ascii")))
        return None

    def sign(self, tree_size: int, root_hash: str, timestamp: str) -> dict[str, Any]:
        sig = self._private.sign(signed_message(tree_size, root_hash, timestamp))
        return {
            "v": VERSION,
            "tree_size": tree_size,
            "root_hash": root_hash,
            "timestamp": timestamp,
            "alg": ALG,
            "key_id": self.key_id,
            "signature": sig.hex(),
        }


def generate_key_file(path: Path) -> Ed25519PublicKey:
    """Write a new private key (PEM, mode 0600) to ``path``; refuses to overwrite one."""
    private = Ed25519PrivateKey.generate()
    pem = private.private_bytes(
        serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8, serialization.NoEncryption()
    )
    path.parent.mkdir(parents=True, exist_ok=True)
    try:
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    except FileExistsError as exc:
        raise UsageError(f"{path} exists; remove it first to replace the tree key") from exc
    with os.fdopen(fd, "wb") as f:
        f.write(pem)
    return private.public_key()


def head_problem(head: Any, public: Ed25519PublicKey) -> str | None:
    """None when ``head`` is a well-formed tree head signed by ``public``; else why not."""
    if not isinstance(head, dict):
        return "the tree head is not a JSON object"
    try:
        size, root, ts = int(head["tree_size"]), str(head["root_hash"]), str(head["timestamp"])
        sig = bytes.fromhex(str(head["signature"]))
        msg = signed_message(size, root, ts)
    except (KeyError, TypeError, ValueError, UnicodeEncodeError) as exc:
        return f"the tree head is malformed ({exc.__class__.__name__})"
    if head.get("alg") != ALG:
        return f"the tree head's algorithm {head.get('alg')!r} is not {ALG}"
    try:
        public.verify(sig, msg)
    except InvalidSignature:
        return f"the tree head of size {size} has an invalid signature (altered, or another key)"
    return None


def _row_dict(r: TreeHead) -> dict[str, Any]:
    return {
        "v": VERSION,
        "tree_size": r.tree_size,
        "root_hash": r.root_hash,
        "timestamp": format_timestamp(r.created_at),
        "alg": r.alg,
        "key_id": r.key_id,
        "signature": r.signature,
    }


def sign_tree_head(trail: TrailCore, signer: TreeSigner) -> dict[str, Any]:
    """Sign the root of the whole tree now, store it, log it and send it to the witness."""
    with trail.session() as s:
        conn = s.connection()
        size = s.execute(select(TrailHead.seq).where(TrailHead.id == HEAD_ROW_ID)).scalar_one()
        root = tree.root(conn, size).hex()
    now = datetime.now(UTC)
    head = signer.sign(size, root, format_timestamp(now))
    with trail.session() as s:
        s.add(
            TreeHead(
                tree_size=size,
                root_hash=root,
                created_at=now,
                alg=ALG,
                key_id=head["key_id"],
                signature=head["signature"],
            )
        )
    if trail.tree_head_log is not None:
        trail.tree_head_log.append(head)
    if trail.witness_url:
        _send_to_witness(trail.witness_url, head)
    return head


def _send_to_witness(url: str, head: dict[str, Any]) -> None:
    import httpx

    try:
        httpx.post(url, json=head, timeout=5.0).raise_for_status()
    except httpx.HTTPError as exc:  # the head is stored and logged; the witness catches up
        log.warning("tree head of size %d not sent to the witness: %s", head["tree_size"], exc)


def tree_heads(trail: TrailCore) -> list[dict[str, Any]]:
    with trail.session() as s:
        rows = s.execute(select(TreeHead).order_by(TreeHead.id)).scalars().all()
        return [_row_dict(r) for r in rows]


def latest_tree_head(trail: TrailCore, *, size: int | None = None) -> dict[str, Any] | None:
    """The newest stored head (of exactly ``size`` leaves when given)."""
    stmt = select(TreeHead).order_by(TreeHead.tree_size.desc(), TreeHead.id.desc()).limit(1)
    if size is not None:
        stmt = stmt.where(TreeHead.tree_size == size)
    with trail.session() as s:
        r = s.execute(stmt).scalars().first()
        return _row_dict(r) if r is not None else None


__all__ = [
    "ALG",
    "TreeSigner",
    "generate_key_file",
    "head_problem",
    "key_id",
    "latest_tree_head",
    "load_public_key",
    "public_pem",
    "sign_tree_head",
    "signed_message",
    "tree_heads",
]
