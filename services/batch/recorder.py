"""The driver's write path: append finished records to the trail, then to the results file.

Records arrive in input order, in groups (whatever finished at the head of the queue). A
group is appended in one transaction (``append_many``); if that fails on a bad record, the
group is appended one by one so only the bad record fails. Then each record gets its line.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from auditor.errors import InternalError, KgauditError
from services.batch.output import ResultsFile
from services.batch.records import BatchRecord
from services.batch.summary import BatchSummary, row_of
from services.batch.worker import Outcome

# appends prepared records in one transaction: [Pending] -> [(RecordedAudit, dict | None)]
AppendFn = Callable[[Sequence[Any]], list[tuple[Any, Any]]]


class Recorder:
    """Append finished outcomes to the trail (one transaction per group), then write them."""

    def __init__(
        self,
        trail: Any,
        append_fn: AppendFn,
        tenant: str,
        results: ResultsFile,
        summary: BatchSummary,
    ) -> None:
        self.trail, self.append_fn, self.tenant = trail, append_fn, tenant
        self.results, self.summary = results, summary

    def failure(self, rec: BatchRecord, error: str) -> None:
        self._write({"id": rec.id, "status": "error", "location": rec.location, "error": error})

    def outcomes(self, items: list[tuple[BatchRecord, Outcome]]) -> None:
        """Record ``items`` (in input order) in the trail, then write one line each."""
        ok = [o.pending for _, o in items if o.error is None and o.pending is not None]
        appended = iter(self._append(ok))
        for rec, o in items:
            if o.error is not None or o.pending is None:
                self.failure(rec, o.error or "the auditor returned no result")
                continue
            stored = next(appended)
            if isinstance(stored, KgauditError):
                self.failure(rec, f"cannot be recorded in the audit trail: {stored}")
            else:
                self._recorded(rec, o.pending, stored[0])

    def _append(self, pendings: list[Any]) -> list[Any]:
        """``append_fn`` over all of them; if that fails, one by one, to find the bad ones."""
        from sqlalchemy.exc import SQLAlchemyError

        try:
            try:
                return self.append_fn(pendings) if pendings else []
            except KgauditError:
                if len(pendings) == 1:
                    raise
            out: list[Any] = []
            for p in pendings:
                try:
                    out += self.append_fn([p])
                except KgauditError as exc:
                    out.append(exc)
            return out
        except KgauditError as exc:
            return [exc]
        except SQLAlchemyError as exc:
            raise InternalError(
                f"the audit trail cannot be written ({type(exc).__name__}); "
                "everything recorded so far is kept: rerun to resume"
            ) from exc

    def _recorded(self, rec: BatchRecord, pending: Any, stored: Any) -> None:
        from trail.canonical import format_timestamp

        result, created_at = pending.result, format_timestamp(stored.created_at)
        if stored.created:
            self.summary.audited += 1
        else:
            found = self._replayed(rec, pending, stored)
            if found is None:
                return
            result, created_at = found["result"], found["created_at"]
            self.summary.recovered += 1
        self._write(
            {
                "id": rec.id,
                "status": "ok",
                "location": rec.location,
                "audit_id": stored.id,
                "seq": stored.seq,
                "hash": stored.hash,
                "created_at": created_at,
                "recovered": not stored.created,
                "metadata": rec.metadata,
                "result": result,
            }
        )

    def _replayed(self, rec: BatchRecord, pending: Any, stored: Any) -> dict[str, Any] | None:
        """The stored audit of an id recorded earlier, if it is really this record."""
        if pending.request_sha256 != stored.request_sha256:
            self.failure(
                rec,
                f"id {rec.id!r} was already used in tenant {self.tenant!r} for "
                f"different content (audit {stored.id}); give this record a new id",
            )
            return None
        found = self.trail.find_by_external_id(rec.id, tenant=self.tenant)
        if found is None:  # pragma: no cover - append() just returned it
            raise InternalError(f"audit {stored.id} vanished from the trail")
        return found

    def _write(self, entry: dict[str, Any]) -> None:
        try:
            self.results.append(entry)
        except (TypeError, ValueError, RecursionError) as exc:  # a line that cannot be JSON
            entry = {
                "id": entry["id"],
                "status": "error",
                "location": entry.get("location"),
                "error": "the result cannot be written to the results file "
                f"({type(exc).__name__}); audit {entry.get('audit_id')} is in the trail",
            }
            self.results.append(entry)
        self.summary.add(row_of(entry), new=True)


__all__ = ["AppendFn", "Recorder"]
