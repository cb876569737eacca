"""The worker side of a batch: one auditor per worker process, built once, audits chunks.

A :class:`Worker` is created in the process-pool initializer (local backend) or in the Ray
actor's constructor (Ray backend): that is where the graphs and rule packs are loaded —
once per worker, never per record. ``run`` audits a chunk of :class:`Task` and returns one
:class:`Outcome` per task: the audit already turned into a trail record by
``trail.append.prepare`` (canonical JSON, digests — the CPU-heavy part of recording; the
reader has already checked the text and metadata, so a checked task is not checked again),
so the driver only appends it under the chain lock. An exception in one audit
becomes that record's error and never stops the chunk.

``audit_factory`` names (``"module:function"``) a zero-argument function returning the
audit callable (signature of :func:`auditor.audit`); the default builds the process-wide
auditor from the settings and warms it up (linkers and indexes built before any record).
Anything importable in the worker processes can stand in for it.
"""

from __future__ import annotations

import atexit
import importlib
import os
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from datetime import date
from typing import Any, NamedTuple

from auditor.deadline import DeadlineExceeded, deadline
from auditor.errors import InternalError, KgauditError, UsageError

DEFAULT_FACTORY = "services.batch.worker:default_audit_fn"


class Task(NamedTuple):
    """What a worker needs to audit and prepare the trail record of one input record.

    ``day``: ``as_of`` as the reader parsed it (the auditor gets this date, not the string
    again); ``checked``: the reader made the trail's checks of the text and metadata under
    the settings' limits (:func:`services.batch.records.make_record`), so the worker only
    computes the request's digest and hands ``prepare`` a ``CheckedRequest``."""

    id: str
    text: str
    domain: str
    as_of: str | None
    citations: list[str] | None
    metadata: dict[str, Any]
    day: date | None = None
    checked: bool = False

    def request(self) -> dict[str, Any]:
        """The audit request as stored in the trail."""
        return {"domain": self.domain, "as_of": self.as_of, "citations": self.citations}


class Outcome(NamedTuple):
    """A worker's answer for one task: the trail record ready to append, or an error."""

    id: str
    pending: Any  # trail.append.Pending: result checked, hashed and serialised
    error: str | None
    cpu_s: float = 0.0  # CPU time the worker spent on this record (its thread only)


def default_audit_fn() -> Callable[..., Any]:
    """The process-wide auditor, warmed up (linkers and indexes built) before any record."""
    from auditor import get_auditor

    auditor = get_auditor()
    auditor.warm_up()
    return auditor.audit


def load_callable(spec: str) -> Callable[..., Any]:
    module, _, attr = spec.partition(":")
    try:
        return getattr(importlib.import_module(module), attr)
    except (ImportError, AttributeError) as exc:
        raise UsageError(f"cannot load the audit function {spec!r}: {exc}") from exc


def operating_point(fpr: float | None) -> Callable[[Any, float], Any] | None:
    """``auditor.risk.apply_operating_point`` for ``--flag-at-fpr``; checks the model is there."""
    if fpr is None:
        return None
    from auditor.risk import apply_operating_point, load_model

    if load_model() is None:
        raise UsageError(
            "--flag-at-fpr needs the calibrated risk model (auditor/risk/model.json), "
            "which this installation does not have"
        )
    return apply_operating_point


@dataclass(frozen=True, slots=True)
class WorkerConfig:
    """How workers audit (factory, ``--flag-at-fpr``) and label trail records."""

    audit_factory: str = DEFAULT_FACTORY
    flag_at_fpr: float | None = None
    tenant: str = "default"
    requester: str | None = "batch"
    source: str = "batch"
    audit_timeout_s: float | None = None  # per record; None: the settings' audit_timeout_s


