"""Every command-line option the README and docs/ show exists on the command they show it with.

Checked: command lines in code blocks (``$ kgaudit ...``, with ``\\`` continuations), inline
code spans that start with ``kgaudit``, and table rows whose first cell is a ``kgaudit``
command (the options in the row's other code spans belong to it). An option named alone in
prose (`` `--db` ``) belongs to the command the text last named before it (the one under
discussion). ``a|b`` alternatives (``kgaudit keys create|list``) pass when one of them has
the option.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path

import click
import pytest

from services.cli.main import cli

ROOT = Path(__file__).resolve().parents[2]
FILES = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
_SPAN = re.compile(r"`([^`]+)`")
_OPTION = re.compile(r"(?<![\w-])(--[a-z][a-z0-9-]*)")


def _paragraph_ids(lines: list[str]) -> list[int]:
    """A paragraph number per line: blank lines, list items, headings and table rows start one."""
    ids, pid = [], 0
    for line in lines:
        t = line.strip()
        if not t or t.startswith(("* ", "- ", "#", "|", "```")) or re.match(r"\d+\. ", t):
            pid += 1
        ids.append(pid)
    return ids


def _usages(text: str) -> Iterator[tuple[int, list[str], list[str]]]:
    """(line number, the commands an option may belong to, options to check)."""
    lines = text.splitlines()
    pids = _paragraph_ids(lines)
    named: dict[int, list[str]] = {}
    for pid, raw in zip(pids, lines, strict=True):
        for s in _SPAN.findall(raw):
            if s.startswith("kgaudit "):
                named.setdefault(pid, []).append(_command_part(s.replace("\\|", "|")))
    fence, pending, start, last = None, "", 0, "kgaudit"
    for n, raw in enumerate(lines, 1):
        line = raw.strip()
        if line.startswith("```"):
            fence, pending = (line[3:].strip() or "text") if fence is None else None, ""
            continue
        if fence is not None:
            if pending:
                cmd = pending + " " + line
            elif fence == "console":  # only prompted lines are commands; the rest is output
                if not line.startswith("$ "):
                    continue
                cmd, start = line[2:], n
            else:
                cmd, start = line, n
            if not cmd.startswith("kgaudit "):
                continue
            if cmd.endswith("\\"):
                pending = cmd[:-1]
                continue
            pending = ""
            cmd = cmd.split(" #", 1)[0].split(" | ", 1)[0].split(" > ", 1)[0]
            last = _command_part(cmd)
            yield start, [cmd], _OPTION.findall(cmd)
            continue
        spans = [s.replace("\\|", "|") for s in _SPAN.findall(raw)]
        if line.startswith("|") and spans and spans[0].startswith("kgaudit "):
            last = _command_part(spans[0])
            yield n, [spans[0]], [o for s in spans for o in _OPTION.findall(s)]
            continue
        for s in spans:
            if s.startswith("kgaudit "):
                last = _command_part(s)
                yield n, [s], _OPTION.findall(s)
            elif s.startswith("--") and not line.startswith("#"):  # a heading names a topic
                yield n, [*named.get(pids[n - 1], []), last], _OPTION.findall(s)[:1]


def _command_part(cmd: str) -> str:
    """``kgaudit batch FILE --out x`` -> ``kgaudit batch FILE`` (what prose options attach to)."""
    return cmd.split(" --", 1)[0]


def _commands(words: list[str]) -> list[click.Command]:
    """The commands a ``kgaudit w1 w2 ...`` line names (several for ``a|b`` alternatives)."""
    current: list[click.Command] = [cli]
    for word in words:
        if word.startswith("-"):
            break
        nxt = []
        for cmd in current:
            if isinstance(cmd, click.Group):
                for name in word.strip("[]()").split("|"):
                    sub = cmd.get_command(click.Context(cmd), name)
                    if sub is not None:
                        nxt.append(sub)
        if not nxt:
            break
        current = nxt
    return current


def _names(cmd: click.Command) -> set[str]:
    names = {"--help"}
    for p in cmd.params:
        names.update(p.opts)
        names.update(getattr(p, "secondary_opts", ()))
    return names


def _cases() -> list[tuple[str, int, tuple[str, ...], str]]:
    out = []
    for path in FILES:
        for n, cmds, opts in _usages(path.read_text(encoding="utf-8")):
            for opt in dict.fromkeys(opts):
                out.append((path.relative_to(ROOT).as_posix(), n, tuple(cmds), opt))
    return out


CASES = _cases()


def test_the_readme_shows_options_at_all() -> None:
    assert len(CASES) > 40  # the parser finds the README's and docs' command lines
    assert any(c[3] == "--domain" and c[2][0].startswith("kgaudit audit") for c in CASES)


@pytest.mark.parametrize(
    ("where", "line", "command", "option"), CASES, ids=[f"{c[0]}:{c[1]}:{c[3]}" for c in CASES]
)
def test_every_documented_option_exists(
    where: str, line: int, command: tuple[str, ...], option: str
) -> None:
    cmds = [c for text in command for c in _commands(text.split()[1:])]
    if any(c.context_settings.get("ignore_unknown_options") for c in cmds):
        pytest.skip("the command forwards its options to another parser")
    known = set().union(*(_names(c) for c in cmds))
    assert option in known, (
        f"{where}:{line}: {option} is shown with {' / '.join(f'`{c}`' for c in command)}, "
        f"which do not have it (they have {', '.join(sorted(known))})"
    )
