"""Exceptions raised by kgaudit (re-exported from :mod:`knowledge_graphs.errors`)."""

from knowledge_graphs.errors import (
    DataError,
    GateFailed,
    InternalError,
    KgauditError,
    SourceUnavailable,
    UsageError,
)

__all__ = [
    "DataError",
    "GateFailed",
    "InternalError",
    "KgauditError",
    "SourceUnavailable",
    "UsageError",
]
