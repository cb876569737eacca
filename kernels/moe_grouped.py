"""Fused MoE for T > 1: expert-sorted, block-aligned grouped GEMMs (vLLM-style).

Dimension legend: T tokens, K experts per token, P = T·K (token, k) pairs, E experts, D model
width, F expert hidden width, BM/BN/BK tile sizes, NB = number of M blocks (upper bound).

1. `moe_align_block_size`: sort pairs by expert, pad each expert's group to a multiple of BM,
   record the expert of every BM block (-1 for unused blocks). Pure tensor ops, no host sync.
2. `_moe_gate_up_kernel`: act[p] = silu(x[t] @ w1[e]ᵀ) · (x[t] @ w3[e]ᵀ), stored in x's dtype.
3. `_moe_down_kernel`: y[p] = topk_weight[p] · act[p] @ w2[e]ᵀ, fp32.
4. out[t] = Σ_k y[t·K + k], cast to x's dtype.

The reference for this path is `kernels.fused_moe.fused_moe_reference`.
"""

from __future__ import annotations

import torch

from kernels._triton import launch, tl, triton
from kernels.block_sizes import MoEBlocks, moe_grouped_blocks

__all__ = ["fused_moe_grouped_triton", "moe_align_block_size"]


def moe_align_block_size(
    topk_ids: torch.Tensor,  # [T, K]
    num_experts: int,
    block_m: int,
) -> tuple[torch.Tensor, torch.Tensor]:
    """Return (sorted_pair_ids int32 [NB·BM], block_expert int32 [NB]).

    Expert e's pairs occupy a run of whole BM blocks, in pair order; padding slots hold P (an
    invalid pair id). Blocks past the last expert's run have expert -1.
    """
    flat = topk_ids.reshape(-1).long()  # [P]
    p = flat.numel()
    counts = torch.bincount(flat, minlength=num_experts)  # [E]
    padded = (counts + block_m - 1) // block_m * block_m  # [E]
    pad_end = torch.cumsum(padded, 0)  # [E]
    order = torch.argsort(flat, stable=True)  # [P]
    sorted_e = flat[order]
    rank = torch.arange(p, device=flat.device) - (torch.cumsum(counts, 0) - counts)[sorted_e]
    capacity = triton.cdiv(p + min(p, num_experts) * (block_m - 1), block_m) * block_m
    sorted_ids = torch.full((capacity,), p, dtype=torch.int32, device=flat.device)
    sorted_ids[(pad_end - padded)[sorted_e] + rank] = order.to(torch.int32)
    starts = torch.arange(0, capacity, block_m, device=flat.device)  # [NB]
    block_expert = torch.searchsorted(pad_end, starts, right=True)
    block_expert = torch.where(starts < pad_end[-1], block_expert, -1).to(torch.int32)
    return sorted_ids, block_expert


