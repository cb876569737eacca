"""``kgaudit trail ...`` and ``kgaudit keys ...`` through the real entry point (exit codes)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from sqlalchemy import update

from auditor.settings import get_settings
from services.cli.main import main
from trail import Trail
from trail.models import Audit
from trail.testing import fake_result


@pytest.fixture
def cli_db(db_url: str, monkeypatch: pytest.MonkeyPatch) -> str:
    monkeypatch.setenv("KGAUDIT_DATABASE_URL", db_url)
    monkeypatch.setenv("KGAUDIT_CHECKPOINT_KEY", "Zq4mW8rT2vX6nB0cL5sH9dF3gJ7kP1yA")
    get_settings.cache_clear()
    yield db_url
    get_settings.cache_clear()


def test_verify_ok_then_broken_exit_codes(cli_db: str, capsys: pytest.CaptureFixture) -> None:
    trail = Trail(cli_db)
    ids = [trail.record(fake_result(), text=f"t{i}", tenant="acme").id for i in range(3)]
    assert main(["trail", "verify"]) == 0
    assert "ok: 3 records verified" in capsys.readouterr().out
    with trail.session(write=True) as s:
        s.execute(update(Audit).where(Audit.seq == 2).values(text="forged"))
    assert main(["trail", "verify"]) == 1
    captured = capsys.readouterr()
    assert f"BROKEN seq 2 (audit {ids[1]})" in captured.out
    assert "broken at seq 2" in captured.err
    assert main(["trail", "verify", "--json"]) == 1
    report = json.loads(capsys.readouterr().out)
    assert report["first_broken"]["audit_id"] == ids[1]


def test_checkpoint_export_and_verify_against_file(
    cli_db: str, tmp_path: Path, capsys: pytest.CaptureFixture
) -> None:
    trail = Trail(cli_db)
    trail.record(fake_result(), text="t", tenant="acme")
    out = tmp_path / "cp.json"
    assert main(["trail", "checkpoint", "--out", str(out)]) == 0
    cp = json.loads(out.read_text())
    assert cp["seq"] == 1 and json.loads(capsys.readouterr().out) == cp
    assert main(["trail", "verify", "--checkpoint", str(out)]) == 0
    tampered = tmp_path / "bad.json"
    tampered.write_text(json.dumps({**cp, "head_hash": "0" * 64}))
    assert main(["trail", "verify", "--checkpoint", str(tampered)]) == 1
    assert "invalid signature" in capsys.readouterr().out


def test_checkpoint_without_key_is_a_usage_error(
    cli_db: str, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture
) -> None:
    monkeypatch.delenv("KGAUDIT_CHECKPOINT_KEY")
    get_settings.cache_clear()
    assert main(["trail", "checkpoint"]) == 2
    assert "KGAUDIT_CHECKPOINT_KEY" in capsys.readouterr().err


def test_reaudit_and_diff_commands(
    cli_db: str, capsys: pytest.CaptureFixture, monkeypatch: pytest.MonkeyPatch
) -> None:
    trail = Trail(cli_db)
    rec = trail.record(fake_result(verdicts=("contradicted",)), text="t", tenant="acme")
    monkeypatch.setattr("auditor.audit", lambda text, **kw: fake_result(verdicts=("supported",)))
    assert main(["trail", "reaudit", rec.id, "--tenant", "acme", "--record"]) == 0
    out = capsys.readouterr().out
    assert "contradicted -> supported" in out and "recorded as audit" in out
    new_id = out.rsplit("recorded as audit ", 1)[1].split()[0]
    assert main(["trail", "diff", rec.id, new_id, "--tenant", "acme", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["changed"][0]["verdict"] == "supported"
    assert main(["trail", "reaudit", rec.id, "--tenant", "beta"]) == 2


def test_keys_commands(cli_db: str, capsys: pytest.CaptureFixture) -> None:
    assert main(["keys", "create", "--tenant", "acme", "--role", "viewer", "--name", "ci"]) == 0
    captured = capsys.readouterr()
    token = captured.out.strip()
    assert token.startswith("kga_") and "store it now" in captured.err
    assert main(["keys", "list"]) == 0
    listed = capsys.readouterr().out
    assert "acme\tviewer\tci\tactive" in listed and token not in listed
    key_id = listed.split("\t")[0]
    assert main(["keys", "revoke", key_id]) == 0
    assert main(["keys", "revoke", key_id]) == 2
    assert main(["keys", "create", "--tenant", "acme", "--role", "root"]) == 2


def test_every_command_has_help(capsys: pytest.CaptureFixture) -> None:
    for args in (
        ["trail"],
        ["trail", "verify"],
        ["trail", "checkpoint"],
        ["trail", "checkpoints"],
        ["trail", "reaudit"],
        ["trail", "diff"],
        ["trail", "migrate"],
        ["keys"],
        ["keys", "create"],
        ["keys", "list"],
        ["keys", "revoke"],
        ["serve"],
        ["bench", "api"],
    ):
        assert main([*args, "--help"]) == 0, args
        assert "Usage:" in capsys.readouterr().out
