"""Where the audits run: in this process, in a local process pool, or on Ray actors.

Every backend maps chunks of tasks to chunks of outcomes **in submission order**, keeping a
bounded window of chunks in flight so the workers never wait for the driver (which records
each result in the trail and writes it to the results file while the next chunks run).
Workers are started — graphs loaded — once, by :meth:`start`.
"""

from __future__ import annotations

import multiprocessing
import os
import queue
from collections import deque
from collections.abc import Callable, Iterable, Iterator
from concurrent.futures import Future, ProcessPoolExecutor
from typing import Any, Protocol

from auditor.errors import InternalError, KgauditError, UsageError
from services.batch.worker import (
    Outcome,
    Task,
    Worker,
    WorkerConfig,
    init_process,
    run_chunk,
    stats,
)

CHUNKS_IN_FLIGHT_PER_WORKER = 3


class Backend(Protocol):
    workers: int

    def start(self, config: WorkerConfig) -> None: ...

    def worker_stats(self) -> list[dict[str, int]]: ...

    def map(self, chunks: Iterable[list[Task]]) -> Iterator[list[Outcome]]: ...

    def close(self) -> None: ...


def _ordered(
    chunks: Iterable[list[Task]],
    submit: Callable[[list[Task]], Any],
    wait: Callable[[Any], list[Outcome]],
    window: int,
) -> Iterator[list[Outcome]]:
    pending: deque[Any] = deque()
    for chunk in chunks:
        pending.append(submit(chunk))
        if len(pending) >= window:
            yield wait(pending.popleft())
    while pending:
        yield wait(pending.popleft())


class InlineBackend:
    """Audits in the calling process (``--workers 0``); ``audit_fn`` may be injected."""

    workers = 0

    def __init__(self, *, audit_fn: Callable[..., Any] | None = None) -> None:
        self.audit_fn = audit_fn
        self._worker: Worker | None = None

    def start(self, config: WorkerConfig) -> None:
        self._worker = Worker(config, audit_fn=self.audit_fn)

    def worker_stats(self) -> list[dict[str, int]]:
        return [self._worker.stats()] if self._worker is not None else []

    def map(self, chunks: Iterable[list[Task]]) -> Iterator[list[Outcome]]:
        if self._worker is None:
            raise InternalError("backend not started")
        return (self._worker.run(c) for c in chunks)

    def close(self) -> None:
        self._worker = None


class LocalBackend:
    """A pool of ``workers`` processes (spawned; each loads the graphs once)."""

    def __init__(self, workers: int) -> None:
        if workers < 1:
            raise UsageError("--workers must be at least 1 for the local process pool")
        self.workers = workers
        self._pool: ProcessPoolExecutor | None = None

    def start(self, config: WorkerConfig) -> None:
        """Spawn every worker and wait until each has built its auditor."""
        ctx = multiprocessing.get_context("spawn")
        ready = ctx.Queue()
        self._pool = ProcessPoolExecutor(
            max_workers=self.workers,
            mp_context=ctx,
            initializer=init_process,
            initargs=(config, os.getpid(), ready),
        )
        # The pool spawns one process per submitted task while none is idle: submit one
        # task per worker so all load at once, then wait for every "ready".
        probes = [self._pool.submit(stats) for _ in range(self.workers)]
        started = 0
        while started < self.workers:
            try:
                ready.get(timeout=1.0)
                started += 1
            except queue.Empty:
                for f in probes:
                    if f.done():
                        self._result(f)  # raises if the pool broke or a worker failed
        for f in probes:
            self._result(f)

    def worker_stats(self) -> list[dict[str, int]]:
        """Per worker process: pid, auditors built, records audited (by pid, best effort:
        the pool picks which process answers, so a busy one may be missed)."""
        if self._pool is None:
            raise InternalError("backend not started")
        found = {}
        for f in [self._pool.submit(stats) for _ in range(self.workers * 3)]:
            s = self._result(f)
            found[s["pid"]] = s
        return sorted(found.values(), key=lambda s: s["pid"])

    def _result(self, future: Future[Any]) -> Any:
        from concurrent.futures.process import BrokenProcessPool

        try:
            return future.result()
        except BrokenProcessPool as exc:
            raise InternalError(
                "a batch worker process died (out of memory, or killed); "
                "rerun the same command to resume"
            ) from exc

    def map(self, chunks: Iterable[list[Task]]) -> Iterator[list[Outcome]]:
        pool = self._pool
        if pool is None:
            raise InternalError("backend not started")
        return _ordered(
            chunks,
            lambda c: pool.submit(run_chunk, c),
            self._result,
            self.workers * CHUNKS_IN_FLIGHT_PER_WORKER,
        )

    def close(self) -> None:
        if self._pool is not None:
            self._pool.shutdown(wait=True, cancel_futures=True)
            self._pool = None


