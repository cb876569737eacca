"""Quantized KV cache (int8 / int4, KIVI-style) on top of the kernels package's cache format.

The storage, the quantizers and the decode-attention kernel are ``kernels.KVCache`` and
``kernels.decode_attention`` (see kernels/README.md): keys are quantized per channel over groups
of 32 tokens, values per token over groups of channels, and the newest keys of an open group
stay in full precision until the group fills. This class adapts that per-layer cache to the
engine's batch-shared slot axis:

- prefill (the first call) attends to its own keys and values in full precision, as KIVI does,
  and stores them quantized;
- a decode step (one token) runs ``kernels.decode_attention`` over the quantized slots of each
  row, from its first real token (``starts``: the row's left padding) to the new token;
- any other call (a second multi-token chunk) attends to the dequantized cache.

Shapes: B batch, H query heads, Hkv key/value heads, T new tokens, S slots, Dh head width.
"""

from __future__ import annotations

import torch
import torch.nn.functional as F
from torch import Tensor

from engine.config import ModelConfig
from engine.kv_cache import KVCache


class QuantizedKVCache(KVCache):
    def __init__(
        self,
        cfg: ModelConfig,
        batch_size: int,
        max_len: int,
        *,
        dtype: torch.dtype,
        device: torch.device | str,
        bits: int,
    ) -> None:
        if bits not in (4, 8):
            raise ValueError(f"quantized KV caches hold 4 or 8 bits, not {bits}.")
        self.bits = bits
        self.kind = f"int{bits}"
        self.starts: Tensor | None = None  # [B] first real slot of each row
        super().__init__(cfg, batch_size, max_len, dtype=dtype, device=device)

    def _allocate(self) -> None:
        from kernels import KVCache as KernelCache

        self.layers = [
            KernelCache.allocate(
                self.batch_size,
                self.cfg.n_kv_heads,
                self.cfg.head_dim,
                self.max_len,
                kind=self.kind,
                dtype=self.dtype,
                device=self.device,
            )
            for _ in range(self.cfg.n_layers)
        ]

    def note_tokens(self, valid: Tensor | None, positions: Tensor) -> None:
        super().note_tokens(valid, positions)
        if self.starts is None:  # left padding only ever comes with the first call
            end = self.length + positions.shape[1]
            self.starts = (~self.key_valid[:, :end]).sum(-1).to(torch.int32)  # [B]

    def attend(self, layer: int, q: Tensor, k: Tensor, v: Tensor, mask: Tensor | None) -> Tensor:
        """Store k, v [B, Hkv, T, Dh] quantized, attend q [B, H, T, Dh] -> [B, H, T, Dh]."""
        from kernels import decode_attention

        cache = self.layers[layer]
        cache.append(k, v)
        T, S = q.shape[2], self.length + q.shape[2]
        if self.length == 0:  # prefill: its own keys in full precision
            return F.scaled_dot_product_attention(
                q, k, v, attn_mask=mask, is_causal=mask is None, enable_gqa=True
            )
        if T == 1:
            starts = self.starts
            if self.cfg.sliding_window is not None:
                starts = starts.clamp(min=S - self.cfg.sliding_window)
            out = decode_attention(q[:, :, 0], cache, seq_starts=starts, max_len=S)  # [B, H, Dh]
            return out[:, :, None]
        keys, values = cache.dequantize(S)  # fp32 [B, Hkv, S, Dh]
        return F.scaled_dot_product_attention(
            q, keys.to(q.dtype), values.to(q.dtype), attn_mask=mask, enable_gqa=True
        )

    def tensors(self) -> list[Tensor]:
        return [
            t
            for c in self.layers
            for t in (c.k, c.v, c.k_scale, c.k_min, c.k_residual, c.v_scale, c.v_min)
            if t is not None
        ]
