"""Optional Triton import and kernel launching.

`import kernels` must work where Triton is not installed: the kernel modules import `triton`
and `tl` from here, and get stand-ins whose `jit` leaves the function undecorated (it is never
launched, because dispatch only picks the Triton path when `HAS_TRITON` is true).

Triton decides between compiler and interpreter once, when `triton` is first imported (its own
`tl.max`, `tl.sum`, ... are jit functions too), so running kernels on CPU tensors needs
`TRITON_INTERPRET=1` in the environment *before* that import. `launch` checks this and says so
instead of failing deep inside Triton.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Sequence
from typing import Any

try:
    import triton
    import triton.language as tl

    HAS_TRITON = True
except ImportError:  # reference-only install
    HAS_TRITON = False

    class _TritonStub:
        @staticmethod
        def jit(fn: Callable[..., Any]) -> Callable[..., Any]:
            return fn

        @staticmethod
        def cdiv(a: int, b: int) -> int:
            return -(-a // b)

        @staticmethod
        def next_power_of_2(n: int) -> int:
            return 1 << max(n - 1, 0).bit_length()

    class _LanguageStub:
        constexpr = Any

    triton = _TritonStub()  # type: ignore[assignment]
    tl = _LanguageStub()  # type: ignore[assignment]

__all__ = ["HAS_TRITON", "interpreting", "launch", "require_triton", "tl", "triton"]


def require_triton() -> None:
    """Raise a clear error when the Triton path is requested but Triton is missing."""
    if not HAS_TRITON:
        raise RuntimeError(
            "The Triton kernel path was requested (backend='triton' or KGAUDIT_KERNELS=triton) "
            "but triton is not installed; install the engine extra "
            "(pip install 'kgaudit[engine]') or use the reference path."
        )


def interpreting() -> bool:
    """True when Triton was imported in interpreter mode, so kernels can run on CPU tensors."""
    if not HAS_TRITON:
        return False
    from triton.runtime.interpreter import InterpretedFunction

    return isinstance(tl.max, InterpretedFunction)


def launch(kernel: Any, grid: Sequence[int], on_cpu: bool, *args: Any, **kwargs: Any) -> None:
    """Launch `kernel[grid](*args, **kwargs)`; CPU tensors need the interpreter."""
    require_triton()
    if on_cpu and not interpreting():
        state = os.environ.get("TRITON_INTERPRET", "unset")
        raise RuntimeError(
            "Triton kernels need CUDA tensors; to run them on CPU, set TRITON_INTERPRET=1 before "
            f"triton is first imported (TRITON_INTERPRET is {state} and triton was imported in "
            "compiler mode), or use the reference path."
        )
    kernel[tuple(grid)](*args, **kwargs)
