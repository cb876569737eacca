"""The results file: append-only JSONL, one line per record id, safe to resume after a kill.

Each line is written with a single ``write`` on an ``O_APPEND`` descriptor right after the
audit is recorded in the trail, and ``fsync``-ed at most ``fsync_interval_s`` later (and at
the end). A process killed with SIGKILL leaves at most one partial last line; :meth:`load`
cuts it off, and the runner recovers that record from the trail (``recorded`` happens
before ``written``), so every record ends up exactly once in both.

Line shapes::

    {"id", "status": "ok", "location", "audit_id", "seq", "hash", "created_at", "recovered",
     "metadata", "result": <AuditResult.to_dict()>}
    {"id", "status": "error", "location", "error": "<one sentence>"}
"""

from __future__ import annotations

import os
import time
from pathlib import Path
from typing import Any

import orjson

from auditor.errors import DataError, UsageError
from services.batch.summary import Row, row_of


class ResultsFile:
    """Append entries to ``path``; read back what an earlier run already wrote."""

    def __init__(self, path: Path, *, fsync_interval_s: float = 1.0) -> None:
        self.path = path
        self.fsync_interval_s = fsync_interval_s
        self._fd: int | None = None
        self._last_sync = 0.0
        self._dirty = False
        self.repaired_bytes = 0

    def load(self) -> dict[str, Row]:
        """What the file already holds, by record id; a partial last line (a kill) is cut."""
        if not self.path.exists():
            return {}
        if self.path.is_dir():
            raise UsageError(f"--out {self.path} is a directory")
        data = self.path.read_bytes()
        end = data.rfind(b"\n") + 1
        if end < len(data):
            self.repaired_bytes = len(data) - end
            with self.path.open("r+b") as f:
                f.truncate(end)
                os.fsync(f.fileno())
            data = data[:end]
        out: dict[str, Row] = {}
        for lineno, line in enumerate(data.splitlines(), 1):
            if not line.strip():
                continue
            try:
                entry = orjson.loads(line)
            except orjson.JSONDecodeError as exc:
                raise DataError(
                    f"line {lineno} is not valid JSON ({exc.msg}); this is not a "
                    "kgaudit results file, or it was edited",
                    location=str(self.path),
                ) from exc
            try:
                row = row_of(entry)
            except (KeyError, TypeError, AttributeError, ValueError) as exc:
                raise DataError(
                    f"line {lineno} is not a kgaudit result (no {exc}); this is "
                    "not a kgaudit results file",
                    location=str(self.path),
                ) from exc
            out.setdefault(row.id, row)
        return out

    def drop_failures(self) -> int:
        """Rewrite the file without its ``error`` lines (``--retry-failed``); how many went."""
        if not self.path.exists():
            return 0
        keep: list[bytes] = []
        dropped = 0
        for line in self.path.read_bytes().splitlines(keepends=True):
            if line.strip() and orjson.loads(line).get("status") == "error":
                dropped += 1
            else:
                keep.append(line)
        if dropped:
            tmp = self.path.with_name(self.path.name + ".tmp")
            with tmp.open("wb") as f:
                f.writelines(keep)
                f.flush()
                os.fsync(f.fileno())
            tmp.replace(self.path)
        return dropped

    def append(self, entry: dict[str, Any]) -> None:
        if self._fd is None:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            self._fd = os.open(self.path, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o644)
        view = memoryview(orjson.dumps(entry) + b"\n")
        while view:
            view = view[os.write(self._fd, view) :]
        self._dirty = True
        now = time.monotonic()
        if now - self._last_sync >= self.fsync_interval_s:
            self.sync()
            self._last_sync = now

    def sync(self) -> None:
        if self._fd is not None and self._dirty:
            os.fsync(self._fd)
            self._dirty = False

    def close(self) -> None:
        if self._fd is not None:
            self.sync()
            os.close(self._fd)
            self._fd = None


__all__ = ["ResultsFile"]
