"""Static key/value caches: preallocated once per request batch, written in place.

All rows of a batch share one slot axis: prompts are left-padded to a common length, so the
token decoded at step i of every row lands in the same slot. ``key_valid`` marks the padding
slots no query may attend to, ``next_pos`` holds each row's next rotary position.

Layout (Dh head width, Hkv key/value heads, S slots): keys and values ``[L, B, Hkv, S, Dh]``.
The quantized variants live in :mod:`engine.kv_quant`; :func:`engine.kv_factory.make_cache`
picks one by kind.
"""

from __future__ import annotations

import torch
import torch.nn.functional as F
from torch import Tensor

from engine.config import ModelConfig


class KVCache:
    """Keys and values in the model dtype."""

    kind = "fp"

    def __init__(
        self,
        cfg: ModelConfig,
        batch_size: int,
        max_len: int,
        *,
        dtype: torch.dtype,
        device: torch.device | str,
    ) -> None:
        if max_len > cfg.max_seq_len:
            raise ValueError(
                f"a cache of {max_len} tokens exceeds the model's context of {cfg.max_seq_len} tokens."
            )
        self.cfg, self.batch_size, self.max_len = cfg, batch_size, max_len
        self.dtype, self.device = dtype, torch.device(device)
        self.length = 0  # slots written so far, shared by every row
        self.has_padding = False
        self.key_valid = torch.ones(batch_size, max_len, dtype=torch.bool, device=device)  # [B, S]
        self.next_pos = torch.zeros(batch_size, dtype=torch.long, device=device)  # [B]
        self._allocate()

    def _allocate(self) -> None:
        shape = (
            self.cfg.n_layers,
            self.batch_size,
            self.cfg.n_kv_heads,
            self.max_len,
            self.cfg.head_dim,
        )
        self.k = torch.zeros(shape, dtype=self.dtype, device=self.device)  # [L, B, Hkv, S, Dh]
        self.v = torch.zeros(shape, dtype=self.dtype, device=self.device)
        self._layers = list(zip(self.k.unbind(0), self.v.unbind(0), strict=True))  # views

    def note_tokens(self, valid: Tensor | None, positions: Tensor) -> None:
        """Record which of the T incoming tokens are real [B, T] and their positions [B, T]."""
        T = positions.shape[1]
        if valid is not None:
            self.key_valid[:, self.length : self.length + T] = valid
            self.has_padding = self.has_padding or not bool(valid.all())
        self.next_pos = positions[:, -1] + 1

    def advance(self, n: int) -> None:
        self.length += n

    def attend(self, layer: int, q: Tensor, k: Tensor, v: Tensor, mask: Tensor | None) -> Tensor:
        """Write k, v [B, Hkv, T, Dh] at the next T slots, attend q [B, H, T, Dh] to all slots."""
        s0, s1 = self.length, self.length + k.shape[2]
        kl, vl = self._layers[layer]  # [B, Hkv, S_max, Dh] views of the layer
        kl.narrow(2, s0, s1 - s0).copy_(k)
        vl.narrow(2, s0, s1 - s0).copy_(v)
        keys, values = kl.narrow(2, 0, s1), vl.narrow(2, 0, s1)  # [B, Hkv, S, Dh]
        return F.scaled_dot_product_attention(q, keys, values, attn_mask=mask, enable_gqa=True)

    def nbytes(self) -> int:
        """Bytes the cache holds for keys and values."""
        return sum(t.numel() * t.element_size() for t in self.tensors())

    def tensors(self) -> list[Tensor]:
        return [self.k, self.v]
