"""Every command and subcommand answers --help, and every one is documented in the README."""

from __future__ import annotations

from pathlib import Path

import click
import pytest
from click.testing import CliRunner

from services.cli.main import _COMMANDS, cli

README = (Path(__file__).resolve().parents[2] / "README.md").read_text(encoding="utf-8")


def _walk(group: click.Group, ctx: click.Context, prefix: tuple[str, ...]):
    for name in group.list_commands(ctx):
        cmd = group.get_command(ctx, name)
        assert cmd is not None, f"{' '.join((*prefix, name))} cannot be loaded"
        path = (*prefix, name)
        yield path
        if isinstance(cmd, click.Group):
            yield from _walk(cmd, click.Context(cmd, info_name=name, parent=ctx), path)


def _all_commands() -> list[tuple[str, ...]]:
    ctx = click.Context(cli, info_name="kgaudit")
    return list(_walk(cli, ctx, ()))


@pytest.mark.parametrize("path", _all_commands(), ids=" ".join)
def test_every_command_has_help(path):
    res = CliRunner().invoke(cli, [*path, "--help"], prog_name="kgaudit")
    assert res.exit_code == 0, res.output
    assert "Usage: kgaudit " + " ".join(path) in res.output
    summary = res.output.split("\n\n", 2)[1].strip() if "\n\n" in res.output else ""
    assert summary, f"kgaudit {' '.join(path)} --help has no description"


@pytest.mark.parametrize("name", sorted(_COMMANDS))
def test_every_top_level_command_is_in_the_readme(name):
    assert f"`kgaudit {name}" in README, f"README does not document 'kgaudit {name}'"


def test_every_subcommand_is_named_in_the_readme():
    missing = [
        " ".join(p)
        for p in _all_commands()
        if len(p) == 2 and p[1] not in README.split(f"kgaudit {p[0]}", 1)[-1]
    ]
    assert not missing, f"subcommands missing from the README: {missing}"


def test_eval_generation_receives_its_own_options():
    """`kgaudit eval generation` forwards every option to the evaluation's own command."""
    import subprocess
    import sys

    run = subprocess.run(
        [sys.executable, "-m", "services.cli.main", "eval", "generation", "--per-domain", "0"],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert run.returncode == 2, run.stderr
    assert "--per-domain must be at least 1" in run.stderr
