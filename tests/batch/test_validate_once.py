"""Validate once (issue 29, item 3) on the batch path: the reader checks each record's text and
metadata under the settings' limits and parses ``as_of`` once; the worker does not check them
again, hands the auditor the parsed date and computes the request's digest once."""

from __future__ import annotations

import importlib
import json
import pickle
from collections.abc import Iterator
from datetime import date
from pathlib import Path
from typing import Any

import pytest

from services.batch import BatchOptions, BatchRecord, InlineBackend, run_batch
from services.batch.records import flat_record
from services.batch.sources import open_source
from services.batch.worker import Task, Worker, WorkerConfig
from trail import Trail
from trail.testing import fake_audit

from .conftest import read_results

# the modules (``trail.append`` is also the name of a function the package exports)
APPEND, METADATA, RECORDS = (
    importlib.import_module(f"trail.{m}") for m in ("append", "metadata", "records")
)

CHAT = {
    "id": "c1",
    "domain": "medical",
    "as_of": "2026-01-15",
    "metadata": {"channel": "web"},
    "messages": [
        {"role": "user", "content": "Is aspirin an NSAID?"},
        {"role": "assistant", "content": "Aspirin is an NSAID."},
        {"role": "user", "content": "And ibuprofen?"},
        {"role": "assistant", "content": "Ibuprofen is an NSAID."},
    ],
}
FLAT = [
    {
        "id": "a",
        "text": "Aspirin is an NSAID.",
        "domain": "medical",
        "as_of": "2026-01-15",
        "metadata": {"ticket": 1},
    },
    {"id": "b", "text": "Ibuprofen is an NSAID.", "as_of": "2026-01-15", "metadata": {"ticket": 2}},
]