@triton.jit
def _moe_gate_up_kernel(
    x_ptr,  # [T, D]
    w13_ptr,  # [E, 2F, D]
    act_ptr,  # [P, F] out, x's dtype
    sorted_ptr,  # int32 [NB*BM]
    block_expert_ptr,  # int32 [NB]
    num_pairs,
    D,
    F,
    stride_xt,
    stride_we,
    stride_wn,
    stride_act,
    TOP_K: tl.constexpr,
    BLOCK_M: tl.constexpr,
    BLOCK_N: tl.constexpr,
    BLOCK_K: tl.constexpr,
):
    pid_m = tl.program_id(0)
    pid_n = tl.program_id(1)
    e = tl.load(block_expert_ptr + pid_m).to(tl.int64)
    if e >= 0:
        pair = tl.load(sorted_ptr + pid_m * BLOCK_M + tl.arange(0, BLOCK_M))  # [BM]
        valid = pair < num_pairs
        tok = (pair // TOP_K).to(tl.int64)
        cols = pid_n * BLOCK_N + tl.arange(0, BLOCK_N)  # [BN] hidden units
        cmask = cols < F
        w_base = w13_ptr + e * stride_we
        acc_g = tl.zeros([BLOCK_M, BLOCK_N], tl.float32)
        acc_u = tl.zeros([BLOCK_M, BLOCK_N], tl.float32)
        for k0 in range(0, D, BLOCK_K):
            ks = k0 + tl.arange(0, BLOCK_K)  # [BK]
            kmask = ks < D
            a = tl.load(
                x_ptr + tok[:, None] * stride_xt + ks[None, :],
                mask=valid[:, None] & kmask[None, :],
                other=0.0,
            )  # [BM, BK]
            wmask = kmask[:, None] & cmask[None, :]
            wg = tl.load(w_base + cols[None, :] * stride_wn + ks[:, None], mask=wmask, other=0.0)
            wu = tl.load(
                w_base + (cols + F)[None, :] * stride_wn + ks[:, None], mask=wmask, other=0.0
            )
            acc_g = tl.dot(a, wg, acc_g, input_precision="ieee")  # [BM, BN]
            acc_u = tl.dot(a, wu, acc_u, input_precision="ieee")
        act = acc_g / (1.0 + tl.exp(-acc_g)) * acc_u
        tl.store(
            act_ptr + pair[:, None].to(tl.int64) * stride_act + cols[None, :],
            act.to(act_ptr.dtype.element_ty),
            mask=valid[:, None] & cmask[None, :],
        )


@triton.jit
def _moe_down_kernel(
    act_ptr,  # [P, F]
    w2_ptr,  # [E, D, F]
    y_ptr,  # fp32 [P, D] out
    weights_ptr,  # fp32 [P]
    sorted_ptr,  # int32 [NB*BM]
    block_expert_ptr,  # int32 [NB]
    num_pairs,
    D,
    F,
    stride_act,
    stride_we,
    stride_wn,
    stride_y,
    BLOCK_M: tl.constexpr,
    BLOCK_N: tl.constexpr,
    BLOCK_K: tl.constexpr,
):
    pid_m = tl.program_id(0)
    pid_n = tl.program_id(1)
    e = tl.load(block_expert_ptr + pid_m).to(tl.int64)
    if e >= 0:
        pair = tl.load(sorted_ptr + pid_m * BLOCK_M + tl.arange(0, BLOCK_M))  # [BM]
        valid = pair < num_pairs
        rows = pair.to(tl.int64)
        cols = pid_n * BLOCK_N + tl.arange(0, BLOCK_N)  # [BN] output features
        cmask = cols < D
        w_base = w2_ptr + e * stride_we
        acc = tl.zeros([BLOCK_M, BLOCK_N], tl.float32)
        for k0 in range(0, F, BLOCK_K):
            ks = k0 + tl.arange(0, BLOCK_K)
            kmask = ks < F
            a = tl.load(
                act_ptr + rows[:, None] * stride_act + ks[None, :],
                mask=valid[:, None] & kmask[None, :],
                other=0.0,
            )  # [BM, BK]
            w = tl.load(
                w_base + cols[None, :] * stride_wn + ks[:, None],
                mask=kmask[:, None] & cmask[None, :],
                other=0.0,
            )  # [BK, BN]
            acc = tl.dot(a, w, acc, input_precision="ieee")
        wt = tl.load(weights_ptr + rows, mask=valid, other=0.0)  # [BM]
        tl.store(
            y_ptr + rows[:, None] * stride_y + cols[None, :],
            acc * wt[:, None],
            mask=valid[:, None] & cmask[None, :],
        )


def fused_moe_grouped_triton(
    x: torch.Tensor,  # [T, D]
    w13: torch.Tensor,  # [E, 2F, D]
    w2: torch.Tensor,  # [E, D, F]
    topk_weights: torch.Tensor,  # [T, K]
    topk_ids: torch.Tensor,  # [T, K]
    blocks: MoEBlocks | None = None,
) -> torch.Tensor:  # [T, D]
    """Triton launcher for the grouped path (inputs checked by `check_moe_inputs`)."""
    t, d = x.shape
    e, f2, _ = w13.shape
    f, k = f2 // 2, topk_ids.shape[1]
    for name, tensor in (("x", x), ("w13", w13), ("w2", w2)):
        if tensor.stride(-1) != 1:
            raise ValueError(f"{name} must be contiguous along its last axis.")
    p = t * k
    blocks = blocks or moe_grouped_blocks(p, e, d, f)
    sorted_ids, block_expert = moe_align_block_size(topk_ids, e, blocks.block_m)
    weights = topk_weights.reshape(-1).float().contiguous()  # [P]
    act = torch.empty(p, f, dtype=x.dtype, device=x.device)  # [P, F]
    y = torch.empty(p, d, dtype=torch.float32, device=x.device)  # [P, D]
    nb = block_expert.numel()
    on_cpu = not x.is_cuda
    # fmt: off
    launch(
        _moe_gate_up_kernel, (nb, triton.cdiv(f, blocks.block_n)), on_cpu, x, w13, act, sorted_ids,
        block_expert, p, d, f, x.stride(0), w13.stride(0), w13.stride(1), act.stride(0), TOP_K=k,
        BLOCK_M=blocks.block_m, BLOCK_N=blocks.block_n, BLOCK_K=blocks.block_k,
        num_warps=blocks.num_warps, num_stages=blocks.num_stages,
    )
    # fmt: on
    # fmt: off
    launch(
        _moe_down_kernel, (nb, triton.cdiv(d, blocks.block_n)), on_cpu, act, w2, y, weights,
        sorted_ids, block_expert, p, d, f, act.stride(0), w2.stride(0), w2.stride(1), y.stride(0),
        BLOCK_M=blocks.block_m, BLOCK_N=blocks.block_n, BLOCK_K=blocks.block_k,
        num_warps=blocks.num_warps, num_stages=blocks.num_stages,
    )
    # fmt: on
    return y.view(t, k, d).sum(1).to(x.dtype)
