"""API keys: ``kga_<prefix>_<secret>`` tokens, stored only as a lookup prefix + SHA-256.

Roles: ``viewer`` reads, ``reviewer`` reads and decides on audits' items (the reviewer
workbench, ``/review``), ``auditor`` reads and creates audits, ``admin`` also manages its own
tenant's keys and may review. A principal only ever sees its own tenant's audits. Cross-tenant work (every
tenant and key, checkpoints, full trail verification) belongs to the ``operator``, whose key
is configured (``KGAUDIT_OPERATOR_KEY``), never stored in the database and never issued by
the API or ``kgaudit keys``.
"""

from __future__ import annotations

import hashlib
import hmac
import re
import secrets
import threading
import time
from dataclasses import dataclass
from datetime import UTC, date, datetime, timedelta
from typing import Any

from sqlalchemy import select, update

from auditor.errors import UsageError
from trail import Trail
from trail.canonical import format_timestamp
from trail.models import ApiKey, Tenant
from trail.records import check_strings, check_tenant

ROLES: tuple[str, ...] = ("viewer", "reviewer", "auditor", "admin")  # keys in the database
OPERATOR = "operator"
PERMISSIONS: dict[str, frozenset[str]] = {
    "viewer": frozenset({"read"}),
    "reviewer": frozenset({"read", "review"}),
    "auditor": frozenset({"read", "create"}),
    "admin": frozenset({"read", "create", "admin", "review"}),
    OPERATOR: frozenset({"admin", "operator", "integrity"}),
}
TOKEN_PREFIX = "kga_"
_DURATION = re.compile(r"^(\d{1,6})([mhdw])$")
_UNITS = {"m": "minutes", "h": "hours", "d": "days", "w": "weeks"}


class KeyExpired(UsageError):
    """The API key is known and not revoked, but past its ``expires_at``."""


def parse_expiry(value: str, *, now: datetime | None = None) -> datetime:
    """``--expires``: a duration from now (``30d``, ``12h``, ``90m``, ``2w``), a date (the key
    stops working at that day's midnight UTC) or an ISO 8601 timestamp (UTC without an offset).

    >>> parse_expiry("30d", now=datetime(2026, 1, 1, tzinfo=UTC)).isoformat()
    '2026-01-31T00:00:00+00:00'
    >>> parse_expiry("2027-01-01", now=datetime(2026, 1, 1, tzinfo=UTC)).isoformat()
    '2027-01-01T00:00:00+00:00'
    """
    now = now or datetime.now(UTC)
    text = value.strip()
    m = _DURATION.match(text)
    try:
        if m:
            when = now + timedelta(**{_UNITS[m.group(2)]: int(m.group(1))})
        elif "T" not in text and " " not in text:
            when = datetime.combine(date.fromisoformat(text), datetime.min.time(), tzinfo=UTC)
        else:
            when = datetime.fromisoformat(text.replace("Z", "+00:00"))
            when = when.replace(tzinfo=UTC) if when.tzinfo is None else when.astimezone(UTC)
    except (ValueError, OverflowError):
        raise UsageError(
            f"expiry {value!r} is neither a duration (30d, 12h, 90m, 2w), a date YYYY-MM-DD "
            "nor an ISO 8601 timestamp"
        ) from None
    if when <= now:
        raise UsageError(f"expiry {value!r} ({format_timestamp(when)}) is not in the future")
    return when


@dataclass(frozen=True, slots=True)
class Principal:
    """The authenticated caller: which key, which tenant, which role."""

    key_id: int
    prefix: str
    tenant: str
    role: str

    def can(self, permission: str) -> bool:
        return permission in PERMISSIONS.get(self.role, frozenset())

    @property
    def is_operator(self) -> bool:
        return self.role == OPERATOR


def operator_principal() -> Principal:
    """The operator (configured key): no tenant of its own."""
    return Principal(0, OPERATOR, "", OPERATOR)


def hash_token(token: str) -> str:
    return hashlib.sha256(token.encode("utf-8")).hexdigest()


def _split(token: str) -> str | None:
    if not token.startswith(TOKEN_PREFIX):
        return None
    prefix, sep, secret = token[len(TOKEN_PREFIX) :].partition("_")
    return prefix if sep and len(prefix) == 12 and secret else None


def _key_dict(k: ApiKey) -> dict[str, Any]:
    return {
        "id": k.id,
        "prefix": k.prefix,
        "tenant": k.tenant_id,
        "role": k.role,
        "name": k.name,
        "created_at": format_timestamp(k.created_at),
        "revoked_at": format_timestamp(k.revoked_at) if k.revoked_at else None,
        "expires_at": format_timestamp(k.expires_at) if k.expires_at else None,
    }


