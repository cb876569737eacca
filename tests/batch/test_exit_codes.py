"""Exit codes of ``kgaudit batch`` beyond the gate: every record failed, Ctrl-C."""

from __future__ import annotations

from pathlib import Path

import pytest

from auditor.errors import (
    EXIT_GATE,
    EXIT_INTERNAL,
    DataError,
    GateFailed,
    InternalError,
    KgauditError,
    UsageError,
)
from services.cli.main import EXIT_INPUT, EXIT_INTERRUPTED, main


def test_each_error_class_carries_its_exit_status() -> None:
    """One table of exit statuses: the CLI returns the raised class's ``exit_code``."""
    assert (EXIT_GATE, EXIT_INPUT, EXIT_INTERNAL) == (1, 2, 3)
    assert GateFailed.exit_code == EXIT_GATE
    assert UsageError.exit_code == DataError.exit_code == EXIT_INPUT
    assert KgauditError.exit_code == InternalError.exit_code == EXIT_INTERNAL


def test_a_batch_in_which_every_record_failed_exits_2(
    capsys, write_jsonl, db_url: str, tmp_path: Path
) -> None:
    src = write_jsonl([b'{"id": "a", "text": ', {"id": "b", "txt": "typo"}])
    argv = ["batch", str(src), "--out", str(tmp_path / "o.jsonl"), "--db", db_url]
    code = main([*argv, "--workers", "0", "--no-progress"])
    out, err = capsys.readouterr()
    assert code == EXIT_INPUT == 2
    assert "failed 2" in out
    assert err == "error: every record of the batch failed (2 of 2); see the failures above\n"
    assert main([*argv, "--workers", "0", "--no-progress"]) == 2  # a rerun says the same


def test_a_batch_with_one_good_record_exits_0(
    capsys, write_jsonl, db_url: str, tmp_path: Path
) -> None:
    src = write_jsonl([b"{broken", {"id": "ok", "text": "Metformin treats type 2 diabetes."}])
    argv = ["batch", str(src), "--out", str(tmp_path / "o.jsonl"), "--db", db_url]
    assert main([*argv, "--workers", "0", "--no-progress"]) == 0


def test_ctrl_c_exits_130(capsys, monkeypatch: pytest.MonkeyPatch, write_jsonl, db_url, tmp_path):
    def interrupted(*args: object, **kwargs: object) -> None:
        raise KeyboardInterrupt

    monkeypatch.setattr("services.batch.runner.run_batch", interrupted)
    src = write_jsonl([{"id": "ok", "text": "Metformin treats type 2 diabetes."}])
    code = main(["batch", str(src), "--out", str(tmp_path / "o.jsonl"), "--db", db_url])
    assert code == EXIT_INTERRUPTED == 130
    assert capsys.readouterr().err.endswith("Interrupted.\n")


@pytest.mark.parametrize(
    "argv",
    [
        ["batch", "{dir}", "--out", "{dir}/o.jsonl", "--workers", "0"],
        ["audit", "{dir}", "--domain", "medical"],
    ],
    ids=["batch", "audit"],
)
def test_a_directory_as_input_is_named_as_one(capsys, tmp_path: Path, argv: list[str]) -> None:
    code = main([a.replace("{dir}", str(tmp_path)) for a in argv])
    err = capsys.readouterr().err
    assert code == 2
    assert err == f"error: input {tmp_path} is a directory, not a file; " + (
        "give a JSONL or CSV file\n"
        if argv[0] == "batch"
        else "give a file, or - for standard input\n"
    )
