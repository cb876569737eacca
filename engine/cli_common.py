"""Helpers shared by the engine's click commands (no torch at import time)."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from knowledge_graphs.errors import KgauditError, UsageError

KV_CHOICES = ("fp", "int8", "int4")


@contextmanager
def user_errors() -> Iterator[None]:
    """Turn ValueErrors from the library into the CLI's one-sentence usage errors."""
    try:
        yield
    except KgauditError:
        raise
    except ValueError as exc:
        raise UsageError(str(exc)) from None


def device_for(name: str) -> Any:
    import torch

    if name == "auto":
        return torch.device("cuda" if torch.cuda.is_available() else "cpu")
    if name.startswith("cuda") and not torch.cuda.is_available():
        raise UsageError(f"--device {name} was asked for but no CUDA device is available.")
    return torch.device(name)
