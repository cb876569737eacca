"""Exceptions raised by kgaudit (re-exported from :mod:`knowledge_graphs.errors`)."""

from knowledge_graphs.errors import (
    EXIT_GATE,
    EXIT_INPUT,
    EXIT_INTERNAL,
    EXIT_OK,
    DataError,
    GateFailed,
    InternalError,
    KgauditError,
    SourceUnavailable,
    UsageError,
)

__all__ = [
    "EXIT_GATE",
    "EXIT_INPUT",
    "EXIT_INTERNAL",
    "EXIT_OK",
    "DataError",
    "GateFailed",
    "InternalError",
    "KgauditError",
    "SourceUnavailable",
    "UsageError",
]
