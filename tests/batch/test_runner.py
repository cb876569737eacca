"""The batch runner: trail + results file exactly once, resume, recovery, failures, summary."""

from __future__ import annotations

from pathlib import Path

import pytest

from auditor.errors import DataError, UsageError
from services.batch import JsonlSource
from services.batch.output import ResultsFile
from services.batch.summary import BatchSummary, Row

ROWS = [
    {
        "id": "a",
        "text": "Metformin is used to treat type 2 diabetes.",
        "domain": "medical",
        "as_of": "2025-01-15",
    },
    {
        "id": "b",
        "text": "Roe v. Wade was decided in 1971.",
        "domain": "legal",
        "as_of": "2025-01-15",
    },
    b'{"id": "c", "text": "truncated',
    {
        "id": "d",
        "text": "The Sarbanes-Oxley Act was enacted in 2002.",
        "domain": "finance",
        "as_of": "2025-01-15",
        "metadata": {"ticket": 4},
    },
    {"id": "e", "text": "Aspirin.", "domain": "cardiology"},
]


def test_every_record_once_in_trail_and_results(
    write_jsonl, run_inline, trail, results, trail_ids, tmp_path: Path
) -> None:
    summary = run_inline(JsonlSource(write_jsonl(ROWS)))
    lines = results(tmp_path / "out.jsonl")
    assert [e["id"] for e in lines] == ["a", "b", "sha256:" + lines[2]["id"][7:], "d", "e"]
    assert [e["status"] for e in lines] == ["ok", "ok", "error", "ok", "error"]
    assert "not valid JSON" in lines[2]["error"] and "unknown domain" in lines[4]["error"]
    assert sorted(trail_ids(trail)) == ["a", "b", "d"]
    stored = trail.find_by_external_id("d", tenant="default")
    ok = {e["id"]: e for e in lines if e["status"] == "ok"}
    assert stored["result"] == ok["d"]["result"] and stored["id"] == ok["d"]["audit_id"]
    assert stored["source"] == "batch" and stored["metadata"] == {"ticket": 4}
    assert stored["request"] == {"domain": "finance", "as_of": "2025-01-15", "citations": None}
    assert (summary.total, summary.audited, summary.failed) == (5, 3, 2)
    assert ok["b"]["result"]["counts"]["contradicted"] == 1
    assert trail.verify().ok


def test_rerun_skips_what_is_done(write_jsonl, run_inline, trail, results, tmp_path) -> None:
    src = JsonlSource(write_jsonl(ROWS))
    first = run_inline(src)
    seq = trail.count()
    second = run_inline(src)
    assert trail.count() == seq
    assert len(results(tmp_path / "out.jsonl")) == 5
    assert (second.audited, second.skipped, second.failed) == (0, 5, 0)
    assert second.to_dict()["fer"] == first.to_dict()["fer"]
    assert len(second.failures) == 2


def test_recorded_but_not_written_is_recovered_once(
    write_jsonl, run_inline, trail, auditor_obj, results, trail_ids, tmp_path
) -> None:
    # A kill after trail.record() and before the results line: the trail has "b", the
    # file does not, and its last line is cut in half.
    src = JsonlSource(write_jsonl(ROWS[:2]))
    run_inline(src)
    out = tmp_path / "out.jsonl"
    lines = out.read_bytes().splitlines(keepends=True)
    out.write_bytes(lines[0] + lines[1][:40])
    summary = run_inline(src)
    got = results(out)
    assert [e["id"] for e in got] == ["a", "b"]
    assert got[1]["recovered"] is True and summary.recovered == 1 and summary.audited == 0
    assert sorted(trail_ids(trail)) == ["a", "b"]
    assert got[1]["audit_id"] == trail.find_by_external_id("b", tenant="default")["id"]
    # the cut is reported, once: the rerun found a whole file
    assert summary.repaired_bytes == 40 and summary.to_dict()["repaired_bytes"] == 40
    assert "cut a partial last line (40 bytes)" in summary.render()
    assert run_inline(src).repaired_bytes == 0


def test_id_reused_for_other_content_is_a_failure(
    write_jsonl, run_inline, trail, results, tmp_path
) -> None:
    run_inline(JsonlSource(write_jsonl(ROWS[:1])), out=tmp_path / "one.jsonl")
    changed = dict(ROWS[0], text="Metformin is not used to treat type 2 diabetes.")
    summary = run_inline(JsonlSource(write_jsonl([changed], "changed.jsonl")))
    (line,) = results(tmp_path / "out.jsonl")
    assert line["status"] == "error" and "already used" in line["error"]
    assert summary.failed == 1 and trail.count() == 1


