"""Exceptions raised by kgaudit, and the exit code each maps to.

Hierarchy::

    KgauditError                 base; exit code 3 (internal) unless a subclass says otherwise
    ├── UsageError               bad input or usage (exit 2): unknown domain, invalid date, ...
    │   ├── DataError            a data file is malformed: graph, rule pack, transcript (exit 2)
    │   └── SourceUnavailable    a configured graph file or SPARQL endpoint cannot be read (exit 2)
    ├── GateFailed               an audit failed a gate such as --fail-over-fer (exit 1)
    └── InternalError            a bug or an environment problem (exit 3)

It lives in the foundation package because every other package (rules, auditor, engine)
depends on it; ``auditor.errors`` re-exports it.

Third-party exceptions are translated into these at the boundary (loaders, CLI, API), so
users see one sentence naming the input at fault, never a traceback.
"""

from __future__ import annotations

# the CLI's exit statuses: each error class below carries the one it ends the command with
EXIT_OK, EXIT_GATE, EXIT_INPUT, EXIT_INTERNAL = 0, 1, 2, 3


class KgauditError(Exception):
    """Base class of every error kgaudit raises on purpose."""

    exit_code = EXIT_INTERNAL


class UsageError(KgauditError):
    """The caller asked for something invalid: unknown domain, bad date, bad option."""

    exit_code = EXIT_INPUT


class DataError(UsageError):
    """A data file (graph, rule pack, transcript) is malformed.

    ``location`` names the file and, where known, the line, rule or field at fault.
    """

    def __init__(self, message: str, *, location: str | None = None) -> None:
        super().__init__(f"{location}: {message}" if location else message)
        self.location = location


class SourceUnavailable(UsageError):
    """A configured knowledge source (file, SPARQL endpoint) cannot be reached or read."""


class GateFailed(KgauditError):
    """An audit result crossed a configured gate (e.g. ``--fail-over-fer``)."""

    exit_code = EXIT_GATE


class InternalError(KgauditError):
    """Something that should not happen; report it."""

    exit_code = EXIT_INTERNAL


__all__ = [
    "DataError",
    "GateFailed",
    "InternalError",
    "KgauditError",
    "SourceUnavailable",
    "UsageError",
]
