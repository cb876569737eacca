"""Automatic checkpoints: sign one in a background thread when the policy says it is due.

One :class:`AutoCheckpointer` per :class:`~trail.Trail` with a policy; the trail
calls :meth:`AutoCheckpointer.maybe` after every append (API servers also call it on a
timer). At most one checkpoint is being signed at a time per process; several processes
may each sign one, which is harmless.
"""

from __future__ import annotations

import logging
import threading
from datetime import UTC, datetime
from typing import TYPE_CHECKING

from trail.checkpoints import CheckpointPolicy, latest_checkpoint
from trail.models import HEAD_ROW_ID, TrailHead

if TYPE_CHECKING:
    from trail.core import TrailCore

log = logging.getLogger("kgaudit.trail")


class AutoCheckpointer:
    def __init__(self, trail: TrailCore, policy: CheckpointPolicy) -> None:
        self.trail, self.policy = trail, policy
        self._lock = threading.Lock()  # held while a checkpoint is being signed
        self._thread: threading.Thread | None = None

    def maybe(self, *, wait: bool = False) -> None:
        """Sign a checkpoint in a background thread if one is due (``wait`` for it)."""
        if not self._lock.acquire(blocking=False):
            return
        try:
            with self.trail.session() as s:
                head = s.get(TrailHead, HEAD_ROW_ID)
            due = head is not None and self.policy.due(
                head.seq, latest_checkpoint(self.trail), datetime.now(UTC)
            )
        except Exception:
            self._lock.release()
            raise
        if not due:
            self._lock.release()
            return
        self._thread = threading.Thread(target=self._sign, daemon=True, name="kgaudit-checkpoint")
        self._thread.start()
        if wait:
            self._thread.join()

    def _sign(self) -> None:
        try:
            self.trail.checkpoint(self.policy.key)
        except Exception as exc:  # a broken chain is reported by verify, not by a crash here
            log.error("automatic checkpoint not signed: %s", exc)
        finally:
            self._lock.release()

    def wait(self, timeout: float | None = None) -> None:
        """Wait for a checkpoint being signed (before a short-lived process exits)."""
        if self._thread is not None:
            self._thread.join(timeout)


__all__ = ["AutoCheckpointer"]
