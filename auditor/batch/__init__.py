"""Batch audits of stored transcripts: JSONL chats or records, CSV, SQL; local or on Ray.

>>> from pathlib import Path
>>> from auditor.batch import BatchOptions, make_backend, open_source, run_batch
>>> from auditor.trail import Trail
>>> trail = Trail("sqlite:///trail.db"); trail.migrate()                # doctest: +SKIP
>>> summary = run_batch(open_source(Path("chats.jsonl")), out=Path("results.jsonl"),
...                     trail=trail, backend=make_backend("local", 2))
...                                                                      # doctest: +SKIP
>>> summary.pooled_fer()                                                 # doctest: +SKIP

The CLI is ``kgaudit batch`` (:mod:`auditor.batch.cli`); ``kgaudit bench batch`` measures
throughput (:mod:`auditor.batch.bench_batch`). See ``docs/batch.md``.
"""

from auditor.batch.backends import InlineBackend, LocalBackend, RayBackend, make_backend
from auditor.batch.records import BatchRecord
from auditor.batch.runner import BatchOptions, run_batch
from auditor.batch.sources import CsvSource, JsonlSource, SqlSource, open_source
from auditor.batch.summary import BatchSummary

__all__ = [
    "BatchOptions",
    "BatchRecord",
    "BatchSummary",
    "CsvSource",
    "InlineBackend",
    "JsonlSource",
    "LocalBackend",
    "RayBackend",
    "SqlSource",
    "make_backend",
    "open_source",
    "run_batch",
]
