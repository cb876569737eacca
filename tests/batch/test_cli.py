"""``kgaudit batch`` end to end in this process: exit codes, messages, the summary."""

from __future__ import annotations

from pathlib import Path

import orjson
import pytest

from services.cli.main import main

CSV_MAP = [
    "--map",
    "id=ticket",
    "--map",
    "domain=dept",
    "--map",
    "as_of=said_on",
    "--map",
    "text=answer",
    "--map",
    "citations=sources",
    "--map",
    "context=question",
]


def _batch(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    code = main(["batch", *args, "--workers", "0", "--no-progress"])
    out, err = capsys.readouterr()
    return code, out, err


def test_csv_batch_with_gate(capsys, examples_dir: Path, db_url: str, tmp_path: Path) -> None:
    out = tmp_path / "res.jsonl"
    code, stdout, err = _batch(
        capsys,
        str(examples_dir / "answers.csv"),
        *CSV_MAP,
        "--out",
        str(out),
        "--db",
        db_url,
        "--json",
        "--fail-over-fer",
        "0.2",
    )
    assert code == 1, err
    assert "error: the batch's factual error rate" in err and "above the gate 0.2" in err
    summary = orjson.loads(stdout)
    assert summary["records"] == 5 and summary["audited"] == 5
    assert summary["fer"]["pooled"] > 0.2
    code, stdout, err = _batch(
        capsys,
        str(examples_dir / "answers.csv"),
        *CSV_MAP,
        "--out",
        str(out),
        "--db",
        db_url,
        "--fail-over-fer",
        "0.99",
    )
    assert code == 0, err
    assert "already in the results 5" in stdout and "nothing was left to audit" in stdout


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["{empty}"], "is empty: there is nothing to audit"),
        (["{csv}", "--map", "text=answr"], "has no column 'answr'"),
        (["{csv}", "--ray-address", "auto"], "--ray-address needs --backend ray"),
        (["{csv}", "--map", "text=answer", "--flag-at-fpr", "0.05"], "--flag-at-fpr needs"),
        (["{missing}"], "does not exist"),
        (["--from-sql", "sqlite://"], "needs --query"),
    ],
    ids=["empty-file", "unknown-column", "ray-address", "flag-at-fpr", "missing", "sql-no-query"],
)
def test_bad_input_exits_2_with_one_sentence(
    capsys,
    monkeypatch: pytest.MonkeyPatch,
    examples_dir: Path,
    db_url: str,
    tmp_path: Path,
    args: list[str],
    message: str,
) -> None:
    if "--flag-at-fpr" in args:  # an installation without the calibrated risk model
        monkeypatch.setattr("auditor.risk.load_model", lambda *a, **k: None)
    (tmp_path / "empty.jsonl").write_bytes(b"")
    paths = {
        "{empty}": str(tmp_path / "empty.jsonl"),
        "{csv}": str(examples_dir / "answers.csv"),
        "{missing}": str(tmp_path / "missing.jsonl"),
    }
    code, _, err = _batch(
        capsys, *[paths.get(a, a) for a in args], "--out", str(tmp_path / "o.jsonl"), "--db", db_url
    )
    assert code == 2
    assert message in err and err.startswith("error: ") and err.count("\n") == 1
    assert not (tmp_path / "o.jsonl").exists()


def test_bad_records_do_not_stop_the_run(
    capsys, examples_dir: Path, db_url: str, tmp_path: Path
) -> None:
    out = tmp_path / "res.jsonl"
    code, stdout, _ = _batch(
        capsys, str(examples_dir / "transcripts_bad.jsonl"), "--out", str(out), "--db", db_url
    )
    assert code == 0
    lines = [orjson.loads(line) for line in out.read_bytes().splitlines()]
    assert [e["status"] for e in lines].count("ok") == 2 and len(lines) == 9
    assert "failed 7" in stdout and "is not valid utf-8" in stdout


def test_help_names_every_option(capsys) -> None:
    assert main(["batch", "--help"]) == 0
    text = capsys.readouterr().out
    for opt in (
        "--out",
        "--db",
        "--domain",
        "--workers",
        "--backend",
        "--ray-address",
        "--from-sql",
        "--query",
        "--map",
        "--fail-over-fer",
        "--flag-at-fpr",
    ):
        assert opt in text
