"""Fused Mixture-of-Experts feed-forward: public entry, input checks and the reference.

Dimension legend: T tokens, D model width, F expert hidden width, E experts, K experts per token.

    out[t] = Σ_k topk_weights[t, k] · w2[e] @ (silu(w1[e] @ x[t]) · (w3[e] @ x[t])),  e = topk_ids[t, k]

with w1 = w13[:, :F] (gate) and w3 = w13[:, F:] (up). Matmuls accumulate in fp32; the SwiGLU
activation is rounded to x's dtype before the down projection (as the Triton path stores it);
the sum over k is in fp32 and the result is cast to x's dtype.

The Triton path lives in `moe_grouped.py` (sorted/aligned grouped GEMM, any T) and
`moe_decode.py` (T == 1, one program per selected expert × output block).
"""

from __future__ import annotations

import torch
import torch.nn.functional as F

from kernels.dispatch import use_triton
from kernels.moe_host import moe_host_routed

__all__ = ["check_moe_inputs", "fused_moe", "fused_moe_reference"]

_FLOAT_DTYPES = (torch.float16, torch.bfloat16, torch.float32)


def check_moe_inputs(
    x: torch.Tensor,
    w13: torch.Tensor,
    w2: torch.Tensor,
    topk_weights: torch.Tensor,
    topk_ids: torch.Tensor,
) -> tuple[int, int, int, int, int]:
    """Validate fused-MoE inputs; return (T, D, F, E, K)."""
    if x.dim() != 2:
        raise ValueError(f"x must be [T, D], got shape {tuple(x.shape)}.")
    if w13.dim() != 3 or w2.dim() != 3:
        raise ValueError(
            f"w13 must be [E, 2F, D] and w2 [E, D, F]; got {tuple(w13.shape)} and {tuple(w2.shape)}."
        )
    t, d = x.shape
    e, f2, d13 = w13.shape
    if d13 != d or f2 % 2:
        raise ValueError(f"w13 must be [E, 2F, D] with D={d}; got {tuple(w13.shape)}.")
    f = f2 // 2
    if tuple(w2.shape) != (e, d, f):
        raise ValueError(f"w2 must be [E, D, F] = {(e, d, f)}; got {tuple(w2.shape)}.")
    if topk_ids.dim() != 2 or topk_ids.shape[0] != t:
        raise ValueError(f"topk_ids must be [T, K] with T={t}; got {tuple(topk_ids.shape)}.")
    if tuple(topk_weights.shape) != tuple(topk_ids.shape):
        raise ValueError(
            f"topk_weights {tuple(topk_weights.shape)} must match topk_ids {tuple(topk_ids.shape)}."
        )
    if x.dtype not in _FLOAT_DTYPES:
        raise ValueError(f"x must be fp16, bf16 or fp32; got {x.dtype}.")
    if w13.dtype != x.dtype or w2.dtype != x.dtype:
        raise ValueError(f"w13 ({w13.dtype}) and w2 ({w2.dtype}) must have x's dtype ({x.dtype}).")
    if topk_ids.dtype not in (torch.int32, torch.int64):
        raise ValueError(f"topk_ids must be int32 or int64; got {topk_ids.dtype}.")
    if not topk_weights.is_floating_point():
        raise ValueError(f"topk_weights must be floating point; got {topk_weights.dtype}.")
    devices = {x.device, w13.device, w2.device, topk_weights.device, topk_ids.device}
    if len(devices) != 1:
        raise ValueError(
            f"all fused_moe inputs must be on one device; got {sorted(map(str, devices))}."
        )
    return t, d, f, e, topk_ids.shape[1]


def fused_moe_reference(
    x: torch.Tensor,  # [T, D]
    w13: torch.Tensor,  # [E, 2F, D]
    w2: torch.Tensor,  # [E, D, F]
    topk_weights: torch.Tensor,  # [T, K]
    topk_ids: torch.Tensor,  # [T, K]
) -> torch.Tensor:  # [T, D]
    """Plain-PyTorch fused MoE: group the (token, k) pairs by expert, one matmul pair per active
    expert.

    This is the CPU path and the test oracle. Expert ids outside [0, E) raise ValueError.
    When autograd records, it runs the differentiable path (`_moe_sorted`); otherwise the
    low-overhead path (`_moe_inference`), which gives the same numbers.
    """
    t, d, f, e, k = check_moe_inputs(x, w13, w2, topk_weights, topk_ids)
    if t == 0 or k == 0:
        return torch.zeros(t, d, dtype=x.dtype, device=x.device)
    tensors = (x, w13, w2, topk_weights)
    if torch.is_grad_enabled() and any(a.requires_grad for a in tensors):
        return _moe_sorted(x, w13, w2, topk_weights, topk_ids, f, e, k)
    return _moe_inference(x, w13, w2, topk_weights, topk_ids, f, e, k)


