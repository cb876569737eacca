"""Fused MoE for batch-1 decode: one program per (selected expert, output block).

Dimension legend: K selected experts (one token), D model width, F expert hidden width,
BN output rows per program, BK reduction step. Each program streams its expert's weight rows
once (vector × matrix, no padding, no sort) — memory-optimal when T == 1.

1. `_moe_decode_gate_up_kernel` (grid K × F/BN): act[k] = silu(w1[e] @ x) · (w3[e] @ x).
2. `_moe_decode_down_kernel` (grid K × D/BN): y[k] = topk_weight[k] · w2[e] @ act[k], fp32.
3. out = Σ_k y[k], cast to x's dtype.

Programs index (token, k) pairs, so the kernels are correct for any T; dispatch uses them for
T == 1. The reference is `kernels.fused_moe.fused_moe_reference`.
"""

from __future__ import annotations

import torch

from kernels._triton import launch, tl, triton
from kernels.block_sizes import MoEBlocks, moe_decode_blocks

__all__ = ["fused_moe_decode_triton"]


@triton.jit
def _moe_decode_gate_up_kernel(
    x_ptr,  # [T, D]
    w13_ptr,  # [E, 2F, D]
    ids_ptr,  # [T*K]
    act_ptr,  # [T*K, F] out, x's dtype
    D,
    F,
    stride_xt,
    stride_we,
    stride_wn,
    TOP_K: tl.constexpr,
    BLOCK_N: tl.constexpr,
    BLOCK_K: tl.constexpr,
):
    pair = tl.program_id(0)
    pid_n = tl.program_id(1)
    e = tl.load(ids_ptr + pair).to(tl.int64)
    tok = pair // TOP_K
    rows = pid_n * BLOCK_N + tl.arange(0, BLOCK_N)  # [BN] hidden units
    rmask = rows < F
    w_base = w13_ptr + e * stride_we
    acc_g = tl.zeros([BLOCK_N], tl.float32)
    acc_u = tl.zeros([BLOCK_N], tl.float32)
    for k0 in range(0, D, BLOCK_K):
        ks = k0 + tl.arange(0, BLOCK_K)  # [BK]
        kmask = ks < D
        xv = tl.load(x_ptr + tok * stride_xt + ks, mask=kmask, other=0.0).to(tl.float32)
        wmask = rmask[:, None] & kmask[None, :]
        wg = tl.load(w_base + rows[:, None] * stride_wn + ks[None, :], mask=wmask, other=0.0)
        wu = tl.load(w_base + (rows + F)[:, None] * stride_wn + ks[None, :], mask=wmask, other=0.0)
        acc_g += tl.sum(wg.to(tl.float32) * xv[None, :], 1)  # [BN]
        acc_u += tl.sum(wu.to(tl.float32) * xv[None, :], 1)
    act = acc_g / (1.0 + tl.exp(-acc_g)) * acc_u
    tl.store(act_ptr + pair * F + rows, act.to(act_ptr.dtype.element_ty), mask=rmask)


@triton.jit
def _moe_decode_down_kernel(
    act_ptr,  # [T*K, F]
    w2_ptr,  # [E, D, F]
    ids_ptr,  # [T*K]
    weights_ptr,  # fp32 [T*K]
    y_ptr,  # fp32 [T*K, D] out
    D,
    F,
    stride_we,
    stride_wn,
    BLOCK_N: tl.constexpr,
    BLOCK_K: tl.constexpr,
):
    pair = tl.program_id(0)
    pid_n = tl.program_id(1)
    e = tl.load(ids_ptr + pair).to(tl.int64)
    rows = pid_n * BLOCK_N + tl.arange(0, BLOCK_N)  # [BN] output features
    rmask = rows < D
    w_base = w2_ptr + e * stride_we
    acc = tl.zeros([BLOCK_N], tl.float32)
    for k0 in range(0, F, BLOCK_K):
        ks = k0 + tl.arange(0, BLOCK_K)
        kmask = ks < F
        av = tl.load(act_ptr + pair * F + ks, mask=kmask, other=0.0).to(tl.float32)  # [BK]
        w = tl.load(
            w_base + rows[:, None] * stride_wn + ks[None, :],
            mask=rmask[:, None] & kmask[None, :],
            other=0.0,
        )  # [BN, BK]
        acc += tl.sum(w.to(tl.float32) * av[None, :], 1)
    wt = tl.load(weights_ptr + pair)
    tl.store(y_ptr + pair * D + rows, acc * wt, mask=rmask)


def fused_moe_decode_triton(
    x: torch.Tensor,  # [T, D], T small (dispatch: T == 1)
    w13: torch.Tensor,  # [E, 2F, D]
    w2: torch.Tensor,  # [E, D, F]
    topk_weights: torch.Tensor,  # [T, K]
    topk_ids: torch.Tensor,  # [T, K]
    blocks: MoEBlocks | None = None,
) -> torch.Tensor:  # [T, D]
    """Triton launcher for the vector × matrix path (inputs checked by `check_moe_inputs`)."""
    t, d = x.shape
    f, k = w13.shape[1] // 2, topk_ids.shape[1]
    for name, tensor in (("x", x), ("w13", w13), ("w2", w2)):
        if tensor.stride(-1) != 1:
            raise ValueError(f"{name} must be contiguous along its last axis.")
    blocks = blocks or moe_decode_blocks(d, f)
    p = t * k
    ids = topk_ids.reshape(-1).contiguous()  # [P]
    weights = topk_weights.reshape(-1).float().contiguous()  # [P]
    act = torch.empty(p, f, dtype=x.dtype, device=x.device)  # [P, F]
    y = torch.empty(p, d, dtype=torch.float32, device=x.device)  # [P, D]
    on_cpu = not x.is_cuda
    # fmt: off
    launch(
        _moe_decode_gate_up_kernel, (p, triton.cdiv(f, blocks.block_n)), on_cpu, x, w13, ids, act,
        d, f, x.stride(0), w13.stride(0), w13.stride(1), TOP_K=k, BLOCK_N=blocks.block_n,
        BLOCK_K=blocks.block_k, num_warps=blocks.num_warps, num_stages=blocks.num_stages,
    )
    # fmt: on
    # fmt: off
    launch(
        _moe_decode_down_kernel, (p, triton.cdiv(d, blocks.block_n)), on_cpu, act, w2, ids,
        weights, y, d, f, w2.stride(0), w2.stride(1), BLOCK_N=blocks.block_n,
        BLOCK_K=blocks.block_k, num_warps=blocks.num_warps, num_stages=blocks.num_stages,
    )
    # fmt: on
    return y.view(t, k, d).sum(1).to(x.dtype)
