"""Choose between the Triton kernels and the plain-PyTorch references.

Rule: the Triton path runs on CUDA tensors when Triton is installed; everything else runs the
reference. Override per call with `backend=` or for the process with `KGAUDIT_KERNELS`:

- `auto` (default): as above.
- `reference`: always the reference, also on CUDA.
- `triton`: always Triton; CPU tensors then need `TRITON_INTERPRET=1` (the interpreter).
"""

from __future__ import annotations

import os
from typing import Literal

import torch

from kernels._triton import HAS_TRITON, require_triton

__all__ = ["BACKENDS", "Backend", "resolve_backend", "use_triton"]

Backend = Literal["auto", "reference", "triton"]
BACKENDS: tuple[str, ...] = ("auto", "reference", "triton")
ENV_VAR = "KGAUDIT_KERNELS"


def resolve_backend(backend: str | None, *tensors: torch.Tensor) -> Literal["reference", "triton"]:
    """Return the backend a call runs on, given the keyword, the env var and the tensors."""
    choice = (backend or os.environ.get(ENV_VAR) or "auto").strip().lower()
    if choice not in BACKENDS:
        source = "backend=" if backend else f"{ENV_VAR}="
        raise ValueError(f"{source}{choice!r} is not a kernel backend; use one of {BACKENDS}.")
    if choice == "reference":
        return "reference"
    if choice == "triton":
        require_triton()
        return "triton"
    on_cuda = all(t.is_cuda for t in tensors)
    return "triton" if HAS_TRITON and on_cuda else "reference"


def use_triton(backend: str | None, *tensors: torch.Tensor) -> bool:
    """True when this call should launch the Triton kernel."""
    return resolve_backend(backend, *tensors) == "triton"
