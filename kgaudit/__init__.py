"""kgaudit's Python SDK: a REST client, ``@audited``, ``wrap_openai``, ``assert_audit`` and
claims DataFrames. See docs/sdk.md.

>>> from kgaudit import audited, assert_audit, Client                 # doctest: +SKIP

The in-process auditor is :mod:`auditor` (``from auditor import audit``); this package
builds on it and on the REST API (``kgaudit serve``).
"""

from __future__ import annotations

from kgaudit.client import AsyncClient, AuditRecord, Client
from kgaudit.decorators import AuditedText, audited
from kgaudit.errors import (
    ApiError,
    AuditFailed,
    AuthenticationError,
    ConnectionFailed,
    InvalidRequest,
    NotFound,
    PermissionDenied,
    RateLimited,
    ServerError,
    ServerTimeout,
    ServiceUnavailable,
)
from kgaudit.frame import results_to_frame
from kgaudit.openai_wrap import wrap_openai
from kgaudit.testing import assert_audit

__all__ = [
    "ApiError",
    "AsyncClient",
    "AuditFailed",
    "AuditRecord",
    "AuditedText",
    "AuthenticationError",
    "Client",
    "ConnectionFailed",
    "InvalidRequest",
    "NotFound",
    "PermissionDenied",
    "RateLimited",
    "ServerError",
    "ServerTimeout",
    "ServiceUnavailable",
    "assert_audit",
    "audited",
    "results_to_frame",
    "wrap_openai",
]
