"""Routed experts with the routing on the host: the CPU inference path of the fused MoE.

On a CPU the routing decisions are host values anyway; taking them as Python lists lets the
decode step skip the per-call input checks, the dispatch and the tensor bookkeeping of
:func:`kernels.fused_moe` (``engine.model.MoEFeedForward`` calls this directly when it runs
on a CPU without autograd). Numerics are those of ``fused_moe_reference``: fp32 accumulation,
the SwiGLU activation rounded to x's dtype, fp32 sum over k.

Dimension legend: T tokens, D model width, F expert width, K experts per token, P = T·K pairs.
"""

from __future__ import annotations

import torch
import torch.nn.functional as F

__all__ = ["moe_host_routed"]


def moe_host_routed(
    x: torch.Tensor,  # [T, D]
    w13: torch.Tensor,  # [E, 2F, D]
    w2: torch.Tensor,  # [E, D, F]
    weights: list[list[float]],  # [T][K] routing weights
    experts: list[list[int]],  # [T][K] expert ids in [0, E)
) -> torch.Tensor:  # [T, D]
    """Σ_k weights[t][k] · expert_{experts[t][k]}(x[t]); ids must be valid (not checked)."""
    f = w13.shape[1] // 2
    fp32 = x.dtype == torch.float32
    xf = x if fp32 else x.float()
    if len(experts) == 1:
        return _one_token(x, xf, w13, w2, weights[0], experts[0], f, fp32)
    k = len(experts[0])
    flat = [e for row in experts for e in row]
    p, dev = len(flat), x.device
    order = sorted(range(p), key=flat.__getitem__)  # stable: pairs grouped by expert
    idx = torch.tensor(order, device=dev)  # [P]
    tok = idx // k  # [P] the token of each pair
    xs = xf.index_select(0, tok)  # [P, D]
    groups = []  # (expert, start, end) runs in sorted pair order
    start = 0
    for i in range(1, p + 1):
        if i == p or flat[order[i]] != flat[order[start]]:
            groups.append((flat[order[start]], start, i))
            start = i
    h = torch.empty(p, 2 * f, dtype=torch.float32, device=dev)  # [P, 2F]
    for expert, s0, s1 in groups:
        w = w13[expert] if fp32 else w13[expert].float()
        torch.mm(xs[s0:s1], w.t(), out=h[s0:s1])
    gate, up = h.split(f, dim=1)  # [P, F] x2
    act = F.silu(gate).mul_(up)  # [P, F]
    if not fp32:
        act = act.to(x.dtype).float()
    y = torch.empty(p, x.shape[1], dtype=torch.float32, device=dev)  # [P, D]
    for expert, s0, s1 in groups:
        w = w2[expert] if fp32 else w2[expert].float()
        torch.mm(act[s0:s1], w.t(), out=y[s0:s1])
    flat_w = [wt for row in weights for wt in row]
    wts = torch.tensor([flat_w[i] for i in order], dtype=torch.float32, device=dev)  # [P]
    out = torch.zeros(x.shape[0], x.shape[1], dtype=torch.float32, device=dev)
    out.index_add_(0, tok, y.mul_(wts[:, None]))
    return out if fp32 else out.to(x.dtype)


def _one_token(
    x: torch.Tensor,
    xf: torch.Tensor,
    w13: torch.Tensor,
    w2: torch.Tensor,
    weights: list[float],
    experts: list[int],
    f: int,
    fp32: bool,
) -> torch.Tensor:
    """T == 1 (decode): per selected expert one gate‖up matmul, SwiGLU, and a down matmul that
    accumulates ``weight · y`` into the fp32 output (``addmm_`` with the weight as alpha)."""
    out = None
    for expert, weight in zip(experts, weights, strict=True):
        gate, up = F.linear(xf, w13[expert] if fp32 else w13[expert].float()).split(f, dim=1)
        act = F.silu(gate).mul_(up)  # [1, F]
        if not fp32:
            act = act.to(x.dtype).float()
        w = w2[expert] if fp32 else w2[expert].float()  # [D, F]
        if out is None:
            out = F.linear(act, w).mul_(weight)  # [1, D] fp32
        else:
            out.addmm_(act, w.t(), alpha=weight)
    return out if fp32 else out.to(x.dtype)  # type: ignore[union-attr]
