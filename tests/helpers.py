"""Small helpers shared by the test packages (import with ``from ..helpers import ...``)."""

from __future__ import annotations

import subprocess
import sys
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import TypeVar

T = TypeVar("T")


def wait_until(
    predicate: Callable[[], T],
    timeout: float = 30.0,
    *,
    interval: float = 0.02,
    what: str | Callable[[], str] = "the condition",
) -> T:
    """Poll ``predicate`` until it returns a truthy value and return that value; fail the test
    with ``what`` (a string, or a callable giving one) after ``timeout`` seconds.

    Exceptions from ``predicate`` propagate: a predicate that may fail while a server starts
    catches its own errors.
    """
    deadline = time.monotonic() + timeout
    while True:
        value = predicate()
        if value:
            return value
        if time.monotonic() > deadline:
            import pytest

            message = what() if callable(what) else what
            pytest.fail(f"timed out after {timeout:g} s waiting for {message}")
        time.sleep(interval)


def busy_in(thread: threading.Thread, under: Path) -> bool:
    """Whether ``thread`` is executing code from a file under ``under`` right now (anywhere on
    its stack)."""
    frame = sys._current_frames().get(thread.ident or -1)
    while frame is not None:
        if Path(frame.f_code.co_filename).is_relative_to(under):
            return True
        frame = frame.f_back
    return False


def wait_abandoned_work(before: set[threading.Thread], under: Path, timeout: float = 30) -> None:
    """Wait until no thread started since ``before`` (a ``set(threading.enumerate())``) runs
    code under ``under``: work a request abandoned (after its client got a 504) is over, or
    was never started. Then whatever it would have recorded is in the database."""

    def busy() -> list[str]:
        return [t.name for t in threading.enumerate() if t not in before and busy_in(t, under)]

    wait_until(lambda: not busy(), timeout, what=lambda: f"the abandoned work to end (in {busy()})")


def wait_ready(
    proc: subprocess.Popen[bytes], base_url: str, log: Path, timeout: float = 240
) -> None:
    """Wait until the ``kgaudit serve`` in ``proc`` answers ``/readyz`` with 200; fail with the
    end of its log when it exits first or does not get ready in time."""
    import httpx
    import pytest

    def ready() -> bool:
        if proc.poll() is not None:
            pytest.fail(f"the server exited ({proc.returncode}):\n{log.read_text()[-3000:]}")
        try:
            return httpx.get(f"{base_url}/readyz", timeout=2).status_code == 200
        except httpx.TransportError:
            return False

    wait_until(
        ready,
        timeout,
        interval=0.2,
        what=lambda: f"the server to get ready:\n{log.read_text()[-3000:]}",
    )