class Worker:
    """Audits chunks of tasks with one auditor built at construction."""

    built: int = 0  # auditors built in this process (the batch builds exactly one)

    def __init__(self, config: WorkerConfig, *, audit_fn: Callable[..., Any] | None = None) -> None:
        self.config = config
        self.audit_fn = audit_fn or load_callable(config.audit_factory)()
        self.flag = operating_point(config.flag_at_fpr)
        from auditor.settings import get_settings
        from trail.metadata import MetadataLimits

        settings = get_settings()
        self.timeout_s = (
            settings.audit_timeout_s if config.audit_timeout_s is None else config.audit_timeout_s
        )
        # for a task the reader has not checked (a record built by hand): the settings' limits
        self.metadata_limits = MetadataLimits.from_settings(settings)
        self.audited = 0
        Worker.built += 1

    def stats(self) -> dict[str, int]:
        """This worker's process id, auditors built in its process, and records audited."""
        return {"pid": os.getpid(), "auditors_built": Worker.built, "audited": self.audited}

    def run(self, tasks: list[Task]) -> list[Outcome]:
        self.audited += len(tasks)
        return [self._one(t) for t in tasks]

    def _one(self, t: Task) -> Outcome:
        """Audit, then ``prepare`` the trail record here, in parallel: the driver only appends."""
        from trail.append import check_request, prepare

        start = time.thread_time()
        pending, error = None, None
        as_of = t.as_of if t.day is None else t.day  # the reader's parse, not a second one
        try:
            with deadline(self.timeout_s):
                res = self.audit_fn(t.text, domain=t.domain, as_of=as_of, citations=t.citations)
        except DeadlineExceeded:
            error = (
                f"auditing took longer than {self.timeout_s:g} s (setting "
                "KGAUDIT_AUDIT_TIMEOUT_S); split the text or raise the limit"
            )
        except KgauditError as exc:
            error = str(exc)
        except Exception as exc:  # a bug must not stop the batch; the record says what failed
            error = f"internal error in the auditor: {type(exc).__name__}: {exc}"
        else:
            if self.flag is not None:  # a failure here is configuration: it stops the run
                self.flag(res, self.config.flag_at_fpr)
            c = self.config
            try:
                # checked by the reader: the digest is the one thing left (prepare then takes
                # the request and metadata from ``checked``)
                checked = (
                    check_request(
                        t.text, t.request(), t.metadata, text_checked=True, metadata_checked=True
                    )
                    if t.checked
                    else None
                )
                pending = prepare(
                    res,
                    text=t.text,
                    tenant=c.tenant,
                    requester=c.requester,
                    external_id=t.id,
                    metadata=t.metadata,
                    source=c.source,
                    request=t.request(),
                    metadata_limits=self.metadata_limits,
                    checked=checked,
                )
            except KgauditError as exc:
                error = f"cannot be recorded in the audit trail: {exc}"
            except Exception as exc:  # e.g. nesting past the recursion limit: this record only
                error = f"cannot be recorded in the audit trail: {type(exc).__name__}"
        return Outcome(t.id, pending, error, time.thread_time() - start)


# -- process-pool plumbing (local backend) ----------------------------------------------------

_WORKER: Worker | None = None
_INIT_ERROR: KgauditError | None = None


def init_process(config: WorkerConfig, parent_pid: int, ready: Any) -> None:
    """Pool initializer: build this process's worker, say so on ``ready``; exit when the
    parent disappears.

    A failure (graphs cannot be loaded, ...) is kept and raised by the first task, so the
    driver reports it instead of a broken pool.
    """
    global _WORKER, _INIT_ERROR
    try:
        _WORKER = Worker(config)
    except KgauditError as exc:
        _INIT_ERROR = exc
    except Exception as exc:  # kept as a sentence: arbitrary exceptions may not pickle
        _INIT_ERROR = InternalError(f"a batch worker could not start: {type(exc).__name__}: {exc}")
    threading.Thread(
        target=_watch_parent, args=(parent_pid,), daemon=True, name="kgaudit-parent-watch"
    ).start()
    # At pool shutdown skip the interpreter's teardown: freeing the graphs object by object
    # takes seconds, and everything the worker had to send is sent by then.
    atexit.register(os._exit, 0)
    ready.put(os.getpid())


def _watch_parent(parent_pid: int) -> None:
    # A SIGKILLed batch leaves its pool behind; the orphans must not keep auditing.
    while os.getppid() == parent_pid:
        time.sleep(0.5)
    os._exit(0)


def run_chunk(tasks: list[Task]) -> list[Outcome]:
    if _WORKER is None:
        raise _INIT_ERROR or RuntimeError("worker not initialised")
    return _WORKER.run(tasks)


def stats() -> dict[str, int]:
    if _WORKER is None:
        raise _INIT_ERROR or RuntimeError("worker not initialised")
    return _WORKER.stats()


__all__ = [
    "DEFAULT_FACTORY",
    "Outcome",
    "Task",
    "Worker",
    "WorkerConfig",
    "default_audit_fn",
    "init_process",
    "load_callable",
    "operating_point",
    "run_chunk",
    "stats",
]