class KeyStore:
    """Keys in the trail database; ``cache_s`` > 0 remembers verified keys that long."""

    def __init__(self, trail: Trail, *, cache_s: float = 0.0) -> None:
        self.trail = trail
        self.cache_s = cache_s
        self._cache: dict[str, tuple[float, Principal]] = {}  # sha256(token) -> (expiry, who)
        self._generation = 0  # bumped by every revoke: a lookup older than it caches nothing
        self._lock = threading.Lock()

    def create(
        self,
        *,
        tenant: str,
        role: str,
        name: str | None = None,
        expires_at: datetime | None = None,
    ) -> tuple[dict[str, Any], str]:
        """Create a key; returns its description and the token (shown once, never stored).
        ``expires_at`` (aware, in the future) ends the key then, like a revoke; None: never."""
        check_tenant(tenant)
        check_strings(name=name)
        if role not in ROLES:
            raise UsageError(f"role {role!r} is invalid; expected one of {', '.join(ROLES)}")
        if expires_at is not None:
            if expires_at.tzinfo is None:
                raise UsageError("expires_at needs a time zone (UTC)")
            if expires_at <= datetime.now(UTC):
                raise UsageError(f"expires_at {format_timestamp(expires_at)} is not in the future")
        prefix = secrets.token_hex(6)
        token = f"{TOKEN_PREFIX}{prefix}_{secrets.token_urlsafe(32)}"
        self.trail.ensure_tenant(tenant)
        with self.trail.session() as s:
            key = ApiKey(
                prefix=prefix,
                key_hash=hash_token(token),
                tenant_id=tenant,
                role=role,
                name=name,
                created_at=datetime.now(UTC),
                expires_at=expires_at,
            )
            s.add(key)
            s.flush()
            return _key_dict(key), token

    def cached(self, token: str) -> Principal | None:
        """The principal of ``token`` if verified less than ``cache_s`` ago (no database)."""
        if self.cache_s <= 0:
            return None
        digest = hash_token(token)
        with self._lock:
            hit = self._cache.get(digest)
        return hit[1] if hit is not None and hit[0] > time.monotonic() else None

    def authenticate(self, token: str) -> Principal | None:
        """The principal of ``token``, or None for an unknown, malformed or revoked key;
        :class:`KeyExpired` for a valid key past its ``expires_at``."""
        prefix = _split(token)
        if prefix is None:
            return None
        hit = self.cached(token)
        if hit is not None:
            return hit
        digest = hash_token(token)
        with self._lock:
            generation = self._generation
        with self.trail.session() as s:
            key = s.execute(select(ApiKey).where(ApiKey.prefix == prefix)).scalar_one_or_none()
        if key is None or key.revoked_at is not None:
            return None
        if not hmac.compare_digest(key.key_hash, digest):
            return None
        now = datetime.now(UTC)
        if key.expires_at is not None and key.expires_at <= now:
            raise KeyExpired(
                f"the API key expired at {format_timestamp(key.expires_at)}; "
                "create a new one ('kgaudit keys create' or POST /v1/keys)"
            )
        principal = Principal(key.id, key.prefix, key.tenant_id, key.role)
        if self.cache_s > 0:
            ttl = self.cache_s
            if key.expires_at is not None:  # never cached past the key's expiry
                ttl = min(ttl, (key.expires_at - now).total_seconds())
            with self._lock:
                if generation == self._generation:  # no revoke since the key was read
                    self._cache[digest] = (time.monotonic() + ttl, principal)
        return principal

    def list(self, *, tenant: str | None = None) -> list[dict[str, Any]]:
        check_strings(tenant=tenant)
        stmt = select(ApiKey).order_by(ApiKey.id)
        if tenant is not None:
            stmt = stmt.where(ApiKey.tenant_id == tenant)
        with self.trail.session() as s:
            return [_key_dict(k) for k in s.execute(stmt).scalars()]

    def revoke(self, key_id: int, *, tenant: str | None = None) -> bool:
        """Revoke an active key (of ``tenant`` only, when given), at once in this process: the
        cache is emptied after the revoke commits, and a lookup that read the key before
        then does not cache it (other processes see it within ``cache_s``)."""
        self._forget()
        stmt = update(ApiKey).where(ApiKey.id == key_id, ApiKey.revoked_at.is_(None))
        if tenant is not None:
            stmt = stmt.where(ApiKey.tenant_id == tenant)
        with self.trail.session() as s:
            revoked = bool(s.execute(stmt.values(revoked_at=datetime.now(UTC))).rowcount)
        self._forget()
        return revoked

    def _forget(self) -> None:
        with self._lock:
            self._generation += 1
            self._cache.clear()

    def tenants(self, *, only: str | None = None) -> list[dict[str, Any]]:
        stmt = select(Tenant).order_by(Tenant.id)
        if only is not None:
            stmt = stmt.where(Tenant.id == only)
        with self.trail.session() as s:
            return [
                {"id": t.id, "name": t.name, "created_at": format_timestamp(t.created_at)}
                for t in s.execute(stmt).scalars()
            ]


__all__ = [
    "OPERATOR",
    "PERMISSIONS",
    "ROLES",
    "KeyExpired",
    "KeyStore",
    "Principal",
    "hash_token",
    "operator_principal",
    "parse_expiry",
]
