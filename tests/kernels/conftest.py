"""Kernel tests run the Triton kernels on CPU through the Triton interpreter.

TRITON_INTERPRET must be set before triton is first imported. This conftest sets it; if
something imported triton earlier in the same pytest process (another test package), the
Triton-path tests skip with that reason instead of failing. A root tests/conftest.py that sets
the variable avoids the problem for whole-suite runs.
"""

from __future__ import annotations

import os

os.environ.setdefault("TRITON_INTERPRET", "1")  # a GPU CI may set 0 to keep compiled kernels

import pytest
import torch


@pytest.fixture(autouse=True)
def _seed_and_backend(monkeypatch: pytest.MonkeyPatch) -> None:
    torch.manual_seed(0)
    monkeypatch.delenv("KGAUDIT_KERNELS", raising=False)


@pytest.fixture
def triton_backend() -> str:
    """Skip when triton is missing or not in interpreter mode; else the backend name that
    forces the Triton path."""
    pytest.importorskip("triton")
    from kernels._triton import interpreting

    if not interpreting():
        pytest.skip("triton was imported before TRITON_INTERPRET=1 was set in this process")
    return "triton"
