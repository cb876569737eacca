"""One decode step on the CPU without module calls: the inference fast path of
:meth:`engine.model.Transformer.forward` for one new token per row against a cache.

A batch-1 fp32 decode step of the bench model runs ~30 small projections and ~150 other
operator calls; about half of its CPU time was outside the matmuls (1 thread, against a
replay of its matmuls alone; docs/engine.md): ``nn.Module`` calls and attribute look-ups,
per-call tensor indexing of the expert weights, the rotary gather, splits. This path walks a flat per-layer plan built once per
cache (the weights of a model do not change during a generation) and issues only the operator
calls the arithmetic needs; the numerics are the module path's (same operators in fp32; at one
row the two experts' gate‖up products land in one buffer so SwiGLU runs once for both).

It is taken when autograd is off, the model is on the CPU and no router logits are requested;
layers with features it does not inline (QK-norm, q/k/v clipping, dense or shared-expert
feed-forwards) call their modules' own ``forward``.

Dimension legend: B rows · D width · H, Hkv heads · Dh head width · V vocabulary ·
E experts · K experts per token · F expert width.
"""

from __future__ import annotations

import weakref
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Protocol

import torch
import torch.nn.functional as F
from torch import Tensor

if TYPE_CHECKING:
    from engine.config import ModelConfig
    from engine.kv_cache import KVCache


class Transformer(Protocol):
    """What a decode step reads from the model (:class:`engine.model.Transformer` is one; the
    model imports this module for its fast path, never the reverse)."""

    config: ModelConfig
    layers: Any
    embed: Any
    norm: Any
    lm_head: Any
    __dict__: dict[str, Any]

    def rope_cache(self, length: int) -> Tensor: ...

    def positions_and_mask(
        self, B: int, T: int, start: int, attention_mask: Tensor | None, cache: KVCache | None
    ) -> tuple[Tensor, Tensor | None]: ...


# Below this many rows a step is matrix-vector products bound by memory: a second thread did
# not shorten it (2-core CPU, 1 vs 2 threads, best of 10 runs: 4.5 against 5.2 ms at batch 1),
# and each parallel region is a barrier that stalls for a whole time slice whenever another
# process holds the other core (median 5.8 against 21 ms on the shared machine).
ONE_THREAD_ROWS = 4


@dataclass
class _Layer:
    attn_norm: Tensor  # [D]
    ffn_norm: Tensor  # [D]
    attn: object  # the Attention module (for its projections and the generic fallback)
    plain_attn: bool  # no QK-norm and no clipping: inlined
    ffn: object  # MoEFeedForward or FeedForward
    gate_t: Tensor | None  # router weight transposed [D, E] (MoE layers)
    experts: list[tuple[Tensor, Tensor]] | None  # fp32 (w13ᵀ [D, 2F], w2ᵀ [F, D]) per expert


def _plan(model: Transformer, cache: KVCache) -> list[_Layer]:
    """The per-layer plan, built on the first decode step of a cache and kept with it."""
    held = model.__dict__.get("_decode_plan")
    if held is not None and held[0]() is cache:
        return held[1]
    plan = []
    for block in model.layers:
        ffn, moe = block.ffn, block.moe
        experts = None
        if moe and ffn.packed is None:
            experts = [(w13.t(), w2.t()) for w13, w2 in zip(ffn.w13, ffn.w2, strict=True)]
        plan.append(
            _Layer(
                attn_norm=block.attn_norm.weight,
                ffn_norm=block.ffn_norm.weight,
                attn=block.attn,
                plain_attn=block.attn.q_norm is None and block.attn.clip_qkv is None,
                ffn=ffn,
                gate_t=ffn.gate.weight.t() if moe else None,
                experts=experts,
            )
        )
    model.__dict__["_decode_plan"] = (weakref.ref(cache), plan)
    return plan


def decode_step(
    model: Transformer, input_ids: Tensor, cache: KVCache, return_hidden: bool = False
) -> Tensor:
    """Logits [B, 1, V] for one new token per row ``input_ids`` [B, 1] appended to ``cache``
    (the final normalised hidden states [B, 1, D] with ``return_hidden``); fewer than
    ``ONE_THREAD_ROWS`` rows run on one intra-op thread (this thread's setting, restored)."""
    threads = torch.get_num_threads()
    if threads == 1 or input_ids.shape[0] >= ONE_THREAD_ROWS:
        return _decode_step(model, input_ids, cache, return_hidden)
    torch.set_num_threads(1)
    try:
        return _decode_step(model, input_ids, cache, return_hidden)
    finally:
        torch.set_num_threads(threads)


