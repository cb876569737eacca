"""The reviewer workbench's plumbing: signed session cookies, CSRF tokens, HTML templates.

A reviewer signs in with an API key (``POST /review/login``); the key is checked once and
exchanged for a session cookie ``kgaudit_review`` (HttpOnly, ``SameSite=Strict``, path
``/review``, Secure when ``review_cookie_secure``) holding the key's id, prefix, tenant,
role, expiry and the session's CSRF token, signed with HMAC-SHA256 under
``review_session_secret`` (a random key per process when unset). The key is never stored in
the cookie. Every request re-reads the key's row, so a revoked key ends its sessions at once.

Every form carries the CSRF token as a hidden field; a POST whose token does not match the
session's is refused (403). The sign-in form carries a signed, time-limited token of its own.

Templates (``services/api/templates``) are Jinja2 with autoescaping always on; answer text
additionally goes through :func:`reveal`, which shows Unicode bidirectional controls as
visible ``[U+202E]`` marks so an RTL override cannot reorder what a reviewer reads.
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import json
import re
import secrets
import time
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

from markupsafe import Markup, escape
from sqlalchemy import select

from services.api.keys import Principal
from trail import Trail
from trail.models import ApiKey

COOKIE = "kgaudit_review"
COOKIE_PATH = "/review"
LOGIN_TOKEN_S = 3600.0
HERE = Path(__file__).resolve().parent
TEMPLATES = HERE / "templates"
STATIC = HERE / "static"
# bidirectional embeddings, overrides, isolates and marks (Unicode UAX #9), and zero-width
# characters that hide text
_INVISIBLE = re.compile("[\u061c\u200b-\u200f\u202a-\u202e\u2066-\u2069\ufeff]")
CSP = (
    "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self'; "
    "form-action 'self'; frame-ancestors 'none'; base-uri 'none'"
)


def _b64(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode("ascii")


def _unb64(text: str) -> bytes:
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


@dataclass(frozen=True, slots=True)
class WebSession:
    """A signed-in reviewer: who (the key's principal), until when, and the CSRF token."""

    principal: Principal
    csrf: str
    expires: float

    @property
    def may_decide(self) -> bool:
        return self.principal.can("review")


class Sessions:
    """Issue and check session cookies and sign-in tokens under one HMAC key."""

    def __init__(self, secret: bytes | None, *, lifetime_s: float, secure: bool) -> None:
        self._key = hashlib.sha256(secret).digest() if secret else secrets.token_bytes(32)
        self.lifetime_s = lifetime_s
        self.secure = secure

    def _sign(self, payload: bytes) -> str:
        return _b64(hmac.new(self._key, payload, hashlib.sha256).digest())

    def issue(self, principal: Principal) -> tuple[str, WebSession]:
        """A cookie value for ``principal`` and the session it stands for."""
        session = WebSession(principal, secrets.token_urlsafe(24), time.time() + self.lifetime_s)
        body = json.dumps(
            {
                "k": principal.key_id,
                "p": principal.prefix,
                "t": principal.tenant,
                "r": principal.role,
                "c": session.csrf,
                "e": session.expires,
            },
            separators=(",", ":"),
        ).encode("utf-8")
        return f"{_b64(body)}.{self._sign(body)}", session

    def read(self, cookie: str | None) -> WebSession | None:
        """The session of a cookie value, or None (malformed, forged or expired)."""
        if not cookie or cookie.count(".") != 1:
            return None
        body_b64, sig = cookie.split(".")
        try:
            body = _unb64(body_b64)
        except (ValueError, TypeError):
            return None
        if not hmac.compare_digest(sig, self._sign(body)):
            return None
        try:
            d = json.loads(body)
            principal = Principal(int(d["k"]), str(d["p"]), str(d["t"]), str(d["r"]))
            session = WebSession(principal, str(d["c"]), float(d["e"]))
        except (ValueError, KeyError, TypeError):
            return None
        return session if session.expires > time.time() else None

    def login_token(self) -> str:
        """A token for the sign-in form (signed, valid ``LOGIN_TOKEN_S``)."""
        body = f"login.{int(time.time())}.{secrets.token_urlsafe(12)}".encode("ascii")
        return f"{_b64(body)}.{self._sign(body)}"

    def check_login_token(self, token: str | None) -> bool:
        if not token or token.count(".") != 1:
            return False
        body_b64, sig = token.split(".")
        try:
            body = _unb64(body_b64)
            issued = int(body.decode("ascii").split(".")[1])
        except (ValueError, IndexError, UnicodeDecodeError):
            return False
        return hmac.compare_digest(sig, self._sign(body)) and (
            0 <= time.time() - issued <= LOGIN_TOKEN_S
        )

    def cookie_args(self) -> dict[str, Any]:
        return {
            "key": COOKIE,
            "path": COOKIE_PATH,
            "httponly": True,
            "samesite": "strict",
            "secure": self.secure,
            "max_age": int(self.lifetime_s),
        }


def key_is_active(trail: Trail, principal: Principal) -> bool:
    """The session's key still exists, unrevoked and unexpired, with the same prefix, tenant
    and role."""
    with trail.session() as s:
        key = s.execute(select(ApiKey).where(ApiKey.id == principal.key_id)).scalar_one_or_none()
    return (
        key is not None
        and key.revoked_at is None
        and (key.expires_at is None or key.expires_at > datetime.now(UTC))
        and (key.prefix, key.tenant_id, key.role)
        == (principal.prefix, principal.tenant, principal.role)
    )


def csrf_ok(session: WebSession, token: str | None) -> bool:
    return bool(token) and hmac.compare_digest(session.csrf, str(token))


def reveal(value: Any) -> Markup:
    """``value`` HTML-escaped, with bidi controls and zero-width characters shown as marks."""
    escaped = str(escape(str(value)))
    return Markup(
        _INVISIBLE.sub(
            lambda m: (
                f'<span class="ctl" title="hidden control character">'
                f"[U+{ord(m.group()):04X}]</span>"
            ),
            escaped,
        )
    )


def safe_url(value: Any) -> str | None:
    """``value`` when it is an http(s) URL, else None (never a ``javascript:`` link)."""
    if not isinstance(value, str):
        return None
    v = value.strip()
    if _INVISIBLE.search(v) or any(ord(ch) < 32 for ch in v):
        return None
    parts = urlsplit(v)
    return v if parts.scheme in ("http", "https") and parts.netloc else None


def templates() -> Any:
    """The Jinja2 environment of the workbench (autoescape on for every template)."""
    try:
        from jinja2 import Environment, FileSystemLoader, StrictUndefined
    except ImportError as exc:  # pragma: no cover - a dependency of the package
        raise ImportError("the reviewer workbench needs Jinja2: pip install 'jinja2>=3.1'") from exc
    env = Environment(
        loader=FileSystemLoader(str(TEMPLATES)),
        autoescape=True,
        undefined=StrictUndefined,
        trim_blocks=True,
        lstrip_blocks=True,
    )
    env.filters["reveal"] = reveal
    env.filters["safe_url"] = safe_url
    return env


__all__ = [
    "COOKIE",
    "CSP",
    "STATIC",
    "Sessions",
    "WebSession",
    "csrf_ok",
    "key_is_active",
    "reveal",
    "safe_url",
    "templates",
]
