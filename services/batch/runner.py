"""Run a batch: read records, audit them on a backend, record each in the trail, write results.

Exactly once, even after SIGKILL. The workers audit each record and prepare its trail record
(``trail.prepare``: checks, canonical JSON, digests). The driver (this process) takes
the finished records in input order and, group by group, appends them to the trail in one
transaction (``append_many``, idempotent on ``(tenant, external_id = record id)``), then
writes one results line each. A rerun reads the results file first and skips every id it
holds. A record killed between "recorded" and "written" is audited again in memory, but the
trail returns the stored audit (``created=False``) and that stored result is what gets
written, marked ``"recovered": true``. So the trail and the results file each hold every
record exactly once. Bad records are written as ``"status": "error"`` lines with their reason
and never stop the run. Lines are written in input order whatever the backend.
"""

from __future__ import annotations

import functools
import itertools
import sys
import time
from collections import deque
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from services.batch.backends import Backend
from services.batch.output import ResultsFile
from services.batch.recorder import AppendFn, Recorder
from services.batch.records import BatchRecord
from services.batch.summary import BatchSummary, row_of
from services.batch.worker import Outcome, Task, WorkerConfig


@dataclass(frozen=True, slots=True)
class BatchOptions:
    tenant: str = "default"
    default_domain: str = "auto"  # for records that name no domain
    chunk_size: int = 32  # records per task sent to a worker (and per trail transaction)
    retry_failed: bool = False  # audit again the records written as errors by earlier runs
    progress: bool = True
    requester: str = "batch"
    flag_at_fpr: float | None = None  # --flag-at-fpr: auditor.risk operating point (issue 8)
    audit_timeout_s: float | None = None  # per record (None: the settings' audit_timeout_s)

    def worker_config(self) -> WorkerConfig:
        return WorkerConfig(
            flag_at_fpr=self.flag_at_fpr,
            tenant=self.tenant,
            requester=self.requester,
            audit_timeout_s=self.audit_timeout_s,
        )


class _Progress:
    """tqdm on stderr, shown once the workers are up, so rate and ETA count auditing only
    (records skipped or failed before that are its ``initial`` count)."""

    def __init__(self, total: int | None, *, enabled: bool) -> None:
        self.total, self.enabled, self.before = total, enabled, 0
        self.bar: Any = None

    def start(self) -> None:
        from tqdm import tqdm

        self.bar = tqdm(
            total=self.total,
            initial=self.before,
            unit="rec",
            file=sys.stderr,
            disable=not self.enabled,
            mininterval=0.5,
            smoothing=0.05,
            dynamic_ncols=True,
            desc="auditing",
        )

    def update(self, n: int) -> None:
        if self.bar is None:
            self.before += n
        elif n:
            self.bar.update(n)

    def failed(self, n: int) -> None:
        self.bar.set_postfix_str(f"failed {n:,}", refresh=False)

    def close(self) -> None:
        if self.bar is not None:
            self.bar.close()


def _chunks(tasks: Iterable[Task], size: int) -> Iterator[list[Task]]:
    chunk: list[Task] = []
    for t in tasks:
        chunk.append(t)
        if len(chunk) >= size:
            yield chunk
            chunk = []
    if chunk:
        yield chunk


def run_batch(
    source: Iterable[BatchRecord],
    *,
    out: Path,
    trail: Any,
    backend: Backend,
    options: BatchOptions | None = None,
    name: str | None = None,
    append_fn: AppendFn | None = None,
) -> BatchSummary:
    """Audit every record of ``source`` not already in ``out``; return the summary.

    ``append_fn`` appends prepared records in one transaction (default:
    ``trail.append_many`` on ``trail``); the benchmark swaps it for a no-op to time
    the workers alone.
    """
    options = options or BatchOptions()
    t0 = time.perf_counter()
    results = ResultsFile(out)
    if options.retry_failed:
        results.drop_failures()
    done = results.load()
    summary = BatchSummary(source=name or getattr(source, "name", "input"))
    summary.repaired_bytes = results.repaired_bytes
    counter = getattr(source, "count", None)
    # the total is the progress bar's alone: without a bar the input is not read twice
    total = counter() if counter is not None and options.progress else None
    if append_fn is None:
        from trail import append_many

        append_fn = functools.partial(append_many, trail)
    recorder = Recorder(trail, append_fn, options.tenant, results, summary)
    queue: deque[list[Any]] = deque()  # [record, outcome or None], in input order
    slots: dict[str, list[Any]] = {}
    seen: dict[str, str] = {}
    bar = _Progress(total, enabled=options.progress)

    def flush() -> None:
        """Record and write the finished head of the queue: results keep the input order."""
        ready = []
        while queue and queue[0][1] is not None:
            ready.append(tuple(queue.popleft()))
        if ready:
            recorder.outcomes(ready)
            summary.worker_cpu_s += sum(o.cpu_s for _, o in ready)
            bar.update(len(ready))

    def tasks() -> Iterator[Task]:
        for rec in source:
            first = seen.get(rec.id)
            if first is not None:
                summary.duplicates += 1
                summary.add(
                    row_of(
                        {
                            "id": rec.id,
                            "status": "error",
                            "location": rec.location,
                            "error": f"duplicate id (first at {first}); skipped",
                        }
                    ),
                    new=True,
                )
                bar.update(1)
                continue
            seen[rec.id] = rec.location
            if rec.id in done:
                summary.skipped += 1
                summary.add(done[rec.id], new=False)
                bar.update(1)
            elif rec.error is not None:
                queue.append([rec, Outcome(rec.id, None, rec.error)])
                flush()
            else:
                slots[rec.id] = slot = [rec, None]
                queue.append(slot)
                yield Task(
                    rec.id,
                    rec.text or "",
                    rec.domain or options.default_domain,
                    rec.as_of,
                    rec.citations,
                    rec.metadata,
                    rec.day,
                    rec.checked,
                )

    try:
        chunks = _chunks(tasks(), options.chunk_size)
        first = next(chunks, None)  # workers start only when there is something to audit
        if first is not None:
            backend.start(options.worker_config())
            summary.startup_s = time.perf_counter() - t0
            bar.start()
            for outcomes in backend.map(itertools.chain([first], chunks)):
                for o in outcomes:
                    slots.pop(o.id)[1] = o
                flush()
                if summary.failures:
                    bar.failed(len(summary.failures))
        flush()
        results.close()  # the final fsync belongs to the run
        summary.elapsed_s = time.perf_counter() - t0
    finally:
        results.close()
        bar.close()
        backend.close()
    return summary


__all__ = ["BatchOptions", "run_batch"]
