"""The one check every command that reads an input file makes before opening it."""

from __future__ import annotations

from pathlib import Path

from auditor.errors import UsageError


def check_input_file(path: Path, *, hint: str = "give a file") -> None:
    """A :class:`UsageError` naming ``path`` unless it is a readable regular file.

    >>> check_input_file(Path("/"))
    Traceback (most recent call last):
    ...
    knowledge_graphs.errors.UsageError: input / is a directory, not a file; give a file
    """
    if path.is_dir():
        raise UsageError(f"input {path} is a directory, not a file; {hint}")
    if not path.exists():
        raise UsageError(f"input file {path} does not exist")
    if not path.is_file():
        raise UsageError(f"input {path} is not a regular file; {hint}")


__all__ = ["check_input_file"]
