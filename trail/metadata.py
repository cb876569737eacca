"""Limits on the metadata stored with an audit, and reading back what was stored before.

Every writer (API, batch, chat, ``Trail.record``) passes metadata through
:func:`check_metadata`: bounded nesting, key count and size, integers a double represents
exactly (RFC 8785), valid strings. Reads pass it through :func:`readable_metadata`, so
metadata stored before these limits existed never makes a list or a report fail.
All walks are iterative: a deeply nested value cannot exhaust the stack.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from datetime import UTC, date, datetime, time
from functools import cache
from typing import Any

from auditor.errors import UsageError
from trail.canonical import canonical_json

MAX_SAFE_INT = 2**53 - 1  # RFC 8785 / I-JSON: integers a double represents exactly
READ_DEPTH = 64  # stored metadata deeper than this is withheld on read (see readable_metadata)
ANSWERED_AT = "answered_at"  # metadata key: when the audited text was said (not recorded)


def json_depth(value: Any, limit: int) -> int:
    """Nesting depth of ``value`` (objects and arrays), counted without recursion; stops
    counting at ``limit + 1``."""
    deepest, stack = 0, [(value, 1)]
    while stack:
        v, d = stack.pop()
        if isinstance(v, dict | list):
            deepest = max(deepest, d)
            if deepest > limit:
                return deepest
            stack.extend((x, d + 1) for x in (v.values() if isinstance(v, dict) else v))
    return deepest


@dataclass(frozen=True, slots=True)
class MetadataLimits:
    """How large the metadata stored with one audit may be: bytes of canonical JSON, nesting,
    keys. :meth:`from_settings` reads ``max_metadata_bytes``, ``max_metadata_depth`` and
    ``max_metadata_keys``, so every writer (route, batch, chat, gateway, trail) applies the
    same limits; :meth:`defaults` are those settings' defaults, read from ``Settings`` (the
    one place they are written)."""

    max_bytes: int
    max_depth: int
    max_keys: int

    @classmethod
    def from_settings(cls, settings: Any) -> MetadataLimits:
        return cls(
            max_bytes=settings.max_metadata_bytes,
            max_depth=settings.max_metadata_depth,
            max_keys=settings.max_metadata_keys,
        )

    @classmethod
    def defaults(cls) -> MetadataLimits:
        """The limits of settings that leave them unset.

        >>> MetadataLimits.defaults().max_bytes
        65536
        """
        return _defaults()

    def check(self, value: Any) -> dict[str, Any]:
        """:func:`check_metadata` under these limits."""
        return check_metadata(
            value, max_bytes=self.max_bytes, max_depth=self.max_depth, max_keys=self.max_keys
        )


@cache
def _defaults() -> MetadataLimits:
    # imported on first use: pydantic (~0.15 s) loads only for a trail built without settings
    from auditor.settings import Settings

    def default(name: str) -> int:
        value = Settings.model_fields[name].default
        assert isinstance(value, int), name
        return value

    return MetadataLimits(
        max_bytes=default("max_metadata_bytes"),
        max_depth=default("max_metadata_depth"),
        max_keys=default("max_metadata_keys"),
    )


def check_metadata(value: Any, *, max_bytes: int, max_depth: int, max_keys: int) -> dict[str, Any]:
    """``value`` if it is a JSON object the trail can store and every reader can serialise
    (bounded depth, key count and size; integers within ±(2^53 − 1)); else a UsageError."""
    if value is None:
        return {}
    if not isinstance(value, Mapping):
        raise UsageError("metadata must be a JSON object")
    if json_depth(value, max_depth) > max_depth:
        raise UsageError(f"metadata is nested deeper than {max_depth} levels")
    keys, stack = 0, [value]
    while stack:
        v = stack.pop()
        if isinstance(v, Mapping):
            keys += len(v)
            if keys > max_keys:
                raise UsageError(f"metadata has more than {max_keys} keys")
            if not all(isinstance(k, str) for k in v):
                raise UsageError("metadata keys must be strings")
            stack.extend(v.values())
        elif isinstance(v, list | tuple):
            stack.extend(v)
        elif isinstance(v, int) and not isinstance(v, bool) and abs(v) > MAX_SAFE_INT:
            raise UsageError("metadata holds an integer beyond ±(2^53 - 1); send it as a string")
        elif isinstance(v, str):
            _check_string(v)
    size = len(canonical_json(dict(value), version=1))
    if size > max_bytes:
        raise UsageError(f"metadata is {size:,} bytes of JSON; the limit is {max_bytes:,}")
    answered_at(value)  # a malformed answered_at is refused here, by every writer
    return dict(value)


def answered_at(meta: Any) -> datetime | None:
    """When the audited text was said: ``meta["answered_at"]`` as a UTC datetime, or None.

    The value is an ISO 8601 timestamp (``2026-03-01T09:30:00Z``; without an offset it is
    UTC), a date (``2026-03-01``: its midnight UTC) or Unix seconds (the ``created`` of an
    OpenAI completion). Anything else is a UsageError naming the key.

    >>> answered_at({"answered_at": "2026-03-01T10:30:00+01:00"}).isoformat()
    '2026-03-01T09:30:00+00:00'
    >>> answered_at({"answered_at": 1772357400}).isoformat()
    '2026-03-01T09:30:00+00:00'
    >>> answered_at({"model": "x"}) is None
    True
    """
    if not isinstance(meta, Mapping) or meta.get(ANSWERED_AT) is None:
        return None
    value = meta[ANSWERED_AT]
    try:
        if isinstance(value, int | float) and not isinstance(value, bool):
            return datetime.fromtimestamp(value, UTC)
        if isinstance(value, str):
            text = value.strip()
            if "T" not in text and " " not in text:
                return datetime.combine(date.fromisoformat(text), time(), tzinfo=UTC)
            out = datetime.fromisoformat(text.replace("Z", "+00:00"))
            return out.replace(tzinfo=UTC) if out.tzinfo is None else out.astimezone(UTC)
    except (ValueError, OverflowError, OSError):
        pass
    raise UsageError(
        f"metadata {ANSWERED_AT!r} {value!r} is not an ISO 8601 timestamp or date, nor Unix seconds"
    )


def readable_metadata(meta: Any) -> Any:
    """Stored metadata as returned by reads: too deep for the API's serialisers (stored before
    the limits existed) it is withheld, never a 500; the database keeps it unchanged."""
    if json_depth(meta, READ_DEPTH) > READ_DEPTH:
        return {
            "_withheld": f"metadata nested deeper than {READ_DEPTH} levels is not returned "
            "by the API; it is stored unchanged"
        }
    return meta


def _check_string(value: str) -> None:
    if "\x00" in value:
        raise UsageError("a metadata string contains a NUL character")
    try:
        value.encode("utf-8")
    except UnicodeEncodeError:
        raise UsageError("a metadata string is not valid Unicode (unpaired surrogate)") from None


__all__ = [
    "ANSWERED_AT",
    "MAX_SAFE_INT",
    "READ_DEPTH",
    "MetadataLimits",
    "answered_at",
    "check_metadata",
    "json_depth",
    "readable_metadata",
]
