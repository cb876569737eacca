"""Batch audits of stored transcripts: JSONL chats or records, CSV, SQL; local or on Ray.

>>> from pathlib import Path
>>> from services.batch import BatchOptions, make_backend, open_source, run_batch
>>> from trail import Trail
>>> trail = Trail("sqlite:///trail.db"); trail.migrate()                # doctest: +SKIP
>>> summary = run_batch(open_source(Path("chats.jsonl")), out=Path("results.jsonl"),
...                     trail=trail, backend=make_backend("local", 2))
...                                                                      # doctest: +SKIP
>>> summary.pooled_fer()                                                 # doctest: +SKIP

The CLI is ``kgaudit batch`` (:mod:`services.cli.batch`); ``kgaudit bench batch`` measures
throughput (:mod:`measure.bench.batch`). See ``docs/batch.md``.
"""

from services.batch.backends import InlineBackend, LocalBackend, RayBackend, make_backend
from services.batch.records import BatchRecord
from services.batch.runner import BatchOptions, run_batch
from services.batch.sources import CsvSource, JsonlSource, SqlSource, open_source
from services.batch.summary import BatchSummary

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
