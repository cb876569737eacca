"""Decoder-only Mixture-of-Experts transformer: the one architecture the engine runs.

Mixtral, Qwen2-MoE and OLMoE differ only in switches of :class:`~engine.config.ModelConfig`
(shared expert, q/k/v biases, QK-norm, top-k renormalisation); the project's default model is
a small Mixtral. Numerics follow the Hugging Face reference: routing softmax/top-k in fp32,
RMSNorm in fp32, rotary tables from fp32 positions, so fp32 logits agree to ~1e-6.

Dimension legend:
  B batch · T tokens in this call · S key slots visible (cache length after the write)
  D model width · H query heads · Hkv key/value heads · Dh head width · V vocabulary
  E experts · K experts per token · F expert width · N = B*T flattened tokens
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import torch
import torch.nn.functional as F
from torch import Tensor, nn

from engine.config import ModelConfig
from engine.errors import EngineInputError

if TYPE_CHECKING:
    from engine.kv_cache import KVCache


class RMSNorm(nn.Module):
    def __init__(self, dim: int, eps: float) -> None:
        super().__init__()
        self.eps = eps
        self.weight = nn.Parameter(torch.ones(dim))

    def forward(self, x: Tensor) -> Tensor:
        if x.dtype == torch.float32:
            return F.rms_norm(x, self.weight.shape, self.weight, self.eps)
        xf = x.float()  # the reference normalises low-precision inputs in fp32
        xf = xf * torch.rsqrt(xf.pow(2).mean(-1, keepdim=True) + self.eps)
        return self.weight * xf.to(x.dtype)


def rope_inv_freq(cfg: ModelConfig, device: torch.device | str | None) -> Tensor:
    """Inverse rotary frequencies [Dh/2], computed in fp32 as the reference does."""
    return 1.0 / cfg.rope_theta ** (
        torch.arange(0, cfg.head_dim, 2, device=device).float() / cfg.head_dim
    )


def rope_tables(positions: Tensor, inv_freq: Tensor, dtype: torch.dtype) -> tuple[Tensor, Tensor]:
    """cos/sin tables [B, T, 1, Dh] for integer positions [B, T]."""
    freqs = positions[..., None].float() * inv_freq  # [B, T, Dh/2]
    emb = torch.cat((freqs, freqs), dim=-1)[:, :, None, :]  # [B, T, 1, Dh]
    return emb.cos().to(dtype), emb.sin().to(dtype)


def apply_rope(x: Tensor, cos: Tensor, sin: Tensor) -> Tensor:
    """Rotate x [B, T, h, Dh] by the position tables (rotate-half convention)."""
    x1, x2 = x.chunk(2, dim=-1)
    return x * cos + torch.cat((-x2, x1), dim=-1) * sin


class Attention(nn.Module):
    """Grouped-query self-attention with one fused q‖k‖v projection."""

    def __init__(self, cfg: ModelConfig) -> None:
        super().__init__()
        self.n_heads, self.n_kv_heads, self.head_dim = cfg.n_heads, cfg.n_kv_heads, cfg.head_dim
        q_width, kv_width = cfg.n_heads * cfg.head_dim, cfg.n_kv_heads * cfg.head_dim
        self.splits = [q_width, kv_width, kv_width]
        self.wqkv = nn.Linear(cfg.dim, q_width + 2 * kv_width, bias=cfg.qkv_bias)
        self.wo = nn.Linear(q_width, cfg.dim, bias=cfg.o_bias)
        self.q_norm = RMSNorm(q_width, cfg.rms_norm_eps) if cfg.qk_norm else None
        self.k_norm = RMSNorm(kv_width, cfg.rms_norm_eps) if cfg.qk_norm else None
        self.clip_qkv = cfg.clip_qkv

    def forward(
        self,
        x: Tensor,
        cos: Tensor,
        sin: Tensor,
        mask: Tensor | None,
        cache: KVCache | None,
        layer: int,
    ) -> Tensor:
        B, T, _ = x.shape
        H, Hkv, Dh = self.n_heads, self.n_kv_heads, self.head_dim
        qkv = self.wqkv(x)  # [B, T, (H + 2Hkv)·Dh]
        if self.q_norm is not None or self.clip_qkv is not None:
            q, k, v = qkv.split(self.splits, dim=-1)
            if self.q_norm is not None:
                q, k = self.q_norm(q), self.k_norm(k)
            if self.clip_qkv is not None:
                q, k, v = (t.clamp(-self.clip_qkv, self.clip_qkv) for t in (q, k, v))
            qkv = torch.cat((q, k, v), dim=-1)
        qk = apply_rope(
            qkv[..., : (H + Hkv) * Dh].view(B, T, H + Hkv, Dh), cos, sin
        )  # one rotation
        q = qk[:, :, :H].transpose(1, 2)  # [B, H, T, Dh]
        k = qk[:, :, H:].transpose(1, 2)  # [B, Hkv, T, Dh]
        v = qkv[..., (H + Hkv) * Dh :].view(B, T, Hkv, Dh).transpose(1, 2)  # [B, Hkv, T, Dh]
        if cache is None:
            out = F.scaled_dot_product_attention(
                q, k, v, attn_mask=mask, is_causal=mask is None and T > 1, enable_gqa=True
            )  # [B, H, T, Dh]
        else:
            out = cache.attend(layer, q, k, v, mask)  # [B, H, T, Dh]
        return self.wo(out.transpose(1, 2).reshape(B, T, -1))  # [B, T, D]


class FeedForward(nn.Module):
    """Dense SwiGLU MLP with a fused gate‖up projection: w2(silu(w1 x) * w3 x)."""

    def __init__(self, dim: int, hidden: int) -> None:
        super().__init__()
        self.hidden = hidden
        self.w13 = nn.Linear(dim, 2 * hidden, bias=False)  # rows [0, F) gate w1, [F, 2F) up w3
        self.w2 = nn.Linear(hidden, dim, bias=False)

    def forward(self, x: Tensor) -> Tensor:
        gate, up = self.w13(x).split(self.hidden, dim=-1)  # [N, F] x2
        return self.w2(F.silu(gate) * up)  # [N, D]


class MoEFeedForward(nn.Module):
    """Top-k routed SwiGLU experts, with Qwen2-MoE's sigmoid-gated shared expert if configured."""

    def __init__(self, cfg: ModelConfig) -> None:
        super().__init__()
        self.top_k, self.norm_topk_prob = cfg.top_k, cfg.norm_topk_prob
        E, F_, D = cfg.n_experts, cfg.intermediate_size, cfg.dim
        self.gate = nn.Linear(D, E, bias=False)  # the router
        self.w13 = nn.Parameter(torch.empty(E, 2 * F_, D))  # [E, 2F, D] gate w1 ‖ up w3
        self.w2 = nn.Parameter(torch.empty(E, D, F_))  # [E, D, F]
        self.shared = FeedForward(D, cfg.shared_expert_size) if cfg.shared_expert_size else None
        self.shared_gate = nn.Linear(D, 1, bias=False) if cfg.shared_expert_size else None

    def route(self, x: Tensor) -> tuple[Tensor, Tensor, Tensor]:
        """Router logits [N, E] (fp32), top-k weights [N, K] (fp32) and expert ids [N, K]."""
        logits = self.gate(x).float()  # [N, E]
        weights, ids = torch.topk(torch.softmax(logits, dim=-1), self.top_k, dim=-1)  # [N, K]
        if self.norm_topk_prob:
            weights = weights / weights.sum(dim=-1, keepdim=True)
        return logits, weights, ids

    def forward(self, x: Tensor, router_logits: list[Tensor] | None = None) -> Tensor:
        logits, weights, ids = self.route(x)  # x: [N, D]
        if router_logits is not None:
            router_logits.append(logits)
        out = experts_forward(x, self.w13, self.w2, weights.to(x.dtype), ids)  # [N, D]
        if self.shared is not None:
            out = out + torch.sigmoid(self.shared_gate(x)) * self.shared(x)
        return out


