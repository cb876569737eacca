"""Split-KV decode attention (flash-decoding) over a `KVCache` in fp, int8 or int4.

Dimension legend: B sequences, Hq query heads, Hkv KV heads (Hq = Hkv · G), D head dim,
L = seq_lens[b] cached slots (the current token included), s0 = seq_starts[b] (default 0: the
first slot a query may see, for left-padded batches), NS KV splits.

    out[b, h] = softmax(scale · q[b, h] · K[b, h // G, s0:L]ᵀ) · V[b, h // G, s0:L]

A sequence with no visible slot (L ≤ s0) gets zeros. Stage 1 (grid B × Hkv × NS): each program takes the G query
heads of one KV head, dequantises its share of the cache tile by tile and keeps a running
max / sum / weighted value (online softmax); it writes the normalised partial output and its
log-sum-exp. Stage 2 (grid B × Hq) merges the splits.
"""

from __future__ import annotations

import torch

from kernels._triton import launch, tl, triton
from kernels.block_sizes import attention_blocks
from kernels.dispatch import use_triton
from kernels.kv_cache import KVCache

__all__ = ["decode_attention", "decode_attention_reference"]

_KIND_CODE = {"fp": 0, "int8": 8, "int4": 4}


def _check(
    q: torch.Tensor, cache: KVCache, seq_lens: torch.Tensor, seq_starts: torch.Tensor
) -> tuple[int, int, int, int]:
    if q.dim() != 3:
        raise ValueError(f"q must be [B, Hq, D], got shape {tuple(q.shape)}.")
    b, hq, d = q.shape
    hkv = cache.num_kv_heads
    if d != cache.head_dim or hq % hkv:
        raise ValueError(
            f"q {tuple(q.shape)} needs head dim {cache.head_dim} and a multiple of {hkv} heads."
        )
    if b > cache.batch_size:
        raise ValueError(f"q has {b} rows but the cache holds {cache.batch_size} sequences.")
    for name, t in (("seq_lens", seq_lens), ("seq_starts", seq_starts)):
        if t.shape != (b,) or t.dtype not in (torch.int32, torch.int64):
            raise ValueError(
                f"{name} must be an int tensor of shape [{b}], got {t.dtype} {tuple(t.shape)}."
            )
        if t.device != q.device:
            raise ValueError(f"{name} is on {t.device} but q is on {q.device}.")
    if q.device != cache.k.device:
        raise ValueError(f"q is on {q.device} but the cache is on {cache.k.device}.")
    return b, hq, hkv, d