class Calls:
    """Counts the trail's checks and digests, and what the auditor was handed."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch) -> None:
        self.metadata = self.digest = 0
        self.texts: list[str] = []
        self.as_of: list[Any] = []
        check_text, check_metadata = RECORDS.check_text, METADATA.check_metadata
        digest = APPEND.request_digest

        def counted_text(text: str, what: str = "text") -> str:
            if what == "text":
                self.texts.append(text)
            return check_text(text, what)

        def counted_metadata(value: Any, **kw: Any) -> dict[str, Any]:
            self.metadata += 1
            return check_metadata(value, **kw)

        def counted_digest(*args: Any) -> str:
            self.digest += 1
            return digest(*args)

        monkeypatch.setattr(RECORDS, "check_text", counted_text)
        monkeypatch.setattr(APPEND, "check_text", counted_text)
        monkeypatch.setattr(METADATA, "check_metadata", counted_metadata)
        monkeypatch.setattr(APPEND, "request_digest", counted_digest)

    def audit(self, text: str, **kw: Any) -> Any:
        self.as_of.append(kw.get("as_of"))
        return fake_audit(text, **kw)


def _write(path: Path, rows: list[dict[str, Any]]) -> Path:
    path.write_text("".join(json.dumps(r) + "\n" for r in rows), encoding="utf-8")
    return path


def _task(r: BatchRecord) -> Task:
    """The task the runner makes of ``r``."""
    return Task(
        r.id, r.text or "", r.domain or "auto", r.as_of, r.citations, r.metadata, r.day, r.checked
    )


def _run(source: Any, out: Path, trail: Trail, audit_fn: Any) -> Any:
    return run_batch(
        source,
        out=out,
        trail=trail,
        backend=InlineBackend(audit_fn=audit_fn),
        options=BatchOptions(progress=False),
    )


def test_a_flat_record_is_checked_once_and_its_as_of_parsed_once(
    tmp_path: Path, trail: Trail, monkeypatch: pytest.MonkeyPatch
) -> None:
    calls = Calls(monkeypatch)
    summary = _run(
        open_source(_write(tmp_path / "in.jsonl", FLAT)), tmp_path / "o", trail, calls.audit
    )
    assert summary.audited == 2 and trail.verify().ok
    assert calls.metadata == 2  # one check per record (the reader's), none in the worker
    assert sorted(calls.texts) == sorted(r["text"] for r in FLAT)  # the trail's text check, once
    assert calls.digest == 2  # one digest per record
    assert calls.as_of == [date(2026, 1, 15)] * 2  # the reader's parse, handed on as a date
    stored = trail.find_by_external_id("b", tenant="default")
    assert stored is not None and stored["request"] == {
        "domain": "auto",
        "as_of": "2026-01-15",
        "citations": None,
    }


def test_a_conversation_is_checked_once_per_turn(
    tmp_path: Path, trail: Trail, monkeypatch: pytest.MonkeyPatch
) -> None:
    calls = Calls(monkeypatch)
    summary = _run(
        open_source(_write(tmp_path / "in.jsonl", [CHAT])), tmp_path / "o", trail, calls.audit
    )
    assert summary.audited == 2
    # the conversation's own metadata once, then each turn's (merged with its context) once
    assert calls.metadata == 1 + 2
    assert len(calls.texts) == 2 and calls.digest == 2
    assert calls.as_of == [date(2026, 1, 15)] * 2


def test_the_digest_is_the_one_an_unchecked_record_gets(tmp_path: Path, trail: Trail) -> None:
    """A record built by hand (not by a reader) is checked by the worker, as before; both
    paths store the same request, metadata and digest."""
    rec = flat_record(FLAT[0], "in.jsonl:1")
    assert rec.checked and rec.day == date(2026, 1, 15)
    by_hand = BatchRecord(
        rec.id, rec.location, rec.text, rec.domain, rec.as_of, rec.citations, rec.metadata
    )
    worker = Worker(WorkerConfig(), audit_fn=fake_audit)
    outs = [worker.run([_task(r)])[0] for r in (rec, by_hand)]
    assert [o.error for o in outs] == [None, None]
    a, b = (o.pending for o in outs)
    assert (a.request_sha256, a.request, a.metadata, a.digests) == (
        b.request_sha256,
        b.request,
        b.metadata,
        b.digests,
    )


def test_a_checked_task_crosses_a_process_boundary() -> None:
    """Tasks go to worker processes pickled: the parsed date and the mark travel with them."""
    rec = flat_record(FLAT[0], "in.jsonl:1")
    task = _task(rec)
    back = pickle.loads(pickle.dumps([task]))[0]
    assert back == task and back.day == date(2026, 1, 15) and back.checked
    out = Worker(WorkerConfig(), audit_fn=fake_audit).run([back])[0]
    assert out.error is None
    assert pickle.loads(pickle.dumps(out.pending)).request_sha256 == out.pending.request_sha256


@pytest.fixture
def metadata_limit(monkeypatch: pytest.MonkeyPatch) -> Iterator[Any]:
    from auditor.settings import get_settings

    def set_limit(n: int | None) -> None:
        if n is None:
            monkeypatch.delenv("KGAUDIT_MAX_METADATA_BYTES", raising=False)
        else:
            monkeypatch.setenv("KGAUDIT_MAX_METADATA_BYTES", str(n))
        get_settings.cache_clear()

    yield set_limit
    monkeypatch.delenv("KGAUDIT_MAX_METADATA_BYTES", raising=False)
    get_settings.cache_clear()


def test_100_kb_of_metadata_under_a_raised_limit_is_recorded_end_to_end(
    tmp_path: Path, trail: Trail, monkeypatch: pytest.MonkeyPatch, metadata_limit: Any
) -> None:
    metadata_limit(200_000)
    calls = Calls(monkeypatch)
    row = {"id": "big", "text": "Aspirin.", "domain": "medical", "metadata": {"b": "x" * 100_000}}
    summary = _run(
        open_source(_write(tmp_path / "in.jsonl", [row])), tmp_path / "o", trail, calls.audit
    )
    assert [r["status"] for r in read_results(tmp_path / "o")] == ["ok"] and summary.audited == 1
    stored = trail.find_by_external_id("big", tenant="default")
    assert stored is not None and stored["metadata"] == row["metadata"] and trail.verify().ok
    assert calls.metadata == 1


def test_100_kb_of_metadata_under_the_default_limit_is_refused_before_the_audit(
    tmp_path: Path, trail: Trail, monkeypatch: pytest.MonkeyPatch, metadata_limit: Any
) -> None:
    metadata_limit(None)
    calls = Calls(monkeypatch)
    rows = [{"id": "big", "text": "Aspirin.", "metadata": {"b": "x" * 100_000}}, FLAT[1]]
    summary = _run(
        open_source(_write(tmp_path / "in.jsonl", rows)), tmp_path / "o", trail, calls.audit
    )
    lines = {r["id"]: r for r in read_results(tmp_path / "o")}
    assert lines["big"]["status"] == "error" and "65,536" in lines["big"]["error"]
    assert lines["b"]["status"] == "ok" and summary.audited == 1
    assert len(calls.as_of) == 1  # only the good record was audited
    assert trail.count() == 1


def test_a_text_the_trail_would_refuse_is_refused_before_the_audit(
    tmp_path: Path, trail: Trail
) -> None:
    """Same id and words as when the trail refused it after the audit; the audit never runs."""
    rec = flat_record({"id": "s", "text": "Aspirin \ud800 is an NSAID."}, "sql:row 1")
    assert rec.id == "s" and rec.error == (
        "cannot be recorded in the audit trail: text is not valid Unicode (unpaired surrogate)"
    )
    audited: list[str] = []

    def audit(text: str, **kw: Any) -> Any:
        audited.append(text)
        return fake_audit(text, **kw)

    _run(iter([rec, flat_record(FLAT[0], "sql:row 2")]), tmp_path / "o", trail, audit)
    assert audited == [FLAT[0]["text"]] and trail.count() == 1
    assert {r["id"]: r["status"] for r in read_results(tmp_path / "o")} == {"s": "error", "a": "ok"}


def test_counting_the_input_does_not_check_its_records(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The progress bar's total reads the input without checking each record (that is the
    reading's job, once), and is the number of records the reading yields."""
    bad_settings = {**CHAT, "id": "c2", "as_of": "someday"}
    no_answer = {"id": "c3", "messages": [{"role": "user", "content": "hi"}]}
    bad_role = {"id": "c4", "messages": [{"role": "robot", "content": "x"}, *CHAT["messages"]]}
    path = _write(tmp_path / "in.jsonl", [*FLAT, CHAT, bad_settings, no_answer, bad_role])
    with path.open("ab") as f:
        f.write(b"not json\n[1, 2]\n")
    csv = tmp_path / "in.csv"
    csv.write_text("id,text,note\n1,Aspirin.,a\n\n2,Ibuprofen.\n3,x,y\n", encoding="utf-8")
    calls = Calls(monkeypatch)
    counts = [open_source(p).count() for p in (path, csv)]
    assert calls.metadata == 1 and calls.texts == []  # only CHAT's settings, not a record
    assert counts == [len(list(open_source(p))) for p in (path, csv)] == [2 + 2 + 1 + 1 + 3 + 2, 3]