def experts_forward(x: Tensor, w13: Tensor, w2: Tensor, weights: Tensor, ids: Tensor) -> Tensor:
    """Σ_k weights[n,k] · expert_{ids[n,k]}(x[n]) through the kernels package (Triton on CUDA,
    the PyTorch reference on CPU, which is also differentiable for training)."""
    from kernels import fused_moe

    return fused_moe(x, w13, w2, weights, ids)


class Block(nn.Module):
    def __init__(self, cfg: ModelConfig, layer: int) -> None:
        super().__init__()
        self.layer = layer
        self.attn_norm = RMSNorm(cfg.dim, cfg.rms_norm_eps)
        self.attn = Attention(cfg)
        self.ffn_norm = RMSNorm(cfg.dim, cfg.rms_norm_eps)
        self.ffn: MoEFeedForward | FeedForward = (
            MoEFeedForward(cfg)
            if cfg.is_moe_layer(layer)
            else FeedForward(cfg.dim, cfg.dense_intermediate_size)
        )

    def forward(
        self,
        x: Tensor,
        cos: Tensor,
        sin: Tensor,
        mask: Tensor | None,
        cache: KVCache | None,
        router_logits: list[Tensor] | None,
    ) -> Tensor:
        h = x + self.attn(self.attn_norm(x), cos, sin, mask, cache, self.layer)  # [B, T, D]
        B, T, D = h.shape
        y = self.ffn_norm(h).view(B * T, D)  # [N, D]
        y = self.ffn(y, router_logits) if isinstance(self.ffn, MoEFeedForward) else self.ffn(y)
        return h + y.view(B, T, D)