def test_duplicate_ids_in_the_input(write_jsonl, run_inline, results, tmp_path) -> None:
    summary = run_inline(JsonlSource(write_jsonl([ROWS[0], ROWS[0]])))
    assert len(results(tmp_path / "out.jsonl")) == 1
    assert summary.duplicates == 1 and "duplicate id" in summary.failures[0].error


def test_retry_failed(write_jsonl, run_inline, results, tmp_path) -> None:
    run_inline(JsonlSource(write_jsonl([ROWS[4]])))
    fixed = dict(ROWS[4], domain="medical")
    summary = run_inline(JsonlSource(write_jsonl([fixed], "fixed.jsonl")), retry_failed=True)
    (line,) = results(tmp_path / "out.jsonl")
    assert line["status"] == "ok" and summary.audited == 1


def test_default_domain_and_tenant(write_jsonl, run_inline, trail) -> None:
    row = {"id": "n", "text": "Metformin is used to treat type 2 diabetes."}
    run_inline(JsonlSource(write_jsonl([row])), default_domain="medical", tenant="acme")
    stored = trail.find_by_external_id("n", tenant="acme")
    assert stored["domain"] == "medical" and stored["request"]["domain"] == "medical"
    assert trail.find_by_external_id("n", tenant="default") is None


def test_results_file_that_is_not_ours_is_refused(tmp_path: Path) -> None:
    (tmp_path / "x.jsonl").write_text('{"id": 1}\nnot json\n')
    with pytest.raises(DataError, match="line 1"):
        ResultsFile(tmp_path / "x.jsonl").load()


def test_summary_distribution() -> None:
    s = BatchSummary(source="t")
    for i, (fer, con, chk) in enumerate(
        [(0.0, 0, 4), (0.1, 1, 10), (0.5, 1, 2), (1.0, 2, 2), (None, 0, 0)]
    ):
        s.add(Row("ok", "medical", fer, con, chk, None, id=str(i)), new=True)
    s.add(Row("error", None, None, 0, 0, None, "x:1", "bad", "z"), new=True)
    d = s.to_dict()
    assert d["fer"]["pooled"] == pytest.approx(4 / 18)
    assert d["fer"]["histogram"] == {
        "0%": 1,
        "0-10%": 1,
        "10-25%": 0,
        "25-50%": 1,
        "50-100%": 1,
        "n/a": 1,
    }
    assert d["fer"]["p50"] == pytest.approx(0.3) and d["fer"]["max"] == 1.0
    assert (d["records"], d["ok"], d["failed"]) == (6, 5, 1)
    assert s.over(0.4) == 2
    assert "FAILED x:1 [z]: bad" in s.render(gate=0.4)


def test_flag_at_fpr_adds_a_calibrated_flag(write_jsonl, run_inline, results, tmp_path) -> None:
    from auditor.risk import load_model

    assert load_model() is not None, "auditor/risk/model.json must ship with the code"
    run_inline(JsonlSource(write_jsonl(ROWS[:2])), flag_at_fpr=0.05)
    lines = results(tmp_path / "out.jsonl")
    assert all({"risk", "flagged", "flag_fpr"} <= line["result"].keys() for line in lines)
    assert lines[1]["result"]["flagged"] is True  # it has a contradicted claim


def test_flag_at_fpr_without_a_risk_model_stops_before_auditing(
    write_jsonl, run_inline, trail, tmp_path, monkeypatch
) -> None:
    monkeypatch.setattr("auditor.risk.load_model", lambda *a, **k: None)
    with pytest.raises(UsageError, match="needs the calibrated risk model"):
        run_inline(JsonlSource(write_jsonl(ROWS[:2])), flag_at_fpr=0.05)
    assert trail.count() == 0 and not (tmp_path / "out.jsonl").exists()


def test_a_record_the_trail_refuses_fails_alone(
    write_jsonl, auditor_obj, trail, results, trail_ids, tmp_path
) -> None:
    from services.batch import InlineBackend, run_batch
    from services.batch.runner import BatchOptions
    from trail import append_many

    groups: list[int] = []

    def refusing(pendings: list) -> list:
        groups.append(len(pendings))
        if any(p.external_id == "b" for p in pendings):
            raise DataError("refused by the trail")
        return append_many(trail, pendings)

    run_batch(
        JsonlSource(write_jsonl(ROWS)),
        out=tmp_path / "out.jsonl",
        trail=trail,
        backend=InlineBackend(audit_fn=auditor_obj.audit),
        options=BatchOptions(progress=False),
        append_fn=refusing,
    )
    lines = {e["id"]: e for e in results(tmp_path / "out.jsonl")}
    assert groups[0] == 3  # a, b and d in one transaction first
    assert lines["b"]["status"] == "error" and "refused by the trail" in lines["b"]["error"]
    assert lines["a"]["status"] == lines["d"]["status"] == "ok"
    assert sorted(trail_ids(trail)) == ["a", "d"]
