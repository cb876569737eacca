"""A cooperative time limit for one audit: set around the call, checked between sentences.

The API, batch and chat layers run every ``audit()`` inside :func:`deadline`; the auditor
calls :func:`check` between steps (each sentence of the extraction, each citation check), so
a text that takes too long raises :class:`DeadlineExceeded` within about one step of the
limit and frees its worker. Every extractor pattern runs in linear time, so no single step
can hold the worker for long. The limit lives in a context variable: threads and tasks that
set none are never interrupted (``audit()`` called directly has no limit).

>>> with deadline(None):
...     check()                      # no limit: never raises
>>> with deadline(0.0):
...     check()
Traceback (most recent call last):
auditor.deadline.DeadlineExceeded: the audit took longer than its limit of 0 s
"""

from __future__ import annotations

import time
from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar

from auditor.errors import KgauditError


class DeadlineExceeded(KgauditError):
    """The audit ran past the time limit set by :func:`deadline`."""

    exit_code = 3


_LIMIT: ContextVar[tuple[float, float] | None] = ContextVar("kgaudit_deadline", default=None)


@contextmanager
def deadline(seconds: float | None) -> Iterator[None]:
    """Limit the audits run inside the block to ``seconds`` in total (None: no limit)."""
    token = _LIMIT.set(None if seconds is None else (time.monotonic() + seconds, seconds))
    try:
        yield
    finally:
        _LIMIT.reset(token)


def check() -> None:
    """Raise :class:`DeadlineExceeded` if the current deadline has passed."""
    limit = _LIMIT.get()
    if limit is not None and time.monotonic() >= limit[0]:
        raise DeadlineExceeded(f"the audit took longer than its limit of {limit[1]:g} s")


def remaining() -> float | None:
    """Seconds left before the current deadline (None: no limit)."""
    limit = _LIMIT.get()
    return None if limit is None else limit[0] - time.monotonic()


__all__ = ["DeadlineExceeded", "check", "deadline", "remaining"]