class Transformer(nn.Module):
    """``model(input_ids) -> logits [B, T, V]``; with a :class:`KVCache` it prefills or decodes."""

    def __init__(self, cfg: ModelConfig) -> None:
        super().__init__()
        self.config = cfg
        self.embed = nn.Embedding(cfg.vocab_size, cfg.dim)
        self.layers = nn.ModuleList(Block(cfg, i) for i in range(cfg.n_layers))
        self.norm = RMSNorm(cfg.dim, cfg.rms_norm_eps)
        self.lm_head = nn.Linear(cfg.dim, cfg.vocab_size, bias=False)
        if cfg.tie_embeddings:
            self.lm_head.weight = self.embed.weight
        self.register_buffer("inv_freq", rope_inv_freq(cfg, None), persistent=False)  # [Dh/2]

    @property
    def device(self) -> torch.device:
        return self.embed.weight.device

    @property
    def dtype(self) -> torch.dtype:
        return self.embed.weight.dtype

    def forward(
        self,
        input_ids: Tensor,
        attention_mask: Tensor | None = None,
        *,
        cache: KVCache | None = None,
        last_only: bool = False,
        router_logits: list[Tensor] | None = None,
    ) -> Tensor:
        """Logits [B, T, V] (or [B, 1, V] with ``last_only``).

        ``attention_mask`` [B, T] marks the real tokens of ``input_ids`` (1) and left padding (0).
        With a cache the call appends T tokens after those already cached; without one it is a
        full causal forward. ``router_logits``, when a list, receives each MoE layer's [N, E].
        """
        B, T = input_ids.shape
        if cache is None or T > 1:
            self.check_input(input_ids, cache)
        start = cache.length if cache is not None else 0
        positions, mask = self._positions_and_mask(B, T, start, attention_mask, cache)
        cos, sin = rope_tables(positions, self.inv_freq, self.dtype)  # [B, T, 1, Dh] x2
        x = self.embed(input_ids)  # [B, T, D]
        for block in self.layers:
            x = block(x, cos, sin, mask, cache, router_logits)
        if cache is not None:
            cache.advance(T)
        if last_only:
            x = x[:, -1:]
        return self.lm_head(self.norm(x))  # [B, T, V]

    def check_input(self, input_ids: Tensor, cache: KVCache | None) -> None:
        if input_ids.dim() != 2:
            raise EngineInputError(
                f"input_ids must be a [batch, tokens] tensor, got shape {tuple(input_ids.shape)}."
            )
        if input_ids.dtype not in (torch.int64, torch.int32):
            raise EngineInputError(f"input_ids must hold integer token ids, got {input_ids.dtype}.")
        T = input_ids.shape[1]
        total = T + (cache.length if cache is not None else 0)
        limit = cache.max_len if cache is not None else self.config.max_seq_len
        if total > limit:
            raise EngineInputError(f"{total} tokens exceed the context of {limit} tokens.")
        if T and (int(input_ids.min()) < 0 or int(input_ids.max()) >= self.config.vocab_size):
            bad = int(input_ids.max()) if int(input_ids.min()) >= 0 else int(input_ids.min())
            raise EngineInputError(
                f"token id {bad} is outside the model's vocabulary of {self.config.vocab_size} ids."
            )

    def _positions_and_mask(
        self, B: int, T: int, start: int, attention_mask: Tensor | None, cache: KVCache | None
    ) -> tuple[Tensor, Tensor | None]:
        """Rotary positions [B, T] and a boolean mask [B, 1, T, S] (None = plain causal)."""
        dev = self.device
        base = cache.next_pos if cache is not None else torch.zeros(B, dtype=torch.long, device=dev)
        if attention_mask is None:
            positions = base[:, None] + torch.arange(T, device=dev)
            valid = None
        else:
            valid = attention_mask.to(device=dev, dtype=torch.bool)  # [B, T]
            positions = (base[:, None] + valid.long().cumsum(-1) - 1).masked_fill(~valid, 0)
        if cache is not None:
            cache.note_tokens(valid, positions)
            if not cache.has_padding and self.config.sliding_window is None:
                return positions, None if T == 1 else self._causal(T, start, None)
            return positions, self._causal(T, start, cache.key_valid[:, : start + T])
        if valid is None and self.config.sliding_window is None:
            return positions, None
        return positions, self._causal(T, 0, valid)

    def _causal(self, T: int, start: int, key_valid: Tensor | None) -> Tensor:
        """Mask [B|1, 1, T, S]: query slot start+i sees key slots <= its own that are valid,
        within the sliding window; every query sees itself so padded rows stay finite."""
        dev = self.device
        q = torch.arange(start, start + T, device=dev)[:, None]  # [T, 1]
        k = torch.arange(start + T, device=dev)[None, :]  # [1, S]
        allowed = k <= q  # [T, S]
        if self.config.sliding_window is not None:
            allowed = allowed & (k > q - self.config.sliding_window)
        allowed = allowed[None, None]  # [1, 1, T, S]
        if key_valid is not None:
            allowed = (allowed & key_valid[:, None, None, :]) | (k == q)[None, None]
        return allowed
