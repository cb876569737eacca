"""The end-of-run summary: counts, the FER distribution, per-domain figures and failures.

The summary covers every record of the input, including those an earlier (interrupted) run
already wrote to the results file, so a resumed run ends with the same summary as an
uninterrupted one. The gate (``--fail-over-fer``) compares the pooled FER of the batch —
contradicted / (supported + contradicted) over all its claims — with the threshold.

>>> s = BatchSummary(source="x")
>>> for fer, con, chk in [(0.0, 0, 3), (0.5, 1, 2), (None, 0, 0)]:
...     s.add(Row("ok", "medical", fer, con, chk, None), new=True)
>>> round(s.pooled_fer(), 3), s.fer_quantiles()["p50"]
(0.2, 0.25)
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from typing import Any, NamedTuple

from auditor.fmt import pct

FER_BINS: tuple[tuple[str, float, float], ...] = (
    ("0%", 0.0, 0.0),
    ("0-10%", 0.0, 0.1),
    ("10-25%", 0.1, 0.25),
    ("25-50%", 0.25, 0.5),
    ("50-100%", 0.5, 1.0),
)
QUANTILES = {"p50": 0.5, "p90": 0.9, "p95": 0.95, "p99": 0.99}
SHOW_FAILURES = 20


class Row(NamedTuple):
    """What the summary needs of one results-file line."""

    status: str  # ok | error
    domain: str | None
    fer: float | None
    contradicted: int
    checked: int  # supported + contradicted
    joint: float | None
    location: str = ""
    error: str | None = None
    id: str = ""


def row_of(entry: dict[str, Any]) -> Row:
    """The summary row of a results-file line (``KeyError``/``TypeError`` if it is not one)."""
    if not isinstance(entry["id"], str):
        raise TypeError("string id")
    if entry.get("status") != "ok":
        return Row(
            "error",
            None,
            None,
            0,
            0,
            None,
            entry.get("location", ""),
            entry.get("error"),
            entry["id"],
        )
    r = entry["result"]
    counts = r.get("counts") or {}
    con = int(counts.get("contradicted", 0))
    return Row(
        "ok",
        r.get("domain"),
        r.get("fer"),
        con,
        con + int(counts.get("supported", 0)),
        r.get("joint_score"),
        entry.get("location", ""),
        None,
        entry["id"],
    )


def quantile(sorted_values: list[float], q: float) -> float | None:
    """Linear-interpolation quantile of already sorted values (numpy's default)."""
    if not sorted_values:
        return None
    pos = (len(sorted_values) - 1) * q
    lo = int(pos)
    hi = min(lo + 1, len(sorted_values) - 1)
    return sorted_values[lo] + (sorted_values[hi] - sorted_values[lo]) * (pos - lo)


def _bin(fer: float) -> str:
    if fer == 0.0:
        return FER_BINS[0][0]
    return next(name for name, lo, hi in FER_BINS[1:] if lo < fer <= hi or hi == 1.0)


@dataclass
class BatchSummary:
    source: str
    total: int = 0
    audited: int = 0  # audited and recorded by this run
    recovered: int = 0  # recorded by an interrupted run, written to the results file now
    skipped: int = 0  # already in the results file
    failed: int = 0  # failures written by this run
    duplicates: int = 0
    repaired_bytes: int = 0  # a partial last line (a kill mid-write) cut from the results file
    elapsed_s: float = 0.0
    startup_s: float = 0.0  # until every worker had loaded the graphs
    worker_cpu_s: float = 0.0  # CPU the workers spent auditing this run's records
    rows: list[Row] = field(default_factory=list)
    failures: list[Row] = field(default_factory=list)

    def add(self, row: Row, *, new: bool) -> None:
        self.total += 1
        self.rows.append(row)
        if row.status == "error":
            self.failures.append(row)
            self.failed += new

    def ok_rows(self) -> list[Row]:
        return [r for r in self.rows if r.status == "ok"]

    def pooled_fer(self, domain: str | None = None) -> float | None:
        rows = [r for r in self.ok_rows() if domain is None or r.domain == domain]
        checked = sum(r.checked for r in rows)
        return sum(r.contradicted for r in rows) / checked if checked else None

    def fer_quantiles(self) -> dict[str, float | None]:
        fers = sorted(r.fer for r in self.ok_rows() if r.fer is not None)
        out = {k: quantile(fers, q) for k, q in QUANTILES.items()}
        out["mean"] = sum(fers) / len(fers) if fers else None
        out["max"] = fers[-1] if fers else None
        return out

    def fer_histogram(self) -> dict[str, int]:
        c = Counter(_bin(r.fer) for r in self.ok_rows() if r.fer is not None)
        hist = {name: c[name] for name, _, _ in FER_BINS}
        hist["n/a"] = sum(1 for r in self.ok_rows() if r.fer is None)
        return hist

    def domains(self) -> dict[str, dict[str, Any]]:
        names = sorted({r.domain or "?" for r in self.ok_rows()})
        return {
            d: {
                "records": sum(1 for r in self.ok_rows() if (r.domain or "?") == d),
                "fer": self.pooled_fer(d),
            }
            for d in names
        }

    def over(self, gate: float) -> int:
        return sum(1 for r in self.ok_rows() if r.fer is not None and r.fer > gate)

    def to_dict(self) -> dict[str, Any]:
        return {
            "source": self.source,
            "records": self.total,
            "ok": len(self.ok_rows()),
            "audited": self.audited,
            "recovered": self.recovered,
            "skipped": self.skipped,
            "failed": len(self.failures),
            "failed_this_run": self.failed,
            "duplicates": self.duplicates,
            "repaired_bytes": self.repaired_bytes,
            "elapsed_s": round(self.elapsed_s, 3),
            "startup_s": round(self.startup_s, 3),
            "worker_cpu_s": round(self.worker_cpu_s, 3),
            "fer": {
                "pooled": self.pooled_fer(),
                **self.fer_quantiles(),
                "histogram": self.fer_histogram(),
            },
            "domains": self.domains(),
            "failures": [
                {"id": r.id, "location": r.location, "error": r.error} for r in self.failures
            ],
        }

    def render(self, *, gate: float | None = None) -> str:
        q = self.fer_quantiles()
        busy = self.elapsed_s - self.startup_s
        rate = self.audited / busy if busy > 0 else 0.0
        lines = [
            f"kgaudit batch — {self.total:,} records from {self.source}",
            f"  ok {len(self.ok_rows()):,}: audited now {self.audited:,}, recovered from the "
            f"trail {self.recovered:,}, already in the results {self.skipped:,}",
            f"  failed {len(self.failures):,}"
            + (f" ({self.failed:,} this run)" if self.failed != len(self.failures) else "")
            + (f"; duplicate ids skipped {self.duplicates:,}" if self.duplicates else ""),
            *([_repaired(self.repaired_bytes)] if self.repaired_bytes else []),
            f"  FER pooled {pct(self.pooled_fer())}  mean {pct(q['mean'])}  "
            f"p50 {pct(q['p50'])}  p90 {pct(q['p90'])}  p95 {pct(q['p95'])}  "
            f"p99 {pct(q['p99'])}  max {pct(q['max'])}",
            "  FER histogram: " + "  ".join(f"{k} {v:,}" for k, v in self.fer_histogram().items()),
        ]
        for d, v in self.domains().items():
            noun = "record" if v["records"] == 1 else "records"
            lines.append(f"  {d}: {v['records']:,} {noun}, FER {pct(v['fer'])}")
        if gate is not None:
            lines.append(
                f"  gate --fail-over-fer {gate}: pooled FER {pct(self.pooled_fer())}; "
                f"{self.over(gate):,} records above it"
            )
        for r in self.failures[:SHOW_FAILURES]:
            lines.append(f"  FAILED {r.location} [{r.id}]: {r.error}")
        if len(self.failures) > SHOW_FAILURES:
            lines.append(
                f"  ... and {len(self.failures) - SHOW_FAILURES:,} more failures "
                '(lines with "status": "error" in the results file)'
            )
        if self.audited:
            lines.append(
                f"  {self.elapsed_s:,.1f} s (workers ready after "
                f"{self.startup_s:,.1f} s), {rate:,.1f} records/s audited"
            )
        else:
            lines.append(f"  {self.elapsed_s:,.1f} s; nothing was left to audit")
        return "\n".join(lines)


def _repaired(n: int) -> str:
    return (
        f"  repaired the results file: cut a partial last line ({n:,} bytes) left by an "
        "interrupted run; its record is recovered from the trail or audited again"
    )


__all__ = ["FER_BINS", "BatchSummary", "Row", "quantile", "row_of"]