def decode_attention_reference(
    q: torch.Tensor,  # [B, Hq, D]
    cache: KVCache,
    seq_lens: torch.Tensor,  # [B]
    scale: float,
    seq_starts: torch.Tensor | None = None,  # [B]
) -> torch.Tensor:  # [B, Hq, D]
    """Reference: dequantise the cache to fp32 and run masked softmax attention."""
    if seq_starts is None:
        seq_starts = torch.zeros_like(seq_lens)
    b, hq, hkv, d = _check(q, cache, seq_lens, seq_starts)
    length = int(seq_lens.max()) if b else 0
    if length > cache.max_seq_len:
        raise ValueError(f"seq_lens reach {length} but the cache holds {cache.max_seq_len}.")
    keys, values = cache.dequantize(length)  # [Bc, Hkv, L, D]
    keys, values = keys[:b], values[:b]
    qg = q.float().view(b, hkv, hq // hkv, d)  # [B, Hkv, G, D]
    scores = torch.einsum("bhgd,bhld->bhgl", qg, keys) * scale  # [B, Hkv, G, L]
    slots = torch.arange(length, device=q.device)
    valid = (slots < seq_lens[:, None]) & (slots >= seq_starts[:, None])  # [B, L]
    scores = scores.masked_fill(~valid[:, None, None, :], float("-inf"))
    probs = torch.softmax(scores, dim=-1).nan_to_num(0.0)  # L == 0 rows → zeros
    out = torch.einsum("bhgl,bhld->bhgd", probs, values)  # [B, Hkv, G, D]
    return out.reshape(b, hq, d).to(q.dtype)


@triton.jit
def _decode_split_kernel(
    q_ptr,  # [B, Hq, D]
    k_ptr,
    v_ptr,  # fp: [Bc, Hkv, S, D]; quantised: uint8 codes [Bc, Hkv, S, Dc]
    ks_ptr,
    km_ptr,  # [Bc, Hkv, S/Gk, D]
    kr_ptr,  # [Bc, Hkv, Gk, D]
    vs_ptr,
    vm_ptr,  # [Bc, Hkv, S, D/Gv]
    lens_ptr,  # [B]
    starts_ptr,  # [B]
    o_ptr,  # fp32 [B, Hq, NS, D] partial outputs
    lse_ptr,  # fp32 [B, Hq, NS]
    scale,
    stride_qb,
    stride_qh,
    HKV,
    S,
    D,
    GK,
    GV,
    GROUP: tl.constexpr,
    KIND: tl.constexpr,
    NUM_SPLITS: tl.constexpr,
    BLOCK_N: tl.constexpr,
    BLOCK_H: tl.constexpr,
    BLOCK_D: tl.constexpr,
):
    b = tl.program_id(0)
    hk = tl.program_id(1)
    sp = tl.program_id(2)
    length = tl.load(lens_ptr + b).to(tl.int32)
    first = tl.load(starts_ptr + b).to(tl.int32)
    split = tl.cdiv(tl.cdiv(tl.maximum(length - first, 0), NUM_SPLITS), BLOCK_N) * BLOCK_N
    start = first + sp * split
    end = tl.minimum(start + split, length)
    heads = tl.arange(0, BLOCK_H)  # [BH]
    dims = tl.arange(0, BLOCK_D)  # [BD]
    hmask = heads < GROUP
    dmask = dims < D
    q = tl.load(
        q_ptr + b * stride_qb + (hk * GROUP + heads)[:, None] * stride_qh + dims[None, :],
        mask=hmask[:, None] & dmask[None, :],
        other=0.0,
    ).to(tl.float32)  # [BH, BD]
    bh = (b * HKV + hk).to(tl.int64)  # 64-bit offsets: caches can exceed 2^31 elements
    dc = D // 2 if KIND == 4 else D
    quant_end = (length // GK) * GK  # keys before this are quantised, the rest in the residual
    m_i = tl.full([BLOCK_H], float("-inf"), tl.float32)
    l_i = tl.zeros([BLOCK_H], tl.float32)
    acc = tl.zeros([BLOCK_H, BLOCK_D], tl.float32)
    for n0 in range(start, end, BLOCK_N):
        toks = n0 + tl.arange(0, BLOCK_N)  # [BN]
        tmask = toks < end
        tile = tmask[:, None] & dmask[None, :]  # [BN, BD]
        if KIND == 0:
            offs = (bh * S + toks)[:, None] * D + dims[None, :]
            k = tl.load(k_ptr + offs, mask=tile, other=0.0).to(tl.float32)
            v = tl.load(v_ptr + offs, mask=tile, other=0.0).to(tl.float32)
        else:
            col = dims // 2 if KIND == 4 else dims
            offs = (bh * S + toks)[:, None] * dc + col[None, :]
            kc = tl.load(k_ptr + offs, mask=tile & (toks < quant_end)[:, None], other=0)
            vc = tl.load(v_ptr + offs, mask=tile, other=0)
            if KIND == 4:
                shift = ((dims % 2) * 4)[None, :]
                kc = (kc >> shift) & 15
                vc = (vc >> shift) & 15
            goffs = (bh * (S // GK) + toks // GK)[:, None] * D + dims[None, :]
            kq = kc.to(tl.float32) * tl.load(ks_ptr + goffs, mask=tile, other=0.0).to(tl.float32)
            kq += tl.load(km_ptr + goffs, mask=tile, other=0.0).to(tl.float32)
            roffs = (bh * GK + toks % GK)[:, None] * D + dims[None, :]
            kr = tl.load(kr_ptr + roffs, mask=tile & (toks >= quant_end)[:, None], other=0.0)
            k = tl.where((toks < quant_end)[:, None], kq, kr.to(tl.float32))
            voffs = (bh * S + toks)[:, None] * (D // GV) + (dims // GV)[None, :]
            v = vc.to(tl.float32) * tl.load(vs_ptr + voffs, mask=tile, other=0.0).to(tl.float32)
            v += tl.load(vm_ptr + voffs, mask=tile, other=0.0).to(tl.float32)
        s = tl.dot(q, tl.trans(k), input_precision="ieee") * scale  # [BH, BN]
        s = tl.where(tmask[None, :], s, float("-inf"))
        m_new = tl.maximum(m_i, tl.max(s, 1))
        alpha = tl.exp(m_i - m_new)
        p = tl.exp(s - m_new[:, None])
        l_i = l_i * alpha + tl.sum(p, 1)
        acc = acc * alpha[:, None] + tl.dot(p, v, input_precision="ieee")
        m_i = m_new
    has = l_i > 0.0
    out = acc / tl.where(has, l_i, 1.0)[:, None]
    lse = tl.where(has, m_i + tl.log(tl.where(has, l_i, 1.0)), float("-inf"))
    rows = b * (GROUP * HKV) + hk * GROUP + heads  # [BH] flat (b, hq)
    tl.store(
        o_ptr + (rows * NUM_SPLITS + sp)[:, None] * D + dims[None, :],
        out,
        mask=hmask[:, None] & dmask[None, :],
    )
    tl.store(lse_ptr + rows * NUM_SPLITS + sp, lse, mask=hmask)


@triton.jit
def _decode_reduce_kernel(
    o_ptr,  # fp32 [B, Hq, NS, D]
    lse_ptr,  # fp32 [B, Hq, NS]
    out_ptr,  # [B, Hq, D]
    D,
    stride_ob,
    stride_oh,
    HQ: tl.constexpr,
    NUM_SPLITS: tl.constexpr,
    BLOCK_S: tl.constexpr,
    BLOCK_D: tl.constexpr,
):
    b = tl.program_id(0)
    h = tl.program_id(1)
    row = b * HQ + h
    splits = tl.arange(0, BLOCK_S)
    dims = tl.arange(0, BLOCK_D)
    smask = splits < NUM_SPLITS
    lse = tl.load(lse_ptr + row * NUM_SPLITS + splits, mask=smask, other=float("-inf"))  # [BS]
    top = tl.max(lse, 0)
    w = tl.where(lse > float("-inf"), tl.exp(lse - tl.where(top > float("-inf"), top, 0.0)), 0.0)
    parts = tl.load(
        o_ptr + (row * NUM_SPLITS + splits)[:, None] * D + dims[None, :],
        mask=smask[:, None] & (dims < D)[None, :],
        other=0.0,
    )  # [BS, BD]
    total = tl.sum(w, 0)
    out = tl.sum(parts * w[:, None], 0) / tl.where(total > 0.0, total, 1.0)
    tl.store(out_ptr + b * stride_ob + h * stride_oh + dims, out, mask=dims < D)


def decode_attention_triton(
    q: torch.Tensor,
    cache: KVCache,
    seq_lens: torch.Tensor,
    scale: float,
    seq_starts: torch.Tensor | None = None,
    max_len: int | None = None,
) -> torch.Tensor:
    """Triton launcher: split-KV stage then reduce."""
    if seq_starts is None:
        seq_starts = torch.zeros_like(seq_lens)
    b, hq, hkv, d = _check(q, cache, seq_lens, seq_starts)
    if q.stride(2) != 1:
        raise ValueError("q must be contiguous along the head dim.")
    group = hq // hkv
    blocks = attention_blocks(max_len or cache.max_seq_len, d, group, b * hkv, cache.dtype.itemsize)
    ns = blocks.num_splits
    parts = torch.empty(b, hq, ns, d, dtype=torch.float32, device=q.device)
    lse = torch.empty(b, hq, ns, dtype=torch.float32, device=q.device)
    out = torch.empty_like(q)
    quant = cache.kind != "fp"
    dummy = cache.k
    # fmt: off
    launch(
        _decode_split_kernel, (b, hkv, ns), not q.is_cuda, q, cache.k, cache.v,
        cache.k_scale if quant else dummy, cache.k_min if quant else dummy,
        cache.k_residual if quant else dummy, cache.v_scale if quant else dummy,
        cache.v_min if quant else dummy, seq_lens, seq_starts, parts, lse, float(scale),
        q.stride(0), q.stride(1), hkv, cache.max_seq_len, d, cache.key_group, cache.value_group,
        GROUP=group, KIND=_KIND_CODE[cache.kind], NUM_SPLITS=ns, BLOCK_N=blocks.block_n,
        BLOCK_H=blocks.block_h, BLOCK_D=blocks.block_d, num_warps=blocks.num_warps,
        num_stages=blocks.num_stages,
    )
    # fmt: on
    # fmt: off
    launch(
        _decode_reduce_kernel, (b, hq), not q.is_cuda, parts, lse, out, d, out.stride(0),
        out.stride(1), HQ=hq, NUM_SPLITS=ns, BLOCK_S=triton.next_power_of_2(ns),
        BLOCK_D=blocks.block_d,
    )
    # fmt: on
    return out


def decode_attention(
    q: torch.Tensor,  # [B, Hq, D]
    cache: KVCache,
    seq_lens: torch.Tensor | None = None,  # [B], default cache.seq_lens[:B]
    scale: float | None = None,  # default 1/sqrt(D)
    *,
    seq_starts: torch.Tensor | None = None,  # [B] first visible slot, default 0
    max_len: int | None = None,  # host-side bound on seq_lens (fewer, fuller splits)
    backend: str | None = None,
) -> torch.Tensor:  # [B, Hq, D] in q's dtype
    """Attention of one new query token per sequence over its cached keys and values."""
    if seq_lens is None:
        seq_lens = cache.seq_lens[: q.shape[0]]
    if scale is None:
        scale = q.shape[-1] ** -0.5
    if not use_triton(backend, q, cache.k, seq_lens):
        return decode_attention_reference(q, cache, seq_lens, scale, seq_starts)
    return decode_attention_triton(q, cache, seq_lens, scale, seq_starts, max_len)
