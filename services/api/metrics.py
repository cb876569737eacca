"""Prometheus metrics of one app (its own registry, so several apps can live in one process).

With several uvicorn workers set ``PROMETHEUS_MULTIPROC_DIR`` (``kgaudit serve`` does) and
``/metrics`` aggregates every worker.
"""

from __future__ import annotations

import os

from prometheus_client import (
    CONTENT_TYPE_LATEST,
    CollectorRegistry,
    Counter,
    Histogram,
    generate_latest,
)

_BUCKETS = (0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0, 30.0)


class Metrics:
    content_type = CONTENT_TYPE_LATEST

    def __init__(self) -> None:
        self.multiprocess = bool(os.environ.get("PROMETHEUS_MULTIPROC_DIR"))
        self.registry = None if self.multiprocess else CollectorRegistry()
        kw = {"registry": self.registry}  # None in multiprocess mode: values go to files
        self.requests = Counter(
            "kgaudit_http_requests",
            "HTTP requests by route and status.",
            ["method", "route", "status"],
            **kw,
        )
        self.latency = Histogram(
            "kgaudit_http_request_duration_seconds",
            "HTTP request duration by route.",
            ["method", "route"],
            buckets=_BUCKETS,
            **kw,
        )
        self.audits = Counter(
            "kgaudit_audits_recorded", "Audits appended to the trail.", ["domain"], **kw
        )
        self.audit_seconds = Histogram(
            "kgaudit_audit_duration_seconds",
            "Time spent in audit() per request.",
            buckets=_BUCKETS,
            **kw,
        )
        self.record_seconds = Histogram(
            "kgaudit_trail_append_duration_seconds",
            "Time to append one audit to the trail.",
            buckets=_BUCKETS,
            **kw,
        )

    def observe_request(self, method: str, route: str, status: int, seconds: float) -> None:
        self.requests.labels(method, route, str(status)).inc()
        self.latency.labels(method, route).observe(seconds)

    def render(self) -> bytes:
        if self.multiprocess:
            from prometheus_client import multiprocess

            registry = CollectorRegistry()
            multiprocess.MultiProcessCollector(registry)
            return generate_latest(registry)
        return generate_latest(self.registry)


__all__ = ["Metrics"]
