"""fp32 projections on the CPU: MKL for a few rows, oneDNN's prepacked GEMM for more.

A decode step multiplies B rows (the batch) by each projection weight. With the weights stored
column-major (``engine.checkpoint.column_major_``) MKL's kernel is the fastest at one row (a
matrix-vector product bound by memory); at batch 8 the same call runs at a fraction of the
CPU's fp32 throughput, and oneDNN's GEMM on a weight reordered once into its blocked layout
(``torch.ops.mkldnn._reorder_linear_weight``) is faster: the bench-20m lm_head at batch 8 took
2.0 ms against 3.2 ms, the whole decode step 1.1-1.2x less (``kgaudit bench engine``,
docs/engine.md). Both accumulate in fp32; results differ from MKL's by summation order only
(~1e-6).

:func:`use_onednn_` switches the dense projections of a loaded fp32 CPU model (attention
q‖k‖v and output, dense feed-forwards, lm_head) to :class:`CpuLinear`, an ``nn.Linear`` whose
inference forward picks the kernel by row count; parameter names, tying and checkpoints are
unchanged, and with autograd recording it is a plain ``nn.Linear``. The packed copy is made on
first use and remade when the weight changes. Builds without oneDNN keep MKL everywhere.
"""

from __future__ import annotations

import torch
import torch.nn.functional as F
from torch import Tensor, nn

ONEDNN_MIN_ROWS = 4  # below this MKL's kernel wins (the lm_head at 1 row: 0.6 ms against 2.0)


def onednn_available() -> bool:
    """True when this torch build has oneDNN's prepacked fp32 linear."""
    return torch.backends.mkldnn.is_available() and hasattr(torch.ops.mkldnn, "_linear_pointwise")


class CpuLinear(nn.Linear):
    """``nn.Linear`` that runs inference on ``ONEDNN_MIN_ROWS`` rows or more through oneDNN."""

    def forward(self, x: Tensor) -> Tensor:
        if (
            x.dim() != 2
            or x.shape[0] < ONEDNN_MIN_ROWS
            or x.dtype != torch.float32
            or torch.is_grad_enabled()
        ):
            return F.linear(x, self.weight, self.bias)
        return torch.ops.mkldnn._linear_pointwise(x, self._packed(), self.bias, "none", [], "")

    def _packed(self) -> Tensor:
        w = self.weight
        key = (w.data_ptr(), w._version)
        hit = self.__dict__.get("_onednn")
        if hit is None or hit[0] != key:
            with torch.no_grad():
                packed = torch.ops.mkldnn._reorder_linear_weight(w.detach().contiguous(), 8)
            hit = self.__dict__["_onednn"] = (key, packed)
        return hit[1]


def use_onednn_(model: nn.Module) -> nn.Module:
    """Switch every fp32 CPU ``nn.Linear`` of ``model`` except the MoE routers to
    :class:`CpuLinear` (in place; a no-op without oneDNN or off the CPU)."""
    if not onednn_available():
        return model
    routers = {id(m.gate) for m in model.modules() if hasattr(m, "route")}
    for m in model.modules():
        if (
            type(m) is nn.Linear
            and id(m) not in routers
            and m.weight.device.type == "cpu"
            and m.weight.dtype == torch.float32
        ):
            m.__class__ = CpuLinear
    return model
