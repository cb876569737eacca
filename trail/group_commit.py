"""Group commit: concurrent appends of one process share one transaction and one commit.

Callers of :func:`trail.append` hand their prepared audit to the process's
:class:`GroupCommitter` and block. One committer thread takes what is queued, waits up to
``window_s`` for more (never past ``max_batch``), appends the batch with
:func:`trail.append.append_many` (one head-row lock, one head update, one commit and
``fsync``), and only then wakes each caller with its own record: an audit is acknowledged
only once its batch is durable. While one batch commits, the next one queues, so batches
grow with the load even with ``window_s = 0``. Several processes each batch their own
appends; the head-row lock still serialises their batches.

A batch that fails on the data of one item (a constraint, a value the trail refuses) is
retried item by item, so each caller gets its own outcome; any other failure (the database
unreachable) is raised to every caller of the batch, none of which was acknowledged.
"""

from __future__ import annotations

import os
import threading
import time
from concurrent.futures import Future
from typing import TYPE_CHECKING

from sqlalchemy.exc import IntegrityError

from auditor.errors import UsageError

if TYPE_CHECKING:
    from trail.append import Appended, Pending
    from trail.core import TrailCore


class GroupCommitter:
    def __init__(self, trail: TrailCore, *, window_s: float = 0.0, max_batch: int = 64) -> None:
        if window_s < 0 or max_batch < 1:
            raise UsageError("group commit needs window_s >= 0 and max_batch >= 1")
        self.trail, self.window_s, self.max_batch = trail, window_s, max_batch
        self._pid = -1
        self._start_lock = threading.Lock()
        self.batches = 0  # committed batches, for tests and metrics

    def _start(self) -> None:
        """(Re)start the committer thread: after a fork the parent's thread is gone."""
        self._cond = threading.Condition()
        self._queue: list[tuple[Pending, Future[Appended]]] = []
        self._pid = os.getpid()
        threading.Thread(target=self._run, daemon=True, name="kgaudit-group-commit").start()

    def submit(self, pending: Pending) -> Appended:
        """Append ``pending`` in the next batch; returns once that batch is committed."""
        fut: Future[Appended] = Future()
        if self._pid != os.getpid():
            with self._start_lock:
                if self._pid != os.getpid():
                    self._start()
        with self._cond:
            self._queue.append((pending, fut))
            self._cond.notify()
        return fut.result()

    def _take(self) -> list[tuple[Pending, Future[Appended]]]:
        with self._cond:
            while not self._queue:
                self._cond.wait()
            deadline = time.monotonic() + self.window_s
            while len(self._queue) < self.max_batch:
                left = deadline - time.monotonic()
                if left <= 0:
                    break
                self._cond.wait(left)
            batch = self._queue[: self.max_batch]
            del self._queue[: self.max_batch]
            return batch

    def _run(self) -> None:
        while True:
            self._commit(self._take())

    def _commit(self, batch: list[tuple[Pending, Future[Appended]]]) -> None:
        from trail.append import append_many

        try:
            results = append_many(self.trail, [p for p, _ in batch])
        except (UsageError, IntegrityError) as exc:  # one item's data: retry one by one
            if len(batch) == 1:
                batch[0][1].set_exception(exc)
                return
            for item in batch:
                self._commit([item])
            return
        except BaseException as exc:  # nothing of this batch was acknowledged
            for _, fut in batch:
                fut.set_exception(exc)
            return
        self.batches += 1
        for (_, fut), result in zip(batch, results, strict=True):
            fut.set_result(result)


__all__ = ["GroupCommitter"]
