"""Exceptions of the Python SDK, all under kgaudit's :class:`~auditor.errors.KgauditError`.

Hierarchy::

    KgauditError
    ├── ApiError                 the server answered 4xx/5xx; carries its JSON error body
    │   ├── InvalidRequest       400, 405, 413, 422, 431: the request was refused as sent
    │   ├── AuthenticationError  401: missing, invalid or revoked key
    │   ├── PermissionDenied     403: the key's role does not allow this
    │   ├── NotFound             404: no such audit (or another tenant's)
    │   ├── RateLimited          429: ``retry_after`` seconds (from Retry-After), if sent
    │   └── ServerError          5xx (``ServiceUnavailable`` 503, ``ServerTimeout`` 504)
    ├── ConnectionFailed         the server could not be reached or did not answer in time
    └── GateFailed
        └── AuditFailed          ``policy="raise"``: the audited text contradicts the graph

httpx's exceptions are translated at the boundary: callers catch these, never httpx's.
"""

from __future__ import annotations

from typing import Any

from auditor.errors import GateFailed, KgauditError


class ApiError(KgauditError):
    """The server answered with an error. ``status``, ``code``, ``message``, ``request_id``
    and ``details`` come from its one JSON error shape; ``body`` is the whole decoded body
    (or the raw text when it was not JSON)."""

    def __init__(
        self,
        status: int,
        code: str,
        message: str,
        *,
        body: Any = None,
        request_id: str | None = None,
        details: list[dict[str, Any]] | None = None,
        headers: dict[str, str] | None = None,
    ) -> None:
        rid = f" (request {request_id})" if request_id else ""
        super().__init__(f"{status} {code}: {message}{rid}")
        self.status, self.code, self.message = status, code, message
        self.body, self.request_id, self.details = body, request_id, details
        self.headers = headers or {}


class InvalidRequest(ApiError):
    """400/405/413/422/431: the server refused the request as sent (see ``details``)."""


class AuthenticationError(ApiError):
    """401: the API key is missing, invalid or revoked."""


class PermissionDenied(ApiError):
    """403: the key's role does not allow this request."""


class NotFound(ApiError):
    """404: no such resource (another tenant's audit looks the same)."""


class RateLimited(ApiError):
    """429: retry after ``retry_after`` seconds (None when the server sent no Retry-After)."""

    @property
    def retry_after(self) -> float | None:
        try:
            return float(self.headers.get("retry-after", ""))
        except ValueError:
            return None


class ServerError(ApiError):
    """5xx: the server failed; quote ``request_id`` when reporting it."""


class ServiceUnavailable(ServerError):
    """503: a dependency of the server (database, auditor, graph) is unavailable."""


class ServerTimeout(ServerError):
    """504: the request took longer than the server's time limit; nothing was recorded."""


class ConnectionFailed(KgauditError):
    """The server could not be reached, or did not answer within the client's timeout."""


class AuditFailed(GateFailed):
    """The audited text contradicts the knowledge graph (``policy="raise"``).

    ``result`` is the audit (``AuditResult`` or :class:`~kgaudit.client.AuditRecord`);
    ``text`` is the text that was audited."""

    def __init__(self, message: str, *, result: Any, text: str) -> None:
        super().__init__(message)
        self.result, self.text = result, text


_BY_STATUS: dict[int, type[ApiError]] = {
    400: InvalidRequest,
    401: AuthenticationError,
    403: PermissionDenied,
    404: NotFound,
    405: InvalidRequest,
    413: InvalidRequest,
    422: InvalidRequest,
    429: RateLimited,
    431: InvalidRequest,
    503: ServiceUnavailable,
    504: ServerTimeout,
}


def error_class(status: int) -> type[ApiError]:
    """The exception class for an HTTP error status."""
    if status in _BY_STATUS:
        return _BY_STATUS[status]
    return ServerError if status >= 500 else ApiError


__all__ = [
    "ApiError",
    "AuditFailed",
    "AuthenticationError",
    "ConnectionFailed",
    "InvalidRequest",
    "NotFound",
    "PermissionDenied",
    "RateLimited",
    "ServerError",
    "ServerTimeout",
    "ServiceUnavailable",
    "error_class",
]
