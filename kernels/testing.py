"""Helpers for kernel-vs-reference tests (used by tests/kernels; importable by other suites).

Tolerances are for Triton output vs the reference on the same inputs, per input dtype.
"""

from __future__ import annotations

import pytest
import torch

__all__ = ["DTYPES", "TOLERANCES", "assert_close"]

# (atol, rtol) of Triton vs reference, per dtype of the inputs.
TOLERANCES: dict[torch.dtype, tuple[float, float]] = {
    torch.float32: (1e-5, 1e-5),
    torch.float16: (2e-3, 2e-3),
    torch.bfloat16: (2e-2, 2e-2),
}
# The Triton interpreter mishandles bf16, so the CPU grids run fp32 and fp16.
DTYPES = [pytest.param(torch.float32, id="fp32"), pytest.param(torch.float16, id="fp16")]


def assert_close(actual: torch.Tensor, expected: torch.Tensor, dtype: torch.dtype) -> None:
    """assert_close in fp32 with the tolerance of `dtype`."""
    atol, rtol = TOLERANCES[dtype]
    torch.testing.assert_close(actual.float(), expected.float(), atol=atol, rtol=rtol)
