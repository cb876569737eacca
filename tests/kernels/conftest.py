"""Kernel tests: the Triton kernels against their PyTorch references.

On CPU the kernels run through the Triton interpreter. TRITON_INTERPRET must be set before
triton is first imported: the root tests/conftest.py sets it for whole-suite runs, and this
conftest for runs of this package alone; if something imported triton earlier in the same
process, the CPU Triton tests skip with that reason instead of failing.

Tests that take the ``device`` fixture run on ``cpu`` always and on ``cuda`` when a CUDA device
is present (skipped otherwise): inputs are made on the CPU (same seed, same values), the
reference runs on them there, and the kernel runs on copies on ``device``. With the default
TRITON_INTERPRET=1 the ``cuda`` rows run the interpreter on device tensors; a GPU CI sets
TRITON_INTERPRET=0 to run the compiled kernels (the ``cpu`` Triton rows then skip).
"""

from __future__ import annotations

import os

os.environ.setdefault("TRITON_INTERPRET", "1")

import pytest
import torch

from kernels.testing import DTYPES

# The kernel-vs-reference grids run their first dtype (fp32) in the fast loop (-m "not slow")
# and the others in the full run: the interpreter makes each case about a second.
GRID_DTYPES = [
    DTYPES[0],
    *(pytest.param(*p.values, id=p.id, marks=pytest.mark.slow) for p in DTYPES[1:]),
]
DEVICES = [
    pytest.param("cpu", id="cpu"),
    pytest.param(
        "cuda",
        id="cuda",
        marks=pytest.mark.skipif(not torch.cuda.is_available(), reason="no CUDA device"),
    ),
]


@pytest.fixture(autouse=True)
def _seed_and_backend(monkeypatch: pytest.MonkeyPatch) -> None:
    torch.manual_seed(0)
    monkeypatch.delenv("KGAUDIT_KERNELS", raising=False)


@pytest.fixture(params=DEVICES)
def device(request: pytest.FixtureRequest) -> str:
    """Where the kernel under test runs: ``cpu`` (interpreter), ``cuda`` when present."""
    return request.param


@pytest.fixture
def triton_backend(request: pytest.FixtureRequest) -> str:
    """The backend name that forces the Triton path; skips when triton is missing, or when
    the test runs on CPU and triton is not in interpreter mode. Tests without ``device`` are
    CPU tests."""
    pytest.importorskip("triton")
    from kernels._triton import interpreting

    device = request.getfixturevalue("device") if "device" in request.fixturenames else "cpu"
    if device == "cpu" and not interpreting():
        pytest.skip(
            "CPU tensors need the Triton interpreter: triton was imported without "
            "TRITON_INTERPRET=1 in this process"
        )
    return "triton"