def _moe_sorted(
    x: torch.Tensor,
    w13: torch.Tensor,
    w2: torch.Tensor,
    topk_weights: torch.Tensor,
    topk_ids: torch.Tensor,
    f: int,
    e: int,
    k: int,
) -> torch.Tensor:
    """Differentiable path: pairs sorted by expert on the device, one gather, one scatter.

    Built so that the backward allocates few zero-filled buffers: the per-expert weight views
    come from one `unbind` (one backward node that stacks the expert gradients) rather than
    `w13[expert]` per expert (a zeroed [E, 2F, D] gradient per active expert); the tokens are
    gathered once and split per expert (split's backward concatenates, where slicing or
    indexing per expert would zero a [T, D] buffer per expert); gate and up come from `split`.
    """
    t, d = x.shape
    flat_ids = topk_ids.reshape(-1).long()  # [T*K]
    counts = torch.bincount(flat_ids, minlength=e)  # [E']
    if counts.numel() > e or int(flat_ids.min()) < 0:
        raise ValueError(f"topk_ids must lie in [0, {e}); got values outside that range.")
    order = torch.argsort(flat_ids, stable=True)  # [T*K] pair index, grouped by expert
    tokens = order // k  # [T*K]
    weights = topk_weights.reshape(-1)[order].float()  # [T*K]
    fp32 = x.dtype == torch.float32
    xs = x.index_select(0, tokens)  # [T*K, D] grouped by expert
    if not fp32:
        xs = xs.float()
    w13s, w2s = w13.unbind(0), w2.unbind(0)  # [2F, D], [D, F] views per expert
    sizes = counts.tolist()
    ys = []
    for expert, part in zip(
        (i for i, n in enumerate(sizes) if n), xs.split([n for n in sizes if n]), strict=True
    ):
        gate, up = F.linear(part, w13s[expert] if fp32 else w13s[expert].float()).split(f, 1)
        act = F.silu(gate) * up  # [n, F]
        if not fp32:
            act = act.to(x.dtype).float()
        ys.append(F.linear(act, w2s[expert] if fp32 else w2s[expert].float()))  # [n, D]
    y = torch.cat(ys) * weights[:, None]  # [T*K, D] fp32
    out = torch.zeros(t, d, dtype=torch.float32, device=x.device).index_add(0, tokens, y)
    return out.to(x.dtype)


def _moe_inference(
    x: torch.Tensor,
    w13: torch.Tensor,
    w2: torch.Tensor,
    topk_weights: torch.Tensor,
    topk_ids: torch.Tensor,
    f: int,
    e: int,
    k: int,
) -> torch.Tensor:
    """No-autograd path with few tensor ops: the routing goes to the host (one
    ``tolist()``, one sync on CUDA) and `kernels.moe_host.moe_host_routed` groups the pairs
    by expert there. Same numerics as `_moe_sorted`."""
    ids = topk_ids.tolist()  # [T][K]
    flat = [i for row in ids for i in row]
    if min(flat) < 0 or max(flat) >= e:
        raise ValueError(f"topk_ids must lie in [0, {e}); got values outside that range.")
    return moe_host_routed(x, w13, w2, topk_weights.float().tolist(), ids)


def fused_moe(
    x: torch.Tensor,  # [T, D]
    w13: torch.Tensor,  # [E, 2F, D]
    w2: torch.Tensor,  # [E, D, F]
    topk_weights: torch.Tensor,  # [T, K]
    topk_ids: torch.Tensor,  # [T, K]
    *,
    backend: str | None = None,
) -> torch.Tensor:  # [T, D]
    """Fused MoE feed-forward; Triton on CUDA, the reference on CPU (see `kernels.dispatch`).

    The Triton path has no backward: when autograd is recording and an input requires grad,
    the (differentiable) reference runs instead, whatever the backend.
    """
    tensors = (x, w13, w2, topk_weights, topk_ids)
    training = torch.is_grad_enabled() and any(t.requires_grad for t in tensors)
    if training or not use_triton(backend, *tensors):
        return fused_moe_reference(x, w13, w2, topk_weights, topk_ids)
    check_moe_inputs(x, w13, w2, topk_weights, topk_ids)
    if x.shape[0] == 1:
        from kernels.moe_decode import fused_moe_decode_triton

        return fused_moe_decode_triton(x, w13, w2, topk_weights, topk_ids)
    from kernels.moe_grouped import fused_moe_grouped_triton

    return fused_moe_grouped_triton(x, w13, w2, topk_weights, topk_ids)