def _decode_step(
    model: Transformer, input_ids: Tensor, cache: KVCache, return_hidden: bool
) -> Tensor:
    cfg = model.config
    B = input_ids.shape[0]
    start = cache.length
    positions, mask = model.positions_and_mask(B, 1, start, None, cache)
    table = model.rope_cache(start + 1)  # [L, 2, 1, Dh]
    if cache.has_padding:
        cos, sin = table[positions].unbind(2)  # [B, 1, 1, Dh] each
    else:  # every row is at position `start`
        cos, sin = table[start].unbind(0)  # [1, Dh] each
    eps = cfg.rms_norm_eps
    D = cfg.dim
    x = F.embedding(input_ids.view(B), model.embed.weight)  # [B, D]
    for layer, p in enumerate(_plan(model, cache)):
        a = F.rms_norm(x, (D,), p.attn_norm, eps)
        if p.plain_attn:
            o = _attention(p.attn, a, B, cos, sin, mask, cache, layer)
        else:
            o = p.attn.forward(a, B, (cos, sin), mask, cache, layer)
        h = o.add_(x)  # [B, D]
        y = F.rms_norm(h, (D,), p.ffn_norm, eps)
        if p.gate_t is None:
            x = p.ffn.forward(y).add_(h)
            continue
        x = _moe(p, y).add_(h)
    cache.advance(1)
    x = F.rms_norm(x, (D,), model.norm.weight, eps)
    return x.view(B, 1, D) if return_hidden else model.lm_head.forward(x).view(B, 1, -1)


def _attention(
    attn: object,
    a: Tensor,
    B: int,
    cos: Tensor,
    sin: Tensor,
    mask: Tensor | None,
    cache: KVCache,
    layer: int,
) -> Tensor:
    """The module's T == 1 attention: [B, 1, h, Dh] is [B, h, 1, Dh] in memory, q and k rotated
    together, keys and values written and attended by the cache; returns the output [B, D]."""
    H, Hkv, Dh = attn.n_heads, attn.n_kv_heads, attn.head_dim  # type: ignore[attr-defined]
    qkv = attn.wqkv.forward(a).view(B, H + 2 * Hkv, 1, Dh)  # type: ignore[attr-defined]
    qk, v = qkv[:, : H + Hkv], qkv[:, H + Hkv :]
    qk = torch.addcmul(qk * cos, qk.roll(Dh // 2, -1), sin)  # rotate-half rotation
    out = cache.attend(layer, qk[:, :H], qk[:, H:], v, mask)  # [B, H, 1, Dh]
    return attn.wo.forward(out.reshape(B, H * Dh))  # type: ignore[attr-defined]


def _moe(p: _Layer, y: Tensor) -> Tensor:
    """Routed experts (and the shared expert) of one MoE layer for y [B, D] -> [B, D]."""
    ffn = p.ffn
    if p.experts is None:  # fp16 weights (fbgemm): the module's own path
        return ffn.forward(y)  # type: ignore[attr-defined]
    logits = torch.mm(y, p.gate_t)  # [B, E] fp32 router logits
    if ffn.norm_topk_prob:  # type: ignore[attr-defined]
        top, ids = torch.topk(logits, ffn.top_k, dim=-1)  # type: ignore[attr-defined]
        weights = torch.softmax(top, dim=-1)  # [B, K]
    else:
        weights, ids = torch.topk(torch.softmax(logits, dim=-1), ffn.top_k, dim=-1)  # type: ignore[attr-defined]
    if y.shape[0] == 1:
        out = _one_row(y, p.experts, weights, ids.tolist()[0])
    else:
        from kernels.moe_host import moe_host_routed

        out = moe_host_routed(y, ffn.w13, ffn.w2, weights.tolist(), ids.tolist())  # type: ignore[attr-defined]
    if ffn.shared is not None:  # type: ignore[attr-defined]
        out = out + torch.sigmoid(ffn.shared_gate(y)) * ffn.shared(y)  # type: ignore[attr-defined]
    return out


def _one_row(
    y: Tensor, experts: list[tuple[Tensor, Tensor]], weights: Tensor, ids: list[int]
) -> Tensor:
    """One row: each selected expert's gate‖up product into one [K, 2F] buffer, SwiGLU once,
    then the down products summed with the routing weights as scale factors -> [1, D]."""
    K = len(ids)
    f = experts[0][1].shape[0]
    h = torch.empty(K, 2 * f, dtype=y.dtype)  # [K, 2F]
    for j, e in enumerate(ids):
        torch.mm(y, experts[e][0], out=h[j : j + 1])
    act = F.silu(h[:, :f]).mul_(h[:, f:])  # [K, F]
    w = weights.view(K).tolist()
    out = torch.mm(act[:1], experts[ids[0]][1]).mul_(w[0])  # [1, D]
    for j in range(1, K):
        out.addmm_(act[j : j + 1], experts[ids[j]][1], alpha=w[j])
    return out