class RayBackend:
    """``workers`` Ray actors (1 CPU each), each holding one auditor.

    Connects to ``address`` (``auto``, ``ray://head:10001``, ...) or starts a local Ray
    instance unless one is already initialised in this process. ``KGAUDIT_*`` environment
    variables are passed to the actors so they read the same settings.
    """

    def __init__(self, workers: int, *, address: str | None = None) -> None:
        if workers < 1:
            raise UsageError("--workers must be at least 1 for the Ray backend")
        self.workers, self.address = workers, address
        self._actors: list[Any] = []
        self._started_ray = False
        self.last_stats: list[dict[str, int]] = []  # worker_stats() taken by close()

    def start(self, config: WorkerConfig) -> None:
        try:
            import ray
        except ModuleNotFoundError as exc:
            raise UsageError(
                "the Ray backend needs the ray extra: pip install 'kgaudit[ray]'"
            ) from exc
        env = {k: v for k, v in os.environ.items() if k.startswith("KGAUDIT_")}
        if not ray.is_initialized():
            kwargs: dict[str, Any] = {"include_dashboard": False, "log_to_driver": False}
            if self.address:
                kwargs["address"] = self.address
            else:
                kwargs["num_cpus"] = self.workers
            try:
                ray.init(**kwargs)
            except (ConnectionError, RuntimeError, ValueError) as exc:
                raise UsageError(f"cannot start or reach Ray ({exc})") from exc
            self._started_ray = True
        actor = ray.remote(num_cpus=1)(Worker)
        self._actors = [
            actor.options(runtime_env={"env_vars": env}).remote(config) for _ in range(self.workers)
        ]
        try:
            self.worker_stats()
        except ray.exceptions.RayError as exc:
            raise InternalError(f"the Ray workers failed to start: {exc}") from exc

    def worker_stats(self) -> list[dict[str, int]]:
        """Per actor: pid, auditors built in its process, records audited."""
        import ray

        return ray.get([a.stats.remote() for a in self._actors])

    def map(self, chunks: Iterable[list[Task]]) -> Iterator[list[Outcome]]:
        import ray

        n = len(self._actors)
        if not n:
            raise InternalError("backend not started")
        counter = iter(range(1 << 62))

        def submit(chunk: list[Task]) -> Any:
            return self._actors[next(counter) % n].run.remote(chunk)

        def wait(ref: Any) -> list[Outcome]:
            try:
                return [Outcome(*o) for o in ray.get(ref)]
            except ray.exceptions.RayTaskError as exc:
                if isinstance(exc.cause, KgauditError):  # e.g. --flag-at-fpr without a model
                    raise exc.cause from None
                raise InternalError(f"a Ray worker failed: {exc.cause!r}") from exc
            except ray.exceptions.RayError as exc:
                raise InternalError(
                    f"a Ray worker failed ({type(exc).__name__}); rerun the same command to resume"
                ) from exc

        return _ordered(chunks, submit, wait, n * CHUNKS_IN_FLIGHT_PER_WORKER)

    def close(self) -> None:
        import ray

        if self._actors:
            try:
                self.last_stats = self.worker_stats()
            except ray.exceptions.RayError:
                self.last_stats = []
        for a in self._actors:
            ray.kill(a)
        self._actors = []
        if self._started_ray:
            ray.shutdown()
            self._started_ray = False


def make_backend(kind: str, workers: int, *, ray_address: str | None = None) -> Backend:
    if kind == "ray":
        return RayBackend(workers, address=ray_address)
    if ray_address is not None:
        raise UsageError("--ray-address needs --backend ray")
    if kind != "local":
        raise UsageError(f"unknown backend {kind!r}; expected local or ray")
    return InlineBackend() if workers == 0 else LocalBackend(workers)


__all__ = ["Backend", "InlineBackend", "LocalBackend", "RayBackend", "make_backend"]
